import Foundation
import MediaIO
import SpecvizTestSupport
import XCTest

/// The length of an input is what decodes, never the container's estimate, and a stream that
/// changes rate or channels mid-way keeps its speed (issue 36).
final class DecodedLengthTests: XCTestCase {
    var dir = ""

    override func setUpWithError() throws { dir = try ScratchFolder.make("length") }

    override func tearDown() { ScratchFolder.remove(dir) }

    /// Every mono sample of `path`, and the decoder that read them.
    func decode(_ path: String) throws -> ([Float], AudioDecoder) {
        let d = try AudioDecoder(path: path)
        var out: [Float] = []
        var buffer = [Float](repeating: 0, count: 8192)
        while case let n = try buffer.withUnsafeMutableBufferPointer({ try d.readMono(into: $0) }), n > 0 {
            out += buffer[0..<n]
        }
        return (out, d)
    }

    func concatenate(_ names: [String], junk: Int = 0, to name: String) throws {
        var bytes = Data()
        for (i, n) in names.enumerated() {
            if i > 0 && junk > 0 {
                var rng = SystemRandomNumberGenerator()
                bytes.append(contentsOf: (0..<junk).map { _ in UInt8.random(in: 0...255, using: &rng) })
            }
            bytes.append(try Data(contentsOf: URL(fileURLWithPath: dir + "/" + n)))
        }
        XCTAssertTrue(FileManager.default.createFile(atPath: dir + "/" + name, contents: bytes))
    }

    func testTheDurationIsWhatDecodes() throws {
        let plainMP3 = ["-c:a", "libmp3lame", "-write_xing", "0", "-id3v2_version", "0", "-write_id3v1", "0"]
        // VBR without a Xing header: 1 s of loud noise, then 5 s of silence. The demuxer's
        // estimate is the file size over the first frames' bit rate: far too short.
        try FFmpegTool.run(
            ["-f", "lavfi", "-i", "anoisesrc=d=1:a=0.8:r=44100,apad=whole_dur=6", "-ac", "1", "-q:a", "0"] + plainMP3 + [dir + "/vbr.mp3"])
        // A FLAC cut in half: its header still says 4 s.
        try FFmpegTool.run(["-f", "lavfi", "-i", "anoisesrc=d=4:a=0.3:r=44100", "-ac", "1", dir + "/whole.flac"])
        let flac = try Data(contentsOf: URL(fileURLWithPath: dir + "/whole.flac"))
        FileManager.default.createFile(atPath: dir + "/cut.flac", contents: flac.prefix(flac.count / 2))
        // 2 s of mp3, 40 kB of junk, 2 s more.
        try FFmpegTool.run(["-f", "lavfi", "-i", "sine=f=440:d=2:r=44100", "-b:a", "128k"] + plainMP3 + [dir + "/a.mp3"])
        try concatenate(["a.mp3", "a.mp3"], junk: 40_000, to: "junk.mp3")

        let (vbr, v) = try decode(dir + "/vbr.mp3")
        XCTAssertLessThan(try XCTUnwrap(v.estimatedDuration), 4.5, "the case: the container's estimate is wrong")
        XCTAssertEqual(Double(vbr.count) / 44100, 6, accuracy: 0.1)
        let (cut, c) = try decode(dir + "/cut.flac")
        XCTAssertEqual(try XCTUnwrap(c.estimatedDuration), 4, accuracy: 0.05, "the case: the header's length")
        XCTAssertLessThan(Double(cut.count) / 44100, 2.5)
        let (junk, _) = try decode(dir + "/junk.mp3")
        XCTAssertEqual(Double(junk.count) / 44100, 4, accuracy: 0.15)
        for (name, samples) in [("vbr.mp3", vbr), ("cut.flac", cut), ("junk.mp3", junk)] {
            // `duration` (a fresh decoder's) is exactly what a read to the end gives.
            let fresh = try AudioDecoder(path: dir + "/" + name)
            XCTAssertEqual(try XCTUnwrap(fresh.duration, name), Double(samples.count) / 44100, accuracy: 1e-9, name)
        }
    }

    /// 1 s at 44.1 kHz mono, then 1 s at 22.05 kHz stereo, in one mp3 stream: read at one
    /// rate (the first frame's, as libavcodec labels it), both seconds are a second of 440 Hz.
    func testARateOrLayoutChangeKeepsTheSpeed() throws {
        let plainMP3 = ["-c:a", "libmp3lame", "-b:a", "96k", "-write_xing", "0", "-id3v2_version", "0", "-write_id3v1", "0"]
        try FFmpegTool.run(["-f", "lavfi", "-i", "sine=f=440:d=1:r=44100", "-ac", "1"] + plainMP3 + [dir + "/first.mp3"])
        try FFmpegTool.run(["-f", "lavfi", "-i", "sine=f=440:d=1:r=22050", "-ac", "2"] + plainMP3 + [dir + "/second.mp3"])
        try concatenate(["first.mp3", "second.mp3"], to: "change.mp3")
        let (samples, d) = try decode(dir + "/change.mp3")
        let rate = Double(d.sampleRate)
        XCTAssertTrue([22050, 44100].contains(d.sampleRate), "\(d.sampleRate)")
        // As long as its two parts (each with its encoder's padding), in seconds.
        let parts = try ["first.mp3", "second.mp3"].map { name -> Double in
            let (x, p) = try decode(dir + "/" + name)
            return Double(x.count) / Double(p.sampleRate)
        }
        XCTAssertEqual(Double(samples.count) / rate, parts[0] + parts[1], accuracy: 0.03)
        // Upward zero crossings over 0.5 s of each half: 220 at 440 Hz.
        for start in [0.25, 1.3] {
            let a = Int(start * rate), b = a + Int(rate / 2)
            let crossings = (a + 1..<b).filter { samples[$0 - 1] < 0 && samples[$0] >= 0 }.count
            XCTAssertEqual(crossings, 220, accuracy: 3, "from \(start) s")
        }
    }
}
