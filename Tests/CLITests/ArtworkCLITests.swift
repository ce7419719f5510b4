import Foundation
import MediaIO
import SpecvizCore
import SpecvizTestSupport
import XCTest

/// Title, artist and cover from the file's tags, `--cover/--no-cover`, `--background`,
/// `--logo` (issue 17).
final class ArtworkCLITests: XCTestCase {
    func ffmpeg(_ args: [String]) throws { try FFmpegTool.run(args) }

    /// A tagged MP3 with a solid magenta cover: the cover sits in the top-right corner of a
    /// landscape frame, the title and artist are drawn beside it; --no-cover leaves it out.
    func testEmbeddedCoverAndTags() throws {
        let dir = CLI.tempDir()
        try Signals.writeWAV(Signals.sines([(440, 0.3)], seconds: 1), to: dir + "/a.wav")
        try PNGFile.write(PixelBuffer(width: 64, height: 64, fill: PixelBuffer.pack([1, 0, 1, 1])), to: dir + "/cover.png")
        try ffmpeg([
            "-i", dir + "/a.wav", "-i", dir + "/cover.png", "-map", "0:a", "-map", "1:v", "-c:a", "libmp3lame", "-c:v", "copy",
            "-disposition:v", "attached_pic", "-metadata", "title=Tagged Title", "-metadata", "artist=Some Artist", dir + "/t.mp3",
        ])
        let still = ["render", dir + "/t.mp3", "--at", "0.5", "--size", "640x360"]
        var r = try CLI.run(still + ["-o", dir + "/with.png"])
        XCTAssertEqual(r.status, 0, r.stderr)
        let with = try PNGFile.read(dir + "/with.png")
        // Cover box: side 0.17·h = 61 px, margin 0.035·h ≈ 13 px from the top-right corner.
        let c = with.rgba(x: 640 - 13 - 30, y: 13 + 30)
        XCTAssertEqual(c, SIMD4(255, 0, 255, 255))
        // Title text left of the cover: some bright pixels in that band.
        var lit = 0
        for y in 13..<40 { for x in 400..<560 where with.rgba(x: x, y: y).x > 150 { lit += 1 } }
        XCTAssertGreaterThan(lit, 30)
        r = try CLI.run(still + ["--no-cover", "-o", dir + "/without.png"])
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertNotEqual(try PNGFile.read(dir + "/without.png").rgba(x: 640 - 13 - 30, y: 13 + 30), SIMD4(255, 0, 255, 255))
    }

    func testBackgroundColourPictureAndLogo() throws {
        let dir = CLI.tempDir()
        try Signals.writeWAV(Signals.sines([(440, 0.3)], seconds: 1), to: dir + "/a.wav")
        let still = ["render", dir + "/a.wav", "--at", "0.5", "--size", "320x180", "--no-labels", "--mode", "circular"]
        var r = try CLI.run(still + ["--background", "#204060", "-o", dir + "/c.png"])
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertEqual(try PNGFile.read(dir + "/c.png").rgba(x: 2, y: 2), SIMD4(0x20, 0x40, 0x60, 255))
        // A white picture dimmed by half is mid grey behind everything; a red logo sits bottom-right.
        try PNGFile.write(PixelBuffer(width: 8, height: 8, fill: 0xFFFF_FFFF), to: dir + "/white.png")
        try PNGFile.write(PixelBuffer(width: 40, height: 20, fill: PixelBuffer.pack([1, 0, 0, 1])), to: dir + "/logo.png")
        r = try CLI.run(still + ["--background", dir + "/white.png", "--background-dim", "0.5", "--logo", dir + "/logo.png", "-o", dir + "/p.png"])
        XCTAssertEqual(r.status, 0, r.stderr)
        let p = try PNGFile.read(dir + "/p.png")
        XCTAssertEqual(Int(p.rgba(x: 2, y: 2).x), 128, accuracy: 2)
        let logo = p.rgba(x: 320 - 8, y: 180 - 8)
        XCTAssertGreaterThan(logo.x, 200)
        XCTAssertLessThan(logo.y, 80)
    }

