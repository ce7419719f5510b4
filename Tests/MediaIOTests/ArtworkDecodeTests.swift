import Foundation
import MediaIO
import SpecvizCore
import SpecvizTestSupport
import XCTest

/// Cover art and pictures (issue 17): PNG, JPEG and WebP through libavcodec, tags and the
/// embedded picture of MP3, FLAC and M4A files.
final class ArtworkDecodeTests: XCTestCase {
    var dir = ""

    override func setUpWithError() throws { dir = try ScratchFolder.make("art") }

    override func tearDown() { ScratchFolder.remove(dir) }

    /// Four quadrants (red, green, blue, half-transparent white), 64×48.
    func quadrants() -> PixelBuffer {
        var p = PixelBuffer(width: 64, height: 48)
        for y in 0..<48 {
            for x in 0..<64 {
                let c: SIMD4<Float> = y < 24 ? (x < 32 ? [1, 0, 0, 1] : [0, 1, 0, 1]) : (x < 32 ? [0, 0, 1, 1] : [1, 1, 1, 0.5])
                p.pixels[y * 64 + x] = PixelBuffer.pack(c)
            }
        }
        return p
    }

    func ffmpeg(_ args: [String]) throws { try FFmpegTool.run(args) }

    func testPNGRoundTripIsExactWithAlpha() throws {
        try PNGFile.write(quadrants(), to: dir + "/q.png")
        let back = try ImageDecoder.read(dir + "/q.png")
        XCTAssertEqual(back.width, 64)
        XCTAssertEqual(back.height, 48)
        XCTAssertEqual(back.pixels, quadrants().pixels)
    }

    func testJPEGAndWebPDecodeToTheirColours() throws {
        try PNGFile.write(quadrants(), to: dir + "/q.png")
        try ffmpeg(["-i", dir + "/q.png", "-q:v", "2", dir + "/q.jpg"])
        try ffmpeg(["-i", dir + "/q.png", "-lossless", "1", dir + "/q.webp"])
        for name in ["q.jpg", "q.webp"] {
            let p = try ImageDecoder.read(dir + "/" + name)
            XCTAssertEqual(p.width, 64, name)
            XCTAssertEqual(p.height, 48, name)
            let red = p.rgba(x: 8, y: 8), green = p.rgba(x: 56, y: 8), blue = p.rgba(x: 8, y: 40)
            XCTAssertGreaterThan(red.x, 230, name); XCTAssertLessThan(red.y, 30, name)
            XCTAssertGreaterThan(green.y, 230, name); XCTAssertLessThan(green.x, 30, name)
            XCTAssertGreaterThan(blue.z, 230, name); XCTAssertLessThan(blue.y, 30, name)
        }
        // Lossless WebP keeps the alpha channel.
        XCTAssertEqual(Int(try ImageDecoder.read(dir + "/q.webp").rgba(x: 56, y: 40).w), 128, accuracy: 1)
    }

    func testNotAPictureIsOneClearError() throws {
        try Data("hello, not a picture".utf8).write(to: URL(fileURLWithPath: dir + "/x.png"))
        XCTAssertThrowsError(try ImageDecoder.read(dir + "/x.png")) { e in
            XCTAssertEqual("\(e)", "image '\(dir)/x.png' is not a PNG, JPEG or WebP picture")
        }
        // A PNG cut in half: the decoder's error, naming the file.
        try PNGFile.write(quadrants(), to: dir + "/q.png")
        let bytes = try Data(contentsOf: URL(fileURLWithPath: dir + "/q.png"))
        try bytes.prefix(bytes.count / 2).write(to: URL(fileURLWithPath: dir + "/half.png"))
        XCTAssertThrowsError(try ImageDecoder.read(dir + "/half.png")) { e in
            XCTAssertTrue("\(e)".contains("half.png"), "\(e)")
        }
        XCTAssertThrowsError(try ImageDecoder.read(dir + "/missing.png"))
    }

    /// MP3 (ID3v2 APIC), FLAC (PICTURE block) and M4A (covr atom): the tags and the picture.
    func testTagsAndEmbeddedCover() throws {
        try Signals.writeWAV(Signals.sines([(440, 0.3)], seconds: 0.5), to: dir + "/a.wav")
        try PNGFile.write(quadrants(), to: dir + "/q.png")
        try ffmpeg(["-i", dir + "/q.png", dir + "/q.jpg"])
        let tags = ["-metadata", "title=Blue in Green", "-metadata", "artist=Bill Evans", "-metadata", "album=Kind of Blue"]
        let cover = ["-map", "0:a", "-map", "1:v", "-disposition:v", "attached_pic"]
        try ffmpeg(
            ["-i", dir + "/a.wav", "-i", dir + "/q.jpg"] + cover + ["-c:a", "libmp3lame", "-c:v", "copy", "-id3v2_version", "3"] + tags + [dir + "/a.mp3"])
        try ffmpeg(["-i", dir + "/a.wav", "-i", dir + "/q.png"] + cover + ["-c:a", "flac", "-c:v", "copy"] + tags + [dir + "/a.flac"])
        try ffmpeg(["-i", dir + "/a.wav", "-i", dir + "/q.jpg"] + cover + ["-c:a", "aac", "-c:v", "copy"] + tags + [dir + "/a.m4a"])
        for name in ["a.mp3", "a.flac", "a.m4a"] {
            let t = try AudioDecoder(path: dir + "/" + name).tags
            XCTAssertEqual(t.title, "Blue in Green", name)
            XCTAssertEqual(t.artist, "Bill Evans", name)
            XCTAssertEqual(t.album, "Kind of Blue", name)
            let picture = try XCTUnwrap(try t.cover(of: name), name)
            XCTAssertEqual(picture.width, 64, name)
            XCTAssertGreaterThan(picture.rgba(x: 8, y: 8).x, 220, name)
        }
        // No tags, no picture: all nil.
        let plain = try AudioDecoder(path: dir + "/a.wav").tags
        XCTAssertEqual(plain, MediaTags())
    }
}
