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

/// `--skip-existing` and `--retries`: a batch run again resumes.
final class BatchResumeCLITests: XCTestCase {
    func testSkipExistingKeepsCompleteOutputsAndRetriesOnlyRealFailures() throws {
        let dir = CLI.tempDir()
        for (i, name) in ["a", "b", "c"].enumerated() {
            try Signals.writeWAV(Signals.sines([(220 * Double(i + 1), 0.4)], seconds: 1), to: "\(dir)/\(name).wav")
        }
        try Signals.writeWAV(Signals.sines([(440, 0.4)], seconds: 0.3), to: dir + "/short.wav")
        let good = try Data(contentsOf: URL(fileURLWithPath: dir + "/a.wav"))
        XCTAssertTrue(FileManager.default.createFile(atPath: dir + "/corrupt.wav", contents: good.prefix(30)))
        let common = ["-o", dir + "/out/{stem}.mp4", "--from", "0.5", "--size", "64x36", "--fps", "15", "--x264-preset", "ultrafast"]
        let abc = ["a", "b", "c"].map { "\(dir)/\($0).wav" }
        let first = try CLI.run(["render"] + abc + common)
        XCTAssertEqual(first.status, 0, first.stderr)

        // b's output is gone, c's is cut short (its sample table points past the end).
        let before = try FileManager.default.attributesOfItem(atPath: dir + "/out/a.mp4")
        try FileManager.default.removeItem(atPath: dir + "/out/b.mp4")
        let whole = try Data(contentsOf: URL(fileURLWithPath: dir + "/out/c.mp4"))
        try whole.prefix(whole.count / 2).write(to: URL(fileURLWithPath: dir + "/out/c.mp4"))

        let all = abc + [dir + "/short.wav", dir + "/corrupt.wav"]
        let second = try CLI.run(["render"] + all + common + ["--skip-existing", "--retries", "2", "-j", "2"])
        XCTAssertEqual(second.status, 1, second.stderr)
        XCTAssertTrue(second.stderr.contains("skipped a.wav"), second.stderr)
        XCTAssertTrue(second.stderr.contains("total: 5/5 files (1 skipped)"), second.stderr)
        XCTAssertTrue(second.stderr.contains("retry 2/2 corrupt.wav"), second.stderr)
        XCTAssertTrue(second.stderr.contains("(3 attempts)"), second.stderr)
        XCTAssertFalse(second.stderr.contains("retry 1/2 short.wav"), "a usage error (--from past the end) is not retried: \(second.stderr)")
        XCTAssertTrue(second.stderr.contains("2 of 5 files failed"), second.stderr)
        let after = try FileManager.default.attributesOfItem(atPath: dir + "/out/a.mp4")
        XCTAssertEqual(before[.modificationDate] as? Date, after[.modificationDate] as? Date, "a.mp4 was not written again")
        for name in ["b", "c"] {
            let video = try XCTUnwrap(MediaProbe(path: "\(dir)/out/\(name).mp4").streams.first { $0.kind == "video" })
            XCTAssertEqual(video.duration, 0.5, accuracy: 1.0 / 15 + 1e-6, name)
        }

        let third = try CLI.run(["render"] + abc + common + ["--skip-existing"])
        XCTAssertEqual(third.status, 0, third.stderr)
        XCTAssertTrue(third.stderr.contains("(3 skipped)"), third.stderr)
        XCTAssertEqual(CLI.files(dir + "/out"), ["a.mp4", "b.mp4", "c.mp4"])
    }
}