    func testBadPicturesAreOneErrorLineAndNoOutput() throws {
        let dir = CLI.tempDir()
        try Signals.writeWAV(Signals.sines([(440, 0.3)], seconds: 1), to: dir + "/a.wav")
        try Data("not an image".utf8).write(to: URL(fileURLWithPath: dir + "/bad.png"))
        let still = ["render", dir + "/a.wav", "--at", "0.5", "--size", "64x36", "-o", dir + "/o.png"]
        for (extra, mention) in [
            (["--cover", dir + "/missing.png"], "cannot open image"), (["--logo", dir + "/bad.png"], "not a PNG, JPEG or WebP"),
            (["--background-dim", "2"], "--background-dim"), (["--background", "#12345"], "#rrggbb"),
        ] {
            let r = try CLI.run(still + extra)
            XCTAssertNotEqual(r.status, 0)
            XCTAssertEqual(r.stderr.split(separator: "\n").count, 1, r.stderr)
            XCTAssertTrue(r.stderr.contains(mention), r.stderr)
        }
        XCTAssertEqual(CLI.files(dir).sorted(), ["a.wav", "bad.png"])
    }

    /// --transparent: alpha 0 where nothing is drawn, and the frame composited over black is
    /// the opaque render (±2 levels); MP4 cannot carry alpha, MOV and WebM can.
    func testTransparentFramesCompositeToTheOpaqueRender() throws {
        let dir = CLI.tempDir()
        try Signals.writeWAV(Signals.sines([(440, 0.3), (3000, 0.1)], seconds: 1), to: dir + "/a.wav")
        for mode in ["bars", "surface+"] {
            let still = ["render", dir + "/a.wav", "--at", "0.6", "--size", "320x180", "--mode", mode]
            XCTAssertEqual(try CLI.run(still + ["-o", dir + "/o.png", "-y"]).status, 0)
            let r = try CLI.run(still + ["--transparent", "-o", dir + "/t.png", "-y"])
            XCTAssertEqual(r.status, 0, r.stderr)
            let opaque = try PNGFile.read(dir + "/o.png"), clear = try PNGFile.read(dir + "/t.png")
            var transparent = 0, worst = 0
            for i in clear.pixels.indices {
                let t = clear.pixels[i], o = opaque.pixels[i]
                let a = Int(t >> 24)
                if a == 0 { transparent += 1 }
                for shift in [UInt32(0), 8, 16] {
                    let over = (Int(t >> shift & 0xFF) * a + 127) / 255
                    worst = max(worst, abs(over - Int(o >> shift & 0xFF)))
                }
            }
            XCTAssertGreaterThan(transparent, clear.pixels.count / 4, mode)
            XCTAssertLessThanOrEqual(worst, 2, mode)
        }
        let video = ["render", dir + "/a.wav", "--size", "64x36", "--fps", "10", "--transparent"]
        let mp4 = try CLI.run(video + ["-o", dir + "/v.mp4"])
        XCTAssertNotEqual(mp4.status, 0)
        XCTAssertTrue(mp4.stderr.contains("no alpha video"), mp4.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: dir + "/v.mp4"))
        let dump = try CLI.run(["render", dir + "/a.wav", "--at", "0.5", "--transparent", "--dump-frame", dir + "/f.svzf", "-o", dir + "/f.png"])
        XCTAssertEqual(dump.status, 64)
        XCTAssertTrue(dump.stderr.contains("--transparent"), dump.stderr)
        XCTAssertEqual(try CLI.run(video + ["-o", dir + "/v.mov"]).status, 0)
        XCTAssertEqual(try CLI.run(video + ["-o", dir + "/v.webm"]).status, 0)
    }
}

