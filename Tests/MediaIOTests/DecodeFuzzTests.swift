import Foundation
import SpecvizTestSupport
import XCTest

@testable import MediaIO

/// A seeded mutation loop over the decode path (issue 14): mutated WAV, FLAC, MP3, Ogg and
/// MP4 files, files with cover pictures and a stream that changes rate and channels (issue
/// 36) are opened and read to the end, and their pictures decoded. Every input must either decode (finite
/// samples only) or throw a `MediaError`; none may crash or hang. CI runs a few thousand;
/// `SPECVIZ_FUZZ_ITERATIONS=100000 swift test --filter DecodeFuzzTests` runs more.
final class DecodeFuzzTests: XCTestCase {
    /// Small seed files of several containers, made with our own writers.
    func seeds(in dir: String) throws -> [[UInt8]] {
        var out: [[UInt8]] = []
        let tone = Signals.sines([(440, 0.3), (3000, 0.2)], seconds: 0.15)
        try Signals.writeWAV(tone, to: dir + "/s.wav")
        try Signals.writeFloatWAV(tone, to: dir + "/f.wav")
        out.append([UInt8](try Data(contentsOf: URL(fileURLWithPath: dir + "/s.wav"))))
        out.append([UInt8](try Data(contentsOf: URL(fileURLWithPath: dir + "/f.wav"))))
        for ext in ["flac", "mp3", "ogg", "m4a"] {
            let path = dir + "/s." + ext
            guard let w = try? AudioFileWriter(path: path, sampleRate: 44100, channels: 1) else { continue }
            try tone.withUnsafeBufferPointer { try w.write($0) }
            try w.finish()
            out.append([UInt8](try Data(contentsOf: URL(fileURLWithPath: path))))
        }
        // With ffmpeg: an mp3 and a FLAC carrying a cover (ID3 APIC, FLAC PICTURE), and an mp3
        // that changes rate and channels mid-stream (44.1 kHz mono, then 22.05 kHz stereo).
        let mp3 = ["-c:a", "libmp3lame", "-b:a", "64k", "-write_xing", "0", "-id3v2_version", "0", "-write_id3v1", "0"]
        let made: [[String]] = [
            ["-f", "lavfi", "-i", "testsrc2=s=32x24", "-frames:v", "1", dir + "/c.png"],
            ["-f", "lavfi", "-i", "sine=f=440:d=0.15:r=44100", "-ac", "1"] + mp3 + [dir + "/r1.mp3"],
            ["-f", "lavfi", "-i", "sine=f=440:d=0.15:r=22050", "-ac", "2"] + mp3 + [dir + "/r2.mp3"],
            [
                "-i", dir + "/r1.mp3", "-i", dir + "/c.png", "-map", "0", "-map", "1", "-c", "copy", "-disposition:v", "attached_pic",
                "-id3v2_version", "3", dir + "/pic.mp3",
            ],
            [
                "-i", dir + "/r1.mp3", "-i", dir + "/c.png", "-map", "0", "-map", "1", "-c:a", "flac", "-c:v", "copy",
                "-disposition:v", "attached_pic", dir + "/pic.flac",
            ],
        ]
        guard FFmpegTool.path != nil else { return out }
        for args in made { try FFmpegTool.run(args) }
        for name in ["pic.mp3", "pic.flac"] { out.append([UInt8](try Data(contentsOf: URL(fileURLWithPath: dir + "/" + name)))) }
        out.append([UInt8](try Data(contentsOf: URL(fileURLWithPath: dir + "/r1.mp3"))) + [UInt8](try Data(contentsOf: URL(fileURLWithPath: dir + "/r2.mp3"))))
        return out
    }

    func testMutatedInputsNeverCrash() throws {
        let dir = NSTemporaryDirectory() + "/specviz-fuzz-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let corpus = try seeds(in: dir)
        XCTAssertGreaterThanOrEqual(corpus.count, 4)
        var rng = Mutator(seed: 14)
        let n = Mutator.iterations(default: 2000)
        var decoded = 0, refused = 0
        var buffer = [Float](repeating: 0, count: 4096)
        let path = dir + "/in"
        for i in 0..<n {
            let bytes = rng.mutate(corpus[i % corpus.count])
            XCTAssertTrue(FileManager.default.createFile(atPath: path, contents: Data(bytes)))
            do {
                let d = try AudioDecoder(path: path)
                var total = 0
                while true {
                    let got = try buffer.withUnsafeMutableBufferPointer { try d.readMono(into: $0) }
                    if got == 0 { break }
                    for k in 0..<got where !(abs(buffer[k]) <= AudioDecoder.sampleLimit) {
                        XCTFail("iteration \(i): sample \(buffer[k]) passed the decoder")
                        break
                    }
                    total += got
                    if total > 50_000_000 { XCTFail("iteration \(i): endless output"); break }
                }
                // A (mutated) embedded picture decodes or is one clear refusal.
                do { _ = try d.tags.cover(of: "in") } catch is MediaError {}
                decoded += 1
            } catch is MediaError {
                refused += 1
            }
        }
        XCTAssertEqual(decoded + refused, n)
        XCTAssertGreaterThan(decoded, n / 10, "the mutations should leave many inputs decodable")
    }

    func testNonFiniteSamplesAreReplacedAndReportedOnce() throws {
        let dir = NSTemporaryDirectory() + "/specviz-nan-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        var s = Signals.sines([(440, 0.3)], seconds: 0.5)
        for i in 1000..<1100 { s[i] = .nan }
        for i in 2000..<2010 { s[i] = -.infinity }
        for i in 3000..<3005 { s[i] = 1e30 }
        try Signals.writeFloatWAV(s, to: dir + "/n.wav")
        let d = try AudioDecoder(path: dir + "/n.wav")
        var messages: [String] = []
        d.onReplacedSamples = { messages.append($0) }
        var out = [Float](repeating: 0, count: s.count + 100)
        let n = try out.withUnsafeMutableBufferPointer { try d.readMono(into: $0) }
        XCTAssertEqual(n, s.count)
        XCTAssertEqual(d.replacedSamples, 115)
        XCTAssertEqual(messages.count, 1)
        XCTAssertEqual(out[1050], 0)
        XCTAssertEqual(out[2005], 0)
        XCTAssertEqual(out[3001], AudioDecoder.sampleLimit)
        XCTAssertTrue(out[0..<n].allSatisfy { $0.isFinite })
    }
}
