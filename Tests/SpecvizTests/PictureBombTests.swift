import Foundation
import MediaIO
import Raster
import SpecvizCore
import SpecvizTestSupport
import XCTest

/// Pictures as a hostile user makes them (issue 36): every picture is sized from its header
/// and refused above `ImageDecoder.capText` before a decoder runs; what is accepted is
/// scaled row by row; pictures inside an input are never decoded to read its sound.
final class PictureBombTests: XCTestCase {
    var dir = ""

    override func setUpWithError() throws { dir = try ScratchFolder.make("bomb") }

    override func tearDown() { ScratchFolder.remove(dir) }

    func bytes(_ name: String) throws -> [UInt8] { [UInt8](try Data(contentsOf: URL(fileURLWithPath: dir + "/" + name))) }

    /// A small real picture whose header is rewritten to claim `width`×`height`.
    func lying(_ name: String, width: Int, height: Int) throws -> [UInt8] {
        var b = try bytes(name)
        func put(_ value: Int, at i: Int, count: Int) {
            for k in 0..<count { b[i + k] = UInt8(truncatingIfNeeded: value >> (8 * (count - 1 - k))) }
        }
        if name.hasSuffix(".png") {
            put(width, at: 16, count: 4)
            put(height, at: 20, count: 4)
        } else {
            // The first SOF segment: FF C0..CF (not C4, C8, CC), length, precision, height, width.
            var i = 2
            while !(b[i + 1] >= 0xC0 && b[i + 1] <= 0xCF && ![0xC4, 0xC8, 0xCC].contains(b[i + 1])) {
                i += 2 + (Int(b[i + 2]) << 8 | Int(b[i + 3]))
            }
            put(height, at: i + 5, count: 2)
            put(width, at: i + 7, count: 2)
        }
        return b
    }

    func testPicturesAboveTheCapAreRefusedFromTheirHeader() throws {
        try FFmpegTool.run(["-f", "lavfi", "-i", "color=c=red:s=64x48", "-frames:v", "1", dir + "/s.png"])
        try FFmpegTool.run(["-f", "lavfi", "-i", "color=c=red:s=64x48", "-frames:v", "1", dir + "/s.jpg"])
        // 16-bit RGBA: 1800×1800 is accepted, 2600×2600 (52 MB decoded) is not.
        try FFmpegTool.run(["-f", "lavfi", "-i", "color=c=red:s=64x48", "-pix_fmt", "rgba64be", "-frames:v", "1", dir + "/d.png"])
        let cases: [(String, [UInt8])] = [
            ("bogus PNG 100000x100000", try lying("s.png", width: 100_000, height: 100_000)),
            ("bogus JPEG 65000x65000", try lying("s.jpg", width: 65000, height: 65000)),
            ("tall PNG 1x4000000", try lying("s.png", width: 1, height: 4_000_000)),
            ("wide PNG 4000000x1", try lying("s.png", width: 4_000_000, height: 1)),
            ("16-bit PNG 2600x2600", try lying("d.png", width: 2600, height: 2600)),
        ]
        for (what, picture) in cases {
            XCTAssertThrowsError(try ImageDecoder.decode(picture, name: "image 'x'"), what) { e in
                let text = "\(e)"
                XCTAssertTrue(text.contains("larger than a picture may be") || text.contains("too wide or too tall"), "\(what): \(text)")
                XCTAssertFalse(text.contains("\n"), what)
            }
        }
        // A header cut short says nothing: refused too.
        XCTAssertThrowsError(try ImageDecoder.decode(Array(try bytes("s.png").prefix(20)), name: "image 'cut'"))
    }

