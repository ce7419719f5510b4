import Foundation
import MediaIO
import SpecvizTestSupport
import XCTest

final class RenderCLITests: XCTestCase {
    func assertCleanFailure(_ args: [String], dir: String, mentions: String, file: StaticString = #filePath, line: UInt = #line) throws {
        let before = CLI.files(dir)
        let r = try CLI.run(args)
        XCTAssertNotEqual(r.status, 0, "should fail: \(args)", file: file, line: line)
        let lines = r.stderr.split(separator: "\n").filter { !$0.isEmpty }
        XCTAssertEqual(lines.count, 1, "one error line, got: \(r.stderr)", file: file, line: line)
        XCTAssertTrue(r.stderr.lowercased().contains(mentions.lowercased()), "stderr: \(r.stderr)", file: file, line: line)
        XCTAssertEqual(CLI.files(dir), before, "no output file left behind", file: file, line: line)
    }

    func testBadInputsGiveOneErrorLineAndNoOutput() throws {
        let dir = CLI.tempDir()
        let out = dir + "/out.mp4"
        try assertCleanFailure(["render", dir + "/missing.wav", "-o", out], dir: dir, mentions: "cannot open")
        XCTAssertTrue(FileManager.default.createFile(atPath: dir + "/empty.wav", contents: Data()))
        try assertCleanFailure(["render", dir + "/empty.wav", "-o", out], dir: dir, mentions: "empty.wav")
        XCTAssertTrue(FileManager.default.createFile(atPath: dir + "/notes.txt", contents: Data("hello, this is not audio\n".utf8)))
        try assertCleanFailure(["render", dir + "/notes.txt", "-o", out], dir: dir, mentions: "notes.txt")
        // A WAV cut inside its header.
        try Signals.writeWAV(Signals.sines([(440, 0.5)], seconds: 0.5), to: dir + "/full.wav")
        let full = try Data(contentsOf: URL(fileURLWithPath: dir + "/full.wav"))
        XCTAssertTrue(FileManager.default.createFile(atPath: dir + "/truncated.wav", contents: full.prefix(30)))
        try assertCleanFailure(["render", dir + "/truncated.wav", "-o", out], dir: dir, mentions: "truncated.wav")
        // A valid WAV with no samples.
        try Signals.writeWAV([], to: dir + "/zero.wav")
        try assertCleanFailure(["render", dir + "/zero.wav", "-o", out, "--size", "64x36"], dir: dir, mentions: "no audio")
        // An output folder that does not exist.
        try assertCleanFailure(["render", dir + "/full.wav", "-o", dir + "/no/such/dir/out.mp4"], dir: dir, mentions: "cannot write")
        // An unknown mode.
        try assertCleanFailure(["render", dir + "/full.wav", "-o", out, "--mode", "lasers"], dir: dir, mentions: "mode")
    }

    func testRefusesToOverwriteWithoutY() throws {
        let dir = CLI.tempDir()
        try Signals.writeWAV(Signals.sines([(440, 0.5)], seconds: 0.3), to: dir + "/a.wav")
        XCTAssertTrue(FileManager.default.createFile(atPath: dir + "/still.png", contents: Data("keep".utf8)))
        let r = try CLI.run(["render", dir + "/a.wav", "-o", dir + "/still.png", "--at", "0.2", "--size", "64x36"])
        XCTAssertNotEqual(r.status, 0)
        XCTAssertTrue(r.stderr.contains("exists"), r.stderr)
        XCTAssertEqual(try String(contentsOfFile: dir + "/still.png", encoding: .utf8), "keep")
        let y = try CLI.run(["render", dir + "/a.wav", "-o", dir + "/still.png", "--at", "0.2", "--size", "64x36", "-y"])
        XCTAssertEqual(y.status, 0, y.stderr)
        XCTAssertEqual(try PNGFile.read(dir + "/still.png").width, 64)
    }

    func testMP4HasH264AndAACWithTheRightFramesAndDuration() throws {
        let dir = CLI.tempDir()
        let seconds = 2.0
        try Signals.writeWAV(Signals.sines([(440, 0.3), (880, 0.3)], seconds: seconds), channels: 2, to: dir + "/tone.wav")
        let r = try CLI.run([
            "render", dir + "/tone.wav", "-o", dir + "/out.mp4", "--size", "160x90", "--fps", "30",
            "--x264-preset", "ultrafast", "--quiet",
        ])
        XCTAssertEqual(r.status, 0, r.stderr)
        let probe = try MediaProbe(path: dir + "/out.mp4")
        XCTAssertEqual(probe.streams.map(\.codec).sorted(), ["aac", "h264"])
        let video = probe.streams.first { $0.kind == "video" }!
        let audio = probe.streams.first { $0.kind == "audio" }!
        XCTAssertEqual(video.packets, 60)
        XCTAssertEqual(video.width, 160)
        XCTAssertEqual(video.duration, seconds, accuracy: 1.0 / 30)
        XCTAssertEqual(audio.duration, seconds, accuracy: 1.0 / 30 + 1024.0 / 44100)
        XCTAssertEqual(CLI.files(dir), ["out.mp4", "tone.wav"], "no temporary files left")
    }

