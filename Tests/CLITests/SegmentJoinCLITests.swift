import Foundation
import MediaIO
import SpecvizTestSupport
import XCTest

/// `render --segment K/N` + `join`: the joined video is the single-pass video.
final class SegmentJoinCLITests: XCTestCase {
    let size = ["--size", "320x180", "--fps", "30"]

    /// A 6 s file (a short stand-in for the 60 s check) with a rising sweep over a steady
    /// tone, so the analysis state changes all the time and a seam would show.
    func makeInput(_ dir: String, seconds: Double = 6) throws -> String {
        let rate = 44100
        var samples = Signals.sines([(220, 0.25)], seconds: seconds, sampleRate: rate)
        var phase = 0.0
        for i in samples.indices {
            let f = 300 * pow(8, Double(i) / Double(samples.count))
            phase += 2 * Double.pi * f / Double(rate)
            samples[i] += Float(0.25 * sin(phase))
        }
        let path = dir + "/in.wav"
        try Signals.writeWAV(samples, sampleRate: rate, to: path)
        return path
    }

    func testSegmentsAsPNGAreTheSinglePassFrames() throws {
        let dir = CLI.tempDir()
        let input = try makeInput(dir, seconds: 2)
        // With the tuner overlay: its readings are those of a single pass too.
        let small = ["--size", "96x54", "--fps", "30", "--tuner", "--quiet"]
        for sub in ["/one", "/seg"] {
            try FileManager.default.createDirectory(atPath: dir + sub, withIntermediateDirectories: true)
        }
        let r = try CLI.run(["render", input, "-o", dir + "/one/%04d.png"] + small)
        XCTAssertEqual(r.status, 0, r.stderr)
        // Out of order on purpose: each segment warms up on its own.
        for k in [3, 1, 2] {
            let s = try CLI.run(["render", input, "--segment", "\(k)/3", "-o", dir + "/seg/%04d.png"] + small)
            XCTAssertEqual(s.status, 0, s.stderr)
        }
        let one = CLI.files(dir + "/one"), seg = CLI.files(dir + "/seg")
        XCTAssertEqual(one.count, 60)
        XCTAssertEqual(seg, one, "the segments write the same frame numbers")
        for name in one {
            let a = try PNGFile.read(dir + "/one/" + name), b = try PNGFile.read(dir + "/seg/" + name)
            XCTAssertTrue(a.pixels == b.pixels, "frame \(name) differs")
        }
        // A still at a boundary is that frame too.
        let still = try CLI.run(["render", input, "--at", String(20.0 / 30), "-o", dir + "/at.png"] + small)
        XCTAssertEqual(still.status, 0, still.stderr)
        XCTAssertTrue(try PNGFile.read(dir + "/at.png").pixels == PNGFile.read(dir + "/seg/0021.png").pixels)
    }

    func testJoinedSegmentsMatchASinglePassVideo() throws {
        let dir = CLI.tempDir()
        let seconds = 6.0
        let input = try makeInput(dir, seconds: seconds)
        let encode = size + ["--crf", "14", "--x264-preset", "ultrafast", "--quiet"]
        XCTAssertEqual(try CLI.run(["render", input, "-o", dir + "/single.mp4"] + encode).status, 0)
        var parts: [String] = []
        for k in 1...4 {
            let part = dir + "/part\(k).mp4"
            let r = try CLI.run(["render", input, "--segment", "\(k)/4", "-o", part] + encode)
            XCTAssertEqual(r.status, 0, r.stderr)
            parts.append(part)
        }
        let j = try CLI.run(["join"] + parts + ["--audio", input, "-o", dir + "/joined.mp4", "--quiet"])
        XCTAssertEqual(j.status, 0, j.stderr)

        let probe = try MediaProbe(path: dir + "/joined.mp4")
        let video = try XCTUnwrap(probe.streams.first { $0.kind == "video" })
        let audio = try XCTUnwrap(probe.streams.first { $0.kind == "audio" })
        XCTAssertEqual(video.packets, 180)
        XCTAssertEqual(video.duration, seconds, accuracy: 1.0 / 30, "duration within one frame")
        XCTAssertEqual(audio.duration, seconds, accuracy: 1.0 / 30)

        // Decoded frames around each join against the single pass (both H.264 at crf 14).
        let psnr = try framePSNR(dir + "/joined.mp4", dir + "/single.mp4", dir: dir)
        XCTAssertEqual(psnr.count, 180)
        for boundary in [45, 90, 135] {
            for n in (boundary - 2)...(boundary + 2) {
                XCTAssertGreaterThanOrEqual(psnr[n], 45, "frame \(n) at the join before frame \(boundary)")
            }
        }

        // The sound is continuous: around each join the decoded sound is the original's
        // (a gap or a click would differ by about the signal's level, 0.35 RMS).
        let joined = try monoSamples(dir + "/joined.mp4", seconds: seconds + 1)
        let original = try monoSamples(input, seconds: seconds + 1)
        XCTAssertEqual(Double(joined.count) / 44100, seconds, accuracy: 0.05)
        for join in [1.5, 3.0, 4.5] {
            let centre = Int(join * 44100)
            let range = (centre - 882)..<(centre + 882)
            let diff = range.map { joined[$0] - original[$0] }
            XCTAssertLessThan(ToneGenerators.rms(diff), 0.03, "sound at the join at \(join) s")
            XCTAssertGreaterThan(ToneGenerators.rms(range.map { joined[$0] }), 0.25)
        }
    }

