import Foundation
import MediaIO
import SpecvizTestSupport
import XCTest

/// `render a b c … -o 'out/{stem}.mp4' -j N`: many files, one bad one does not stop the rest.
final class BatchCLITests: XCTestCase {
    func testBatchRendersEveryGoodFileAndReportsTheBadOne() throws {
        let dir = CLI.tempDir()
        var inputs: [String] = []
        for (i, f) in [220.0, 330, 440, 550].enumerated() {
            let path = dir + "/tone\(i + 1).wav"
            try Signals.writeWAV(Signals.sines([(f, 0.4)], seconds: 0.5 + 0.25 * Double(i)), to: path)
            inputs.append(path)
        }
        let corrupt = dir + "/corrupt.wav"
        let good = try Data(contentsOf: URL(fileURLWithPath: inputs[0]))
        XCTAssertTrue(FileManager.default.createFile(atPath: corrupt, contents: good.prefix(30)))
        // Two more from a list file (comments and blank lines are skipped).
        let listed = [dir + "/listed1.wav", dir + "/listed2.wav"]
        for p in listed { try Signals.writeWAV(Signals.sines([(660, 0.4)], seconds: 0.4), to: p) }
        try "# more\n\(listed[0])\n\n\(listed[1])\n".write(toFile: dir + "/list.txt", atomically: true, encoding: .utf8)

        let args = [
            "render", inputs[0], inputs[1], corrupt, inputs[2], inputs[3], "--inputs-from", dir + "/list.txt",
            "-o", dir + "/out/{stem}.mp4", "-j", "2", "--size", "64x36", "--fps", "15", "--x264-preset", "ultrafast",
        ]
        let r = try CLI.run(args)
        XCTAssertEqual(r.status, 1, "some failed: exit status 1\n\(r.stderr)")
        let errors = r.stderr.split(separator: "\n").filter { $0.hasPrefix("specviz: error:") }
        XCTAssertEqual(errors.count, 2, r.stderr)
        XCTAssertTrue(errors[0].contains("corrupt.wav"), r.stderr)
        XCTAssertTrue(errors[1].contains("1 of 7 files failed"), r.stderr)
        XCTAssertTrue(r.stderr.contains("ok tone3.wav"), "one line per file: \(r.stderr)")
        XCTAssertTrue(r.stderr.contains("total: 7/7 files"), r.stderr)

        let expected = ["listed1.mp4", "listed2.mp4", "tone1.mp4", "tone2.mp4", "tone3.mp4", "tone4.mp4"]
        XCTAssertEqual(CLI.files(dir + "/out"), expected, "six videos, nothing for the bad file, no leftovers")
        for (name, seconds) in zip(expected, [0.4, 0.4, 0.5, 0.75, 1.0, 1.25]) {
            let video = try XCTUnwrap(MediaProbe(path: dir + "/out/" + name).streams.first { $0.kind == "video" })
            XCTAssertEqual(video.duration, seconds, accuracy: 1.0 / 15 + 1e-6, name)
            XCTAssertEqual(video.width, 64)
        }

        // Again without -y: every output exists, so every file fails, and nothing changes.
        let again = try CLI.run(args)
        XCTAssertEqual(again.status, 1)
        XCTAssertTrue(again.stderr.contains("7 of 7 files failed"), again.stderr)
        XCTAssertEqual(CLI.files(dir + "/out"), expected)
    }

    func testBatchNeedsAnOutputPatternAndDistinctOutputs() throws {
        let dir = CLI.tempDir()
        try Signals.writeWAV(Signals.sines([(440, 0.4)], seconds: 0.3), to: dir + "/a.wav")
        try FileManager.default.createDirectory(atPath: dir + "/sub", withIntermediateDirectories: true)
        try Signals.writeWAV(Signals.sines([(440, 0.4)], seconds: 0.3), to: dir + "/sub/a.wav")
        let plain = try CLI.run(["render", dir + "/a.wav", dir + "/sub/a.wav", "-o", dir + "/out.mp4"])
        XCTAssertNotEqual(plain.status, 0)
        XCTAssertTrue(plain.stderr.contains("{stem}"), plain.stderr)
        let clash = try CLI.run(["render", dir + "/a.wav", dir + "/sub/a.wav", "-o", dir + "/{stem}.mp4"])
        XCTAssertNotEqual(clash.status, 0)
        XCTAssertTrue(clash.stderr.contains("would both write"), clash.stderr)
        let byDir = try CLI.run(["render", dir + "/a.wav", dir + "/sub/a.wav", "-o", "{dir}/{stem}.mp4", "--size", "64x36", "--quiet"])
        XCTAssertEqual(byDir.status, 0, byDir.stderr)
        XCTAssertTrue(FileManager.default.fileExists(atPath: dir + "/sub/a.mp4"))
        XCTAssertTrue(FileManager.default.fileExists(atPath: dir + "/a.mp4"))
    }

    func testStoppingABatchStopsItsRendersAndLeavesNothing() throws {
        let dir = CLI.tempDir()
        for i in 1...3 { try Signals.writeWAV(Signals.sines([(220 * Double(i), 0.4)], seconds: 30), to: dir + "/long\(i).wav") }
        let p = Process()
        p.executableURL = URL(fileURLWithPath: CLI.binary)
        p.arguments = [
            "render", dir + "/long1.wav", dir + "/long2.wav", dir + "/long3.wav", "-o", dir + "/out/{stem}.mp4",
            "-j", "2", "--size", "320x180",
        ]
        let err = Pipe()
        p.standardError = err
        p.standardOutput = FileHandle.nullDevice
        try p.run()
        // Wait until both renders have started writing, then stop the batch (as a scheduler would).
        let deadline = Date().addingTimeInterval(20)
        while CLI.files(dir + "/out").count < 2 && Date() < deadline { usleep(50_000) }
        XCTAssertEqual(CLI.files(dir + "/out").count, 2, "two renders at once")
        kill(p.processIdentifier, SIGTERM)
        let text = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        p.waitUntilExit()
        XCTAssertNotEqual(p.terminationStatus, 0)
        XCTAssertTrue(text.contains("specviz: error: interrupted"), text)
        XCTAssertEqual(CLI.files(dir + "/out"), [], "the renders removed their partial files")
    }
}
