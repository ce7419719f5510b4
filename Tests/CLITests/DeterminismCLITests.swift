import Foundation
import SpecvizTestSupport
import XCTest

/// The same input and settings give the same MP4 bytes whatever the machine: the rasteriser's
/// threads, the cores the process may use (which x264 would size its threads by) and a
/// batch's share of the cores change nothing.
final class DeterminismCLITests: XCTestCase {
    func testTheBytesDoNotDependOnThreadsOrCores() throws {
        let dir = CLI.tempDir()
        let input = dir + "/in.wav"
        try Signals.writeWAV(Signals.sines([(220, 0.3), (330, 0.2)], seconds: 1), to: input)
        let look = ["--size", "160x96", "--fps", "15", "--mode", "bars"]

        let two = try CLI.run(["render", input, "-o", dir + "/two.mp4", "--threads", "2"] + look)
        XCTAssertEqual(two.status, 0, two.stderr)
        // One core only (as on a one-core host): x264's own choice would be 1 thread, not 3.
        let taskset = "/usr/bin/taskset"
        try XCTSkipUnless(FileManager.default.isExecutableFile(atPath: taskset), "no taskset")
        let p = Process()
        p.executableURL = URL(fileURLWithPath: taskset)
        p.arguments = ["-c", "0", CLI.binary, "render", input, "-o", dir + "/one.mp4", "--threads", "1", "--quiet"] + look
        p.standardOutput = FileHandle.nullDevice
        try p.run()
        p.waitUntilExit()
        XCTAssertEqual(p.terminationStatus, 0)
        // A batch child, given cores/j rasteriser threads.
        let batch = try CLI.run(["render", input, "-o", dir + "/batch/{stem}.mp4", "-j", "1", "--quiet"] + look)
        XCTAssertEqual(batch.status, 0, batch.stderr)

        let reference = try Data(contentsOf: URL(fileURLWithPath: dir + "/two.mp4"))
        XCTAssertGreaterThan(reference.count, 1000)
        for other in ["one.mp4", "batch/in.mp4"] {
            let bytes = try Data(contentsOf: URL(fileURLWithPath: dir + "/" + other))
            XCTAssertTrue(bytes == reference, "\(other) differs from two.mp4 (\(bytes.count) vs \(reference.count) bytes)")
        }
    }

    /// VP9 in WebM, H.264 in Matroska and ProRes 4444 in MOV: the same bytes on one core and
    /// on two (Matroska's random segment and track UIDs were the only difference).
    func testWebMMatroskaAndProResBytesAreTheSameOnOneCoreAndTwo() throws {
        let dir = CLI.tempDir()
        let input = dir + "/in.wav"
        try Signals.writeWAV(Signals.sines([(220, 0.3), (330, 0.2)], seconds: 1), to: input)
        let taskset = "/usr/bin/taskset"
        try XCTSkipUnless(FileManager.default.isExecutableFile(atPath: taskset), "no taskset")
        for (name, extra) in [("v.webm", []), ("h.mkv", []), ("p.mov", ["--transparent"])] {
            for cores in ["0", "0,1"] {
                let p = Process()
                p.executableURL = URL(fileURLWithPath: taskset)
                p.arguments =
                    ["-c", cores, CLI.binary, "render", input, "-o", dir + "/\(cores)-" + name, "--size", "64x36", "--fps", "10", "--quiet"]
                    + extra
                try p.run()
                p.waitUntilExit()
                XCTAssertEqual(p.terminationStatus, 0, name)
            }
            let one = try Data(contentsOf: URL(fileURLWithPath: dir + "/0-" + name))
            let two = try Data(contentsOf: URL(fileURLWithPath: dir + "/0,1-" + name))
            XCTAssertGreaterThan(one.count, 1000, name)
            XCTAssertTrue(one == two, "\(name): one core and two differ")
        }
    }
}