/// `--channels stereo` draws the left channel in the top half and the right in the bottom
/// half (bars, curve, spectrogram); a mono input draws as without it.
final class StereoCLITests: XCTestCase {
    func testLeftOnTopRightBelow() throws {
        let dir = CLI.tempDir()
        try Signals.writeWAV(left: Signals.sines([(110, 0.5)], seconds: 1.5), right: Signals.sines([(3000, 0.5)], seconds: 1.5), to: dir + "/lr.wav")
        let r = try CLI.run([
            "render", dir + "/lr.wav", "--channels", "stereo", "--mode", "bars", "--at", "1", "--size", "640x360",
            "--no-labels", "-o", dir + "/s.png",
        ])
        XCTAssertEqual(r.status, 0, r.stderr)
        let p = try PNGFile.read(dir + "/s.png")
        // Lit pixels (any colour channel > 60) in the columns around x.
        func lit(x: Int, rows: Range<Int>) -> Int {
            var n = 0
            for y in rows { for dx in -6...6 where max(p.rgba(x: x + dx, y: y).x, p.rgba(x: x + dx, y: y).y, p.rgba(x: x + dx, y: y).z) > 60 { n += 1 } }
            return n
        }
        // Log axis 20 Hz–20 kHz over the width (no labels: 2 % margins): 110 Hz at ~25 %, 3 kHz at ~72 %.
        func column(_ hz: Double) -> Int { Int(640 * (0.02 + 0.96 * log10(hz / 20) / 3)) }
        XCTAssertGreaterThan(lit(x: column(110), rows: 10..<140), 40, "left tone on top")
        XCTAssertLessThan(lit(x: column(110), rows: 190..<320), 10, "not below")
        XCTAssertGreaterThan(lit(x: column(3000), rows: 190..<320), 40, "right tone below")
        XCTAssertLessThan(lit(x: column(3000), rows: 10..<140), 10, "not on top")

        // A mono input: the same picture as without --channels stereo.
        try Signals.writeWAV(Signals.sines([(440, 0.5)], seconds: 1.5), to: dir + "/m.wav")
        let still = ["render", dir + "/m.wav", "--at", "1", "--size", "160x90", "--mode", "curve"]
        XCTAssertEqual(try CLI.run(still + ["-o", dir + "/a.png"]).status, 0)
        XCTAssertEqual(try CLI.run(still + ["--channels", "stereo", "-o", dir + "/b.png"]).status, 0)
        XCTAssertEqual(try PNGFile.read(dir + "/a.png").pixels, try PNGFile.read(dir + "/b.png").pixels)
        // tune has no stereo: one error line.
        let t = try CLI.run(["tune", dir + "/lr.wav", "--channels", "stereo"])
        XCTAssertEqual(t.status, 64)
    }
}

/// The vector scope beside a stereo `scope`: in-phase sound is a vertical line (mid),
/// out-of-phase sound a horizontal one (side).
final class VectorScopeCLITests: XCTestCase {
    func testInPhaseIsVerticalAndOutOfPhaseHorizontal() throws {
        let dir = CLI.tempDir()
        let s = Signals.sines([(220, 0.5)], seconds: 1)
        try Signals.writeWAV(left: s, right: s, to: dir + "/same.wav")
        try Signals.writeWAV(left: s, right: s.map { -$0 }, to: dir + "/opposite.wav")
        func picture(_ name: String) throws -> PixelBuffer {
            let r = try CLI.run([
                "render", dir + "/\(name).wav", "--mode", "scope", "--channels", "stereo", "--at", "0.5",
                "--size", "640x360", "--no-labels", "-o", dir + "/\(name).png",
            ])
            XCTAssertEqual(r.status, 0, r.stderr)
            return try PNGFile.read(dir + "/\(name).png")
        }
        // The square's centre: find the brightest-green column/row crossing in the right third.
        func bright(_ p: PixelBuffer, _ x: Int, _ y: Int) -> Bool {
            let c = p.rgba(x: x, y: y)
            return c.y > 90 && Int(c.y) > Int(c.x) + 30
        }
        let same = try picture("same"), opposite = try picture("opposite")
        // The vector scope's centre: the middle of the horizontal line the out-of-phase sound draws.
        let row = (360..<640).filter { bright(opposite, $0, 180) || bright(opposite, $0, 181) }
        let cx = ((row.first ?? 0) + (row.last ?? 0)) / 2, cy = 180
        XCTAssertGreaterThan(row.count, 150, "a long horizontal line")
        func count(_ p: PixelBuffer, vertical: Bool) -> Int {
            // Along a line through the scope's centre, away from the centre itself.
            var n = 0
            for d in 30..<80 {
                for s in [-1, 1]
                where vertical
                    ? bright(p, cx, cy + s * d) || bright(p, cx + 1, cy + s * d) || bright(p, cx - 1, cy + s * d)
                    : bright(p, cx + s * d, cy) || bright(p, cx + s * d, cy + 1) || bright(p, cx + s * d, cy - 1)
                { n += 1 }
            }
            return n
        }
        XCTAssertGreaterThan(count(same, vertical: true), 60)
        XCTAssertLessThan(count(same, vertical: false), 10)
        XCTAssertGreaterThan(count(opposite, vertical: false), 60)
        XCTAssertLessThan(count(opposite, vertical: true), 10)
    }
}
