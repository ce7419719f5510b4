import Foundation
import MediaIO
import SpecvizTestSupport
import XCTest

/// The video ends with the sound and `analyze` covers all of it, whatever the container says
/// (issue 36); a FIFO among a batch's inputs is refused before any render starts.
final class DecodedLengthCLITests: XCTestCase {
    func testRenderAndAnalyzeCoverWhatDecodes() throws {
        let dir = CLI.tempDir()
        // VBR mp3 without a Xing header: loud, then quiet; the container guesses ~1/3 of it.
        try FFmpegTool.run([
            "-f", "lavfi", "-i", "anoisesrc=d=1:a=0.8:r=44100,apad=whole_dur=4", "-ac", "1", "-c:a", "libmp3lame", "-q:a", "0",
            "-write_xing", "0", "-id3v2_version", "0", dir + "/vbr.mp3",
        ])
        // A FLAC cut in half, whose header still says 4 s.
        try FFmpegTool.run(["-f", "lavfi", "-i", "anoisesrc=d=4:a=0.3:r=44100", "-ac", "1", dir + "/whole.flac"])
        let flac = try Data(contentsOf: URL(fileURLWithPath: dir + "/whole.flac"))
        FileManager.default.createFile(atPath: dir + "/cut.flac", contents: flac.prefix(flac.count / 2))
        for name in ["vbr.mp3", "cut.flac"] {
            let decoded = try XCTUnwrap(AudioDecoder(path: dir + "/" + name).duration, name)
            let r = try CLI.run([
                "render", dir + "/" + name, "-o", dir + "/v.mp4", "-y", "--size", "32x18", "--fps", "10", "--x264-preset", "ultrafast", "--quiet",
            ])
            XCTAssertEqual(r.status, 0, r.stderr)
            let streams = try MediaProbe(path: dir + "/v.mp4").streams
            let video = try XCTUnwrap(streams.first { $0.kind == "video" }, name)
            XCTAssertEqual(Double(video.packets), (decoded * 10).rounded(.up), accuracy: 1, name)
            let sound = try XCTUnwrap(streams.first { $0.kind == "audio" }, name)
            XCTAssertEqual(sound.duration, decoded, accuracy: 0.1, name)
            let a = try CLI.run(["analyze", dir + "/" + name, "--csv", "--fps", "10"])
            XCTAssertEqual(a.status, 0, a.stderr)
            let rows = a.stdout.split(separator: "\n").count - 1
            XCTAssertEqual(Double(rows), (decoded * 10).rounded(.up), accuracy: 1, name)
        }
    }

    func testABatchRefusesAFIFOBeforeStarting() throws {
        let dir = CLI.tempDir()
        try Signals.writeWAV(Signals.sines([(330, 0.3)], seconds: 0.5), to: dir + "/a.wav")
        XCTAssertEqual(mkfifo(dir + "/pipe.wav", 0o600), 0)
        let r = try CLI.run(["render", dir + "/a.wav", dir + "/pipe.wav", "-o", dir + "/out/{stem}.mp4", "--size", "32x18", "--quiet"])
        XCTAssertNotEqual(r.status, 0)
        XCTAssertEqual(r.stderr.split(separator: "\n").count, 1, r.stderr)
        XCTAssertTrue(r.stderr.contains("pipe.wav") && r.stderr.contains("FIFO"), r.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: dir + "/out/a.mp4"))
    }
}