    func testPNGSequenceAndFromTo() throws {
        let dir = CLI.tempDir()
        try Signals.writeWAV(Signals.sines([(1000, 0.4)], seconds: 1), to: dir + "/tone.wav")
        try FileManager.default.createDirectory(atPath: dir + "/frames", withIntermediateDirectories: true)
        let r = try CLI.run([
            "render", dir + "/tone.wav", "-o", dir + "/frames/%04d.png", "--size", "64x36", "--fps", "10",
            "--from", "0.5", "--to", "0.8", "--quiet",
        ])
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertEqual(CLI.files(dir + "/frames"), ["0001.png", "0002.png", "0003.png"])
    }

    func testFrameDumpMatchesThePNG() throws {
        let dir = CLI.tempDir()
        try Signals.writeWAV(Signals.sines([(440, 0.4), (3000, 0.2)], seconds: 1), to: dir + "/tone.wav")
        let r = try CLI.run([
            "render", dir + "/tone.wav", "--at", "0.8", "--no-labels", "--size", "160x90",
            "--dump-frame", dir + "/f.svzf", "-o", dir + "/f.png",
        ])
        XCTAssertEqual(r.status, 0, r.stderr)
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: dir + "/f.svzf")))
        XCTAssertEqual(Array(bytes[0..<4]), Array("SVZF".utf8))
        XCTAssertEqual(bytes[4], 1) // version
        XCTAssertEqual(bytes[8], 160) // width
        XCTAssertEqual(bytes[12], 90) // height
    }

    /// `bench --dump` times the rasteriser on a dump and prints llvmpipe-style figures;
    /// something that is not a dump is one error line.
    func testBenchDumpTimesTheRasteriser() throws {
        let dir = CLI.tempDir()
        try Signals.writeWAV(Signals.sines([(440, 0.4)], seconds: 1), to: dir + "/tone.wav")
        var r = try CLI.run([
            "render", dir + "/tone.wav", "--at", "0.8", "--no-labels", "--size", "160x90", "--mode", "surface",
            "--dump-frame", dir + "/f.svzf", "-o", dir + "/f.png",
        ])
        XCTAssertEqual(r.status, 0, r.stderr)
        r = try CLI.run(["bench", "--dump", dir + "/f.svzf", "--frames", "2", "--threads", "2"])
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertTrue(r.stdout.contains("160x90"), r.stdout)
        XCTAssertNotNil(
            r.stdout.range(
                of: #"time: 2 frames, wall [0-9.]+ ms/frame, cpu [0-9.]+ ms/frame"#,
                options: .regularExpression), r.stdout)
        r = try CLI.run(["bench", "--dump", dir + "/f.png"])
        XCTAssertNotEqual(r.status, 0)
        XCTAssertEqual(r.stderr, "specviz: error: \(dir)/f.png: not a frame dump\n")
    }

    /// `--bpm` and `--tuner` show only in the modes with overlays: asked for elsewhere, one note
    /// says so (the picture is made all the same); where they show, or with --quiet, nothing.
    func testOverlaysAskedForInAModeWithoutThemAreNoted() throws {
        let dir = CLI.tempDir()
        try Signals.writeWAV(Signals.sines([(440, 0.4)], seconds: 0.5), to: dir + "/a.wav")
        let still = ["render", dir + "/a.wav", "--size", "64x36", "--no-labels", "--at", "0.2", "-o", dir + "/s.png", "-y"]
        var r = try CLI.run(still + ["--mode", "circular", "--bpm", "--tuner"])
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertEqual(
            r.stderr, "specviz: note: circular mode draws no overlays: --tuner and --bpm show only in bars, curve, surface, surface+\n")
        r = try CLI.run(still + ["--mode", "spectrogram", "--bpm"])
        XCTAssertTrue(r.stderr.contains("spectrogram mode draws no overlays: --bpm shows only in bars"), r.stderr)
        for extra in [["--mode", "bars", "--bpm", "--tuner"], ["--mode", "tuner", "--tuner"], ["--mode", "scope", "--bpm", "--quiet"]] {
            r = try CLI.run(still + extra)
            XCTAssertEqual(r.status, 0, r.stderr)
            XCTAssertFalse(r.stderr.contains("note:"), "\(extra): \(r.stderr)")
        }
    }

    func testModesListsEveryMode() throws {
        let r = try CLI.run(["modes"])
        XCTAssertEqual(r.status, 0)
        for m in ["bars", "curve", "circular", "spectrogram", "surface", "surface+", "tuner"] {
            XCTAssertTrue(r.stdout.contains(m), "missing \(m)")
        }
    }
}