    func testTallWideAndDeepPicturesScaleInBoundedRows() throws {
        try FFmpegTool.run(["-f", "lavfi", "-i", "color=c=red:s=2x8000", "-frames:v", "1", dir + "/tall.png"])
        try FFmpegTool.run(["-f", "lavfi", "-i", "color=c=blue:s=8000x2", "-frames:v", "1", dir + "/wide.png"])
        try FFmpegTool.run(["-f", "lavfi", "-i", "color=c=lime:s=600x500", "-pix_fmt", "rgba64be", "-frames:v", "1", dir + "/deep.png"])
        for (name, colour) in [("tall.png", SIMD3<Int>(255, 0, 0)), ("wide.png", [0, 0, 255]), ("deep.png", [0, 255, 0])] {
            let source = try ImageDecoder.read(dir + "/" + name, fitting: (320, 180))
            // Kept at about the frame's size (never more than needed to fill 320×180).
            XCTAssertLessThanOrEqual(source.width * source.height, 320 * 8000, name)
            for (w, h) in [(320, 180), (180, 320)] {
                let filled = source.scaledToFill(width: w, height: h)
                let fitted = source.scaledToFit(width: w, height: h)
                XCTAssertEqual(filled.width, w, name)
                XCTAssertLessThanOrEqual(fitted.width, w, name)
                XCTAssertLessThanOrEqual(fitted.height, h, name)
                let c = filled.rgba(x: w / 2, y: h / 2)
                let got = SIMD3(Int(c.x), Int(c.y), Int(c.z))
                XCTAssertLessThanOrEqual((0..<3).map { abs(got[$0] - colour[$0]) }.max()!, 3, "\(name): \(got)")
            }
        }
        // An accepted picture is never scaled up when converted.
        XCTAssertEqual(try ImageDecoder.read(dir + "/deep.png", fitting: (1920, 1080)).width, 600)
        XCTAssertEqual(try ImageDecoder.read(dir + "/deep.png", fitting: (160, 90)).width, 160)
    }

    /// Three large pictures in an MP3 (ID3 APIC) and a FLAC: the sound decodes whole and the
    /// pictures are not decoded; the first is the cover, decoded only when asked, and a
    /// picture above the cap inside a file is the same one-line refusal.
    func testEmbeddedPicturesAreNotDecodedForTheSound() throws {
        try Signals.writeWAV(Signals.sines([(440, 0.3)], seconds: 1), to: dir + "/a.wav")
        try FFmpegTool.run(["-f", "lavfi", "-i", "color=c=red:s=64x48", "-frames:v", "1", dir + "/s.png"])
        try FFmpegTool.run(["-f", "lavfi", "-i", "color=c=navy:s=3000x3000", "-frames:v", "1", dir + "/big.jpg"])
        try FFmpegTool.run(["-f", "lavfi", "-i", "testsrc2=s=1200x1200", "-pix_fmt", "rgba64be", "-frames:v", "1", dir + "/deep.png"])
        let pictures = ["-i", dir + "/s.png", "-i", dir + "/big.jpg", "-i", dir + "/deep.png"]
        let maps = ["-map", "0:a", "-map", "1", "-map", "2", "-map", "3", "-c:v", "copy", "-disposition:v", "attached_pic"]
        try FFmpegTool.run(["-i", dir + "/a.wav"] + pictures + maps + ["-c:a", "libmp3lame", "-id3v2_version", "3", dir + "/p.mp3"])
        try FFmpegTool.run(["-i", dir + "/a.wav"] + pictures + maps + ["-c:a", "flac", dir + "/p.flac"])
        // The first picture's header (inside the file) now claims 100000×100000.
        for name in ["p.mp3", "p.flac"] {
            var b = try bytes(name)
            let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
            let at = try XCTUnwrap((0..<(b.count - 24)).first { Array(b[$0..<$0 + 8]) == signature }, name)
            for (offset, value) in [(16, 100_000), (20, 100_000)] {
                for k in 0..<4 { b[at + offset + k] = UInt8(truncatingIfNeeded: value >> (8 * (3 - k))) }
            }
            XCTAssertTrue(FileManager.default.createFile(atPath: dir + "/" + name, contents: Data(b)))
        }
        for name in ["p.mp3", "p.flac"] {
            let d = try AudioDecoder(path: dir + "/" + name)
            var buffer = [Float](repeating: 0, count: 4096)
            var total = 0
            while case let n = try buffer.withUnsafeMutableBufferPointer({ try d.readMono(into: $0) }), n > 0 { total += n }
            XCTAssertEqual(Double(total) / Double(d.sampleRate), 1, accuracy: 0.06, name)
            XCTAssertEqual(try XCTUnwrap(d.duration, name), Double(total) / Double(d.sampleRate), accuracy: 1e-9, name)
            XCTAssertThrowsError(try d.tags.cover(of: name), name) { e in
                XCTAssertTrue("\(e)".contains("larger than a picture may be"), "\(e)")
            }
        }
    }
}
