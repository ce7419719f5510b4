import Foundation
import SpecvizTestSupport
import XCTest

/// Issue 40 items 8 and 10: `-o -` writes Matroska with sound to standard output, and the
/// input's tags (and --metadata, and the cover) go into the video.
final class PipeAndTagsCLITests: XCTestCase {
    let small = ["--size", "64x36", "--fps", "10", "--quiet"]

    /// Runs specviz with standard output into `stdout` (a pipe read whole, or a file handle).
    func run(_ args: [String], stdout: FileHandle? = nil) throws -> (status: Int32, out: Data, err: String) {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: CLI.binary)
        p.arguments = args
        var env = ProcessInfo.processInfo.environment
        env["XDG_CONFIG_HOME"] = NSTemporaryDirectory() + "/specviz-cli-tests-config"
        p.environment = env
        let out = Pipe(), err = Pipe()
        p.standardOutput = stdout ?? out
        p.standardError = err
        p.standardInput = FileHandle.nullDevice
        try p.run()
        try? out.fileHandleForWriting.close()
        let o = stdout == nil ? out.fileHandleForReading.readDataToEndOfFile() : Data()
        let e = err.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        return (p.terminationStatus, o, String(decoding: e, as: UTF8.self))
    }

    /// `ffprobe -v error ARGS FILE`: its standard output (the test fails on its errors).
    func probe(_ file: String, _ args: [String], line: UInt = #line) throws -> String {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/ffprobe") else { throw XCTSkip("ffprobe is needed") }
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/ffprobe")
        p.arguments = ["-v", "error"] + args + [file]
        let out = Pipe(), err = Pipe()
        p.standardOutput = out
        p.standardError = err
        try p.run()
        let o = out.fileHandleForReading.readDataToEndOfFile()
        let e = err.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        XCTAssertEqual(p.terminationStatus, 0, line: line)
        XCTAssertEqual(String(decoding: e, as: UTF8.self), "", "ffprobe complains about \(file)", line: line)
        return String(decoding: o, as: UTF8.self)
    }

    /// A 2 s tone, tagged, with a PNG cover when `cover`.
    func makeInput(_ dir: String, cover: Bool) throws -> String {
        let tags = ["-metadata", "title=Tone Title", "-metadata", "artist=Someone", "-metadata", "album=An Album"]
        if !cover {
            try FFmpegTool.run(["-f", "lavfi", "-i", "sine=f=440:d=2", "-ac", "2"] + tags + [dir + "/tone.wav"])
            return dir + "/tone.wav"
        }
        try FFmpegTool.run(["-f", "lavfi", "-i", "color=red:s=32x24:d=1", "-frames:v", "1", dir + "/cover.png"])
        try FFmpegTool.run(
            [
                "-f", "lavfi", "-i", "sine=f=440:d=2", "-i", dir + "/cover.png", "-map", "0", "-map", "1", "-c:a", "mp3",
                "-disposition:v", "attached_pic",
            ] + tags + [dir + "/tagged.mp3"])
        return dir + "/tagged.mp3"
    }

    func testVideoToStandardOutputIsMatroskaWithSound() throws {
        let dir = CLI.tempDir()
        let input = try makeInput(dir, cover: false)
        let r = try run(["render", input, "-o", "-"] + small)
        XCTAssertEqual(r.status, 0, r.err)
        XCTAssertEqual(Array(r.out.prefix(4)), [0x1A, 0x45, 0xDF, 0xA3], "stdout starts with the EBML header")
        let file = dir + "/piped.mkv"
        try r.out.write(to: URL(fileURLWithPath: file))
        let streams = try probe(file, ["-show_entries", "stream=codec_type,codec_name:format=format_name", "-of", "csv=p=0"])
        XCTAssertTrue(streams.contains("h264,video"), streams)
        XCTAssertTrue(streams.contains("aac,audio"), streams)
        XCTAssertTrue(streams.contains("matroska"), streams)
        // Written without seeking, so no duration in the header: the packets say how long it is.
        let times = try probe(file, ["-show_entries", "packet=pts_time", "-of", "csv=p=0"])
        let last = times.split(separator: "\n").compactMap { Double($0.trimmingCharacters(in: .whitespaces)) }.max() ?? 0
        XCTAssertEqual(last, 2.0, accuracy: 0.15)
        XCTAssertEqual(CLI.files(dir), ["piped.mkv", "tone.wav"], "nothing written beside")
    }

    func testFullStandardOutputIsOneLineAndExit1() throws {
        let dir = CLI.tempDir()
        let input = try makeInput(dir, cover: false)
        let full = try XCTUnwrap(FileHandle(forWritingAtPath: "/dev/full"))
        let r = try run(["render", input, "-o", "-"] + small, stdout: full)
        XCTAssertEqual(r.status, 1)
        XCTAssertEqual(r.err.split(separator: "\n").count, 1, r.err)
        XCTAssertTrue(r.err.contains("No space left on device"), r.err)
    }

    func testStandardOutputTakesOneVideoOnly() throws {
        let dir = CLI.tempDir()
        let input = try makeInput(dir, cover: false)
        for extra in [["--segment", "1/2"], ["--at", "1"], [input]] {
            let r = try run(["render", input, "-o", "-"] + small + extra)
            XCTAssertEqual(r.status, 64, "\(extra): \(r.err)")
            XCTAssertTrue(r.err.contains("-o - writes one Matroska video"), r.err)
            XCTAssertEqual(r.out.count, 0)
        }
    }

    /// `-` is standard output for every writer, never a file named `-`: analyze writes there,
    /// tone (which prints its own line there) refuses it.
    func testDashIsStandardOutputForTheOtherWriters() throws {
        let dir = CLI.tempDir()
        let input = try makeInput(dir, cover: false)
        let csv = try run(["analyze", input, "--csv", "-o", "-"])
        XCTAssertEqual(csv.status, 0, csv.err)
        XCTAssertTrue(String(decoding: csv.out.prefix(6), as: UTF8.self) == "time_s", "CSV on stdout")
        let tone = try run(["tone", "A4", "--duration", "0.1", "-o", "-"])
        XCTAssertEqual(tone.status, 1)
        XCTAssertEqual(tone.err.split(separator: "\n").count, 1, tone.err)
        XCTAssertEqual(tone.out.count, 0)
        XCTAssertFalse(FileManager.default.fileExists(atPath: FileManager.default.currentDirectoryPath + "/-"))
    }

    /// The tags of ffprobe's -show_format, keys lowercased (Matroska's are upper case).
    func formatTags(_ file: String) throws -> [String: String] {
        let text = try probe(file, ["-show_entries", "format_tags", "-of", "default=nw=1"])
        var tags: [String: String] = [:]
        for line in text.split(separator: "\n") where line.hasPrefix("TAG:") {
            let kv = line.dropFirst(4).split(separator: "=", maxSplits: 1).map(String.init)
            if kv.count == 2 { tags[kv[0].lowercased()] = kv[1] }
        }
        return tags
    }

    func testTagsMetadataAndCoverGoIntoMP4AndMatroska() throws {
        let dir = CLI.tempDir()
        let input = try makeInput(dir, cover: true)
        for ext in ["mp4", "mkv"] {
            let out = "\(dir)/out.\(ext)"
            let r = try run(["render", input, "-o", out, "--metadata", "artist=Other", "--metadata", "genre=Test"] + small)
            XCTAssertEqual(r.status, 0, r.err)
            let tags = try formatTags(out)
            XCTAssertEqual(tags["title"], "Tone Title", ext)
            XCTAssertEqual(tags["artist"], "Other", "--metadata wins (\(ext))")
            XCTAssertEqual(tags["album"], "An Album", ext)
            XCTAssertEqual(tags["genre"], "Test", ext)
            let pics = try probe(out, ["-show_entries", "stream=codec_name:stream_disposition=attached_pic", "-of", "csv=p=0"])
            XCTAssertTrue(pics.split(separator: "\n").contains("png,1"), "\(ext): \(pics)")
        }
        let bad = try run(["render", input, "-o", dir + "/x.mkv", "--metadata", "=x"] + small)
        XCTAssertEqual(bad.status, 64, bad.err)
    }

    func testJoinKeepsTheTagsButNotTheSegmentStamp() throws {
        let dir = CLI.tempDir()
        let input = try makeInput(dir, cover: false)
        for k in 1...2 {
            let r = try run(["render", input, "-o", "\(dir)/p\(k).mkv", "--segment", "\(k)/2"] + small)
            XCTAssertEqual(r.status, 0, r.err)
        }
        XCTAssertTrue(try formatTags(dir + "/p1.mkv")["comment"]?.hasPrefix("specviz segment") ?? false)
        let j = try run(["join", dir + "/p1.mkv", dir + "/p2.mkv", "-o", dir + "/joined.mkv"])
        XCTAssertEqual(j.status, 0, j.err)
        let tags = try formatTags(dir + "/joined.mkv")
        XCTAssertEqual(tags["title"], "Tone Title")
        XCTAssertEqual(tags["album"], "An Album")
        XCTAssertNil(tags["comment"], "the segment stamp stays out of the joined file")
    }
}