    func monoSamples(_ path: String, seconds: Double) throws -> [Float] {
        let decoder = try AudioDecoder(path: path)
        XCTAssertEqual(decoder.sampleRate, 44100)
        var buffer = [Float](repeating: 0, count: Int(seconds * 44100))
        var n = 0
        while n < buffer.count {
            let got = try buffer.withUnsafeMutableBufferPointer {
                try decoder.readMono(into: UnsafeMutableBufferPointer(rebasing: $0[n...]))
            }
            if got == 0 { break }
            n += got
        }
        return Array(buffer[..<n])
    }

    func testMatroskaSegmentsOfAFromToSpanJoin() throws {
        let dir = CLI.tempDir()
        let input = try makeInput(dir, seconds: 3)
        for k in 1...2 {
            let r = try CLI.run([
                "render", input, "--from", "0.5", "--to", "2.5", "--segment", "\(k)/2", "-o", dir + "/p\(k).mkv",
                "--size", "64x36", "--fps", "30", "--quiet",
            ])
            XCTAssertEqual(r.status, 0, r.stderr)
        }
        // Matroska leaves the first frames' decode times unset: the join must still be valid.
        for (out, audio) in [("/joined.mkv", ["--audio", input, "--from", "0.5"]), ("/copied.mkv", [])] {
            let j = try CLI.run(["join", dir + "/p1.mkv", dir + "/p2.mkv", "-o", dir + out, "--quiet"] + audio)
            XCTAssertEqual(j.status, 0, j.stderr)
            let video = try XCTUnwrap(MediaProbe(path: dir + out).streams.first { $0.kind == "video" })
            XCTAssertEqual(video.packets, 60)
            XCTAssertEqual(video.duration, 2, accuracy: 1.0 / 30)
        }
    }

    func testJoinRefusesPartsThatDoNotMatch() throws {
        let dir = CLI.tempDir()
        let input = try makeInput(dir, seconds: 1)
        XCTAssertEqual(try CLI.run(["render", input, "-o", dir + "/a.mp4", "--size", "64x36", "--quiet"]).status, 0)
        XCTAssertEqual(try CLI.run(["render", input, "-o", dir + "/b.mp4", "--size", "96x54", "--quiet"]).status, 0)
        let before = CLI.files(dir)
        let r = try CLI.run(["join", dir + "/a.mp4", dir + "/b.mp4", "-o", dir + "/out.mp4"])
        XCTAssertNotEqual(r.status, 0)
        XCTAssertEqual(r.stderr.split(separator: "\n").count, 1, r.stderr)
        XCTAssertTrue(r.stderr.contains("does not match"), r.stderr)
        XCTAssertEqual(CLI.files(dir), before, "nothing written")
        let missing = try CLI.run(["join", dir + "/a.mp4", dir + "/nope.mp4", "-o", dir + "/out.mp4"])
        XCTAssertNotEqual(missing.status, 0)
        XCTAssertTrue(missing.stderr.hasPrefix("specviz: error: ") && missing.stderr.contains("nope.mp4"), missing.stderr)
        XCTAssertEqual(CLI.files(dir), before)
    }

    /// Per-frame PSNR (average of Y, U, V in dB) of `a` against `b`, by ffmpeg's psnr filter.
    func framePSNR(_ a: String, _ b: String, dir: String) throws -> [Double] {
        let stats = dir + "/psnr.txt"
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        p.arguments = [
            "ffmpeg", "-nostdin", "-v", "error", "-i", a, "-i", b,
            "-lavfi", "[0:v][1:v]psnr=stats_file=\(stats)", "-f", "null", "-",
        ]
        try p.run()
        p.waitUntilExit()
        XCTAssertEqual(p.terminationStatus, 0, "ffmpeg (scripts/setup.sh installs it)")
        return try String(contentsOfFile: stats, encoding: .utf8).split(separator: "\n").map { line in
            let field = line.split(separator: " ").first { $0.hasPrefix("psnr_avg:") }!
            let value = field.dropFirst("psnr_avg:".count)
            return value == "inf" ? .infinity : Double(value)!
        }
    }
}
