import Foundation
import MediaIO
import SpecvizTestSupport
import XCTest

/// The README's GNU parallel recipe (examples/segments-parallel.sh) on this machine (`-S :`).
final class ParallelRecipeCLITests: XCTestCase {
    func testSegmentsThroughGNUParallelJoinToTheWholeFile() throws {
        let dir = CLI.tempDir()
        let input = dir + "/long take.wav" // a space: the recipe must quote
        try Signals.writeWAV(Signals.sines([(330, 0.3), (495, 0.2)], seconds: 3), to: input)
        let script = GoldenFrame.root + "/examples/segments-parallel.sh"
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/bin/sh")
        p.arguments = [script, input, dir + "/joined.mp4", "3", "--size", "96x54", "--fps", "30", "--x264-preset", "ultrafast"]
        var env = ProcessInfo.processInfo.environment
        env["SPECVIZ"] = CLI.binary
        env["HOSTS"] = ":"
        env["XDG_CONFIG_HOME"] = dir + "/config"
        env["HOME"] = dir + "/home" // parallel keeps its state in ~/.parallel
        p.environment = env
        let err = Pipe()
        p.standardError = err
        p.standardOutput = FileHandle.nullDevice
        p.standardInput = FileHandle.nullDevice
        try p.run()
        let text = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        p.waitUntilExit()
        XCTAssertEqual(p.terminationStatus, 0, "needs GNU parallel (scripts/setup.sh installs it): \(text)")
        let probe = try MediaProbe(path: dir + "/joined.mp4")
        let video = try XCTUnwrap(probe.streams.first { $0.kind == "video" })
        XCTAssertEqual(video.packets, 90)
        XCTAssertEqual(video.duration, 3, accuracy: 1.0 / 30)
        XCTAssertEqual(probe.streams.filter { $0.kind == "audio" }.count, 1)
        XCTAssertEqual(CLI.files(dir).filter { $0.hasPrefix(".") }, [], "the parts' folder is removed")
    }
}
