import Foundation
import MediaIO
import SpecvizTestSupport
import XCTest

/// The sound as its own task (issue 41): `render --audio-only` encodes the render's track
/// alone, and `join --audio` copies an AAC track into the joined video packet for packet.
final class AudioTaskCLITests: XCTestCase {
    let small = ["--size", "64x36", "--fps", "30", "--x264-preset", "ultrafast", "--quiet"]

    /// A stereo file of `seconds` (not a whole number of AAC frames): a tone on the left, a
    /// sweep on the right.
    func makeInput(_ dir: String, seconds: Double = 3.01) throws -> String {
        let rate = 44100
        let left = Signals.sines([(330, 0.3)], seconds: seconds, sampleRate: rate)
        var right = [Float](repeating: 0, count: left.count)
        var phase = 0.0
        for i in left.indices {
            phase += 2 * Double.pi * (200 + 2000 * Double(i) / Double(left.count)) / Double(rate)
            right[i] = Float(0.3 * sin(phase))
        }
        let path = dir + "/in.wav"
        try Signals.writeWAV(left: left, right: right, sampleRate: rate, to: path)
        return path
    }

    /// The audio packets of `path` as ffmpeg's framemd5 lists them: (size, MD5) per packet.
    func audioPackets(_ path: String) throws -> [String] {
        guard let exe = FFmpegTool.path else { throw XCTSkip("ffmpeg (installed by scripts/setup.sh) is needed") }
        let p = Process()
        p.executableURL = URL(fileURLWithPath: exe)
        p.arguments = ["-nostdin", "-v", "error", "-i", path, "-map", "0:a", "-c", "copy", "-f", "framemd5", "-"]
        let out = Pipe()
        p.standardOutput = out
        try p.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        XCTAssertEqual(p.terminationStatus, 0, "ffmpeg framemd5 of \(path)")
        return String(decoding: data, as: UTF8.self).split(separator: "\n").filter { !$0.hasPrefix("#") }.map { line in
            line.split(separator: ",").suffix(2).map { $0.trimmingCharacters(in: .whitespaces) }.joined(separator: " ")
        }
    }

    /// The audio stream's length as the container states it (MP4's edit list leaves the
    /// encoder's priming and the last frame's padding out), by ffprobe.
    func audioSeconds(_ path: String) throws -> Double {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        p.arguments = ["ffprobe", "-v", "error", "-select_streams", "a", "-show_entries", "stream=duration", "-of", "csv=p=0", path]
        let out = Pipe()
        p.standardOutput = out
        try p.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        let text = String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        return try XCTUnwrap(Double(text), "ffprobe of \(path): '\(text)'")
    }

    func testAudioOnlyIsTheRendersTrackAlone() throws {
        let dir = CLI.tempDir()
        let input = try makeInput(dir)
        let span = ["--from", "0.5", "--to", "2.5"]
        let a = try CLI.run(["render", input, "--audio-only", "-o", dir + "/audio.m4a", "--quiet"] + span)
        XCTAssertEqual(a.status, 0, a.stderr)
        let probe = try MediaProbe(path: dir + "/audio.m4a")
        XCTAssertEqual(probe.streams.map(\.kind), ["audio"], "one audio stream, no video")
        XCTAssertEqual(probe.streams[0].codec, "aac")
        XCTAssertEqual(probe.streams[0].sampleRate, 44100)
        XCTAssertEqual(try audioSeconds(dir + "/audio.m4a"), 2, accuracy: 1e-6)
        // The very packets a video render of the same span carries.
        let v = try CLI.run(["render", input, "-o", dir + "/video.mp4"] + span + small)
        XCTAssertEqual(v.status, 0, v.stderr)
        let packets = try audioPackets(dir + "/audio.m4a")
        XCTAssertGreaterThan(packets.count, 80)
        XCTAssertEqual(packets, try audioPackets(dir + "/video.mp4"))
        // Like every output: not replaced without -y, and nothing else left behind.
        let again = try CLI.run(["render", input, "--audio-only", "-o", dir + "/audio.m4a", "--quiet"])
        XCTAssertNotEqual(again.status, 0)
        XCTAssertTrue(again.stderr.contains("exists"), again.stderr)
        XCTAssertEqual(try audioPackets(dir + "/audio.m4a"), packets, "the file is untouched")
        let y = try CLI.run(["render", input, "--audio-only", "-o", dir + "/audio.m4a", "--quiet", "-y"])
        XCTAssertEqual(y.status, 0, y.stderr)
        XCTAssertEqual(try audioSeconds(dir + "/audio.m4a"), 3.01, accuracy: 1e-6, "the whole input")
        XCTAssertEqual(CLI.files(dir), ["audio.m4a", "in.wav", "video.mp4"])
        for bad in [["-o", dir + "/a.webm"], ["-o", dir + "/a.m4a", "--segment", "1/2"], ["-o", dir + "/a.m4a", "--at", "1"]] {
            let r = try CLI.run(["render", input, "--audio-only"] + bad)
            XCTAssertEqual(r.status, 64, r.stderr)
            XCTAssertEqual(r.stderr.split(separator: "\n").count, 1, r.stderr)
        }
    }

    func testJoinCopiesTheAudioTaskAndAnAACOriginal() throws {
        let dir = CLI.tempDir()
        let input = try makeInput(dir)
        var parts: [String] = []
        for k in 1...3 {
            parts.append(dir + "/part\(k).mp4")
            let r = try CLI.run(["render", input, "--segment", "\(k)/3", "-o", parts.last!] + small)
            XCTAssertEqual(r.status, 0, r.stderr)
        }
        XCTAssertEqual(try CLI.run(["render", input, "--audio-only", "-o", dir + "/audio.m4a", "--quiet"]).status, 0)
        try FFmpegTool.run(["-i", input, "-c:a", "aac", "-b:a", "96k", dir + "/orig.m4a"])
        try FFmpegTool.run(["-f", "lavfi", "-i", "sine=f=440:d=3.01", "-ac", "6", "-c:a", "aac", dir + "/six.m4a"])
        for audio in ["audio.m4a", "orig.m4a", "six.m4a"] {
            let out = dir + "/joined-\(audio).mp4"
            let j = try CLI.run(["join"] + parts + ["--audio", dir + "/" + audio, "-o", out, "--quiet"])
            XCTAssertEqual(j.status, 0, j.stderr)
            let probe = try MediaProbe(path: out)
            let video = try XCTUnwrap(probe.streams.first { $0.kind == "video" })
            XCTAssertEqual(probe.streams.filter { $0.kind == "audio" }.count, 1)
            XCTAssertEqual(video.packets, 91)
            // Copied: exactly the input's length. Encoded from a decoded AAC file: that file's
            // last frame's padding is decoded too (at most one AAC frame).
            let exact = audio == "six.m4a" ? 1024.0 / 44100 : 1e-6
            XCTAssertEqual(try audioSeconds(out), 3.01, accuracy: exact, "\(audio): the input's length")
            let copied = try audioPackets(out) == audioPackets(dir + "/" + audio)
            // Six channels are not what a render carries (two): that one is encoded.
            XCTAssertEqual(copied, audio != "six.m4a", audio)
        }
        // The audio task starts where the render starts: another --from is refused.
        let r = try CLI.run(["join"] + parts + ["--audio", dir + "/audio.m4a", "--from", "1", "-o", dir + "/x.mp4"])
        XCTAssertEqual(r.status, 64, r.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: dir + "/x.mp4"))
    }
}
