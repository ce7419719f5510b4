import Foundation
import MediaIO
import SpecvizCore
import XCTest

/// The live display sinks: a plain file standing in for a framebuffer at each depth, and
/// the terminal's half-block encoding of a tiny frame.
final class PreviewSinkTests: XCTestCase {
    func pattern(width: Int, height: Int) -> PixelBuffer {
        var p = PixelBuffer(width: width, height: height)
        for y in 0..<height {
            for x in 0..<width {
                let r = UInt32(x * 255 / max(width - 1, 1)), g = UInt32(y * 255 / max(height - 1, 1)), b = UInt32((x * 7 + y * 13) & 0xFF)
                p.pixels[y * width + x] = r | g << 8 | b << 16 | 0xFF00_0000
            }
        }
        return p
    }

    func path(_ name: String) -> String {
        let p = NSTemporaryDirectory() + "specviz-preview-\(getpid())-\(name)"
        addTeardownBlock { unlink(p) }
        return p
    }

    /// 32 bpp is XRGB8888: bytes B, G, R, X in the file, lossless.
    func testFramebufferFile32IsBGRXAndLossless() throws {
        let file = path("fb32")
        let sink = try FramebufferSink(path: file, width: 8, height: 4, bitsPerPixel: 32)
        let frame = pattern(width: 8, height: 4)
        try sink.write(frame, index: 0)
        try sink.finish()
        let bytes = try XCTUnwrap(FileManager.default.contents(atPath: file))
        XCTAssertEqual(bytes.count, 8 * 4 * 4)
        let px = frame.pixels[1 * 8 + 7] // (7, 1)
        let o = (1 * 8 + 7) * 4
        XCTAssertEqual(bytes[o], UInt8(truncatingIfNeeded: px >> 16), "blue first")
        XCTAssertEqual(bytes[o + 1], UInt8(truncatingIfNeeded: px >> 8))
        XCTAssertEqual(bytes[o + 2], UInt8(truncatingIfNeeded: px))
        XCTAssertEqual(sink.readBack().pixels, frame.pixels)
    }

    /// Told which rows changed since the frame before, the framebuffer converts only those:
    /// every frame reads back whole and right, and a hint that leaves out a changed row
    /// leaves the old row on screen (so the conversion really is partial).
    func testFramebufferConvertsOnlyTheChangedRows() throws {
        let sink = try FramebufferSink(path: path("fbrows"), width: 12, height: 10, bitsPerPixel: 32)
        var frame = pattern(width: 12, height: 10)
        try sink.write(frame, index: 0, changed: .all)
        for k in 1..<6 {
            // Row k + 2 changes colour.
            for x in 0..<12 { frame.pixels[(k + 2) * 12 + x] = 0xFF00_0000 | UInt32(40 * k) }
            var changed = ChangedRows.none
            changed.insert((k + 2)..<(k + 3))
            try sink.write(frame, index: k, changed: changed)
            XCTAssertEqual(sink.readBack().pixels, frame.pixels, "frame \(k)")
        }
        let before = sink.readBack().pixels
        for x in 0..<12 { frame.pixels[1 * 12 + x] = 0xFFFF_FFFF }
        var elsewhere = ChangedRows.none
        elsewhere.insert(8..<9)
        try sink.write(frame, index: 6, changed: elsewhere)
        XCTAssertEqual(Array(sink.readBack().pixels[12..<24]), Array(before[12..<24]), "row 1 was not said to change")
        try sink.write(frame, index: 7, changed: .all)
        XCTAssertEqual(sink.readBack().pixels, frame.pixels)
    }

    /// 24 bpp (BGR888) is lossless; 16 bpp (RGB565) keeps 5/6/5 bits: error ≤ 8 per channel.
    func testFramebufferFile24And16() throws {
        let frame = pattern(width: 10, height: 6)
        let s24 = try FramebufferSink(path: path("fb24"), width: 10, height: 6, bitsPerPixel: 24)
        try s24.write(frame, index: 0)
        XCTAssertEqual(s24.format.stride, 30)
        XCTAssertEqual(s24.readBack().pixels, frame.pixels)
        let s16 = try FramebufferSink(path: path("fb16"), width: 10, height: 6, bitsPerPixel: 16)
        try s16.write(frame, index: 0)
        let back = s16.readBack()
        for i in 0..<frame.pixels.count {
            for shift in [0, 8, 16] {
                let a = Int((frame.pixels[i] >> UInt32(shift)) & 0xFF), b = Int((back.pixels[i] >> UInt32(shift)) & 0xFF)
                XCTAssertLessThanOrEqual(abs(a - b), 8, "pixel \(i) channel \(shift / 8)")
            }
        }
        // Pure red is 0xF800 in RGB565.
        var red = PixelBuffer(width: 10, height: 6, fill: 0xFF00_00FF)
        red.pixels[0] = 0xFF00_00FF
        try s16.write(red, index: 1)
        let bytes = try XCTUnwrap(FileManager.default.contents(atPath: s16.path))
        XCTAssertEqual(UInt16(bytes[0]) | UInt16(bytes[1]) << 8, 0xF800)
    }

    /// A frame of another size is centred; bad geometry is one clear error.
    func testFramebufferCentresOtherSizesAndRejectsBadInput() throws {
        let sink = try FramebufferSink(path: path("fbc"), width: 6, height: 6, bitsPerPixel: 32)
        try sink.write(PixelBuffer(width: 6, height: 6, fill: 0xFF00_0000), index: 0)
        try sink.write(PixelBuffer(width: 2, height: 2, fill: 0xFFFF_FFFF), index: 1)
        let back = sink.readBack()
        XCTAssertEqual(back.pixels[2 * 6 + 2], 0xFFFF_FFFF)
        XCTAssertEqual(back.pixels[3 * 6 + 3], 0xFFFF_FFFF)
        XCTAssertEqual(back.pixels[0], 0xFF00_0000)
        XCTAssertThrowsError(try FramebufferSink(path: path("bad"), width: 6, height: 6, bitsPerPixel: 12)) {
            XCTAssertTrue("\($0)".contains("12 bpp"), "\($0)")
        }
        XCTAssertThrowsError(try FramebufferSink(path: path("nosize"))) {
            XCTAssertTrue("\($0)".contains("--fb-size"), "\($0)")
        }
    }

    /// A 2×4 frame on a 2-column, 3-row grid: two cell rows of upper half blocks, colours
    /// sent only when they change, then the status row.
    func testTerminalHalfBlocks() throws {
        let sink = TerminalSink(fd: -1, grid: (columns: 2, rows: 3))
        XCTAssertEqual(sink.preferredSize?.width, 16) // at least 16 (the renderer's minimum)
        var frame = PixelBuffer(width: 2, height: 4, fill: 0xFF00_0000)
        frame.pixels[0] = 0xFF00_00FF // (0,0) red
        frame.pixels[1] = 0xFF00_00FF // (1,0) red
        frame.pixels[2] = 0xFF00_FF00 // (0,1) green
        frame.pixels[3] = 0xFFFF_0000 // (1,1) blue
        frame.pixels[4] = 0xFF01_0203 // (0,2) rgb(3,2,1); row 3 black
        sink.status = "bars 60 fps"
        sink.encode(frame)
        let text = String(decoding: sink.bytes, as: UTF8.self)
        let expected =
            "\u{1B}[H"
            + "\u{1B}[38;2;255;0;0m\u{1B}[48;2;0;255;0m▀" + "\u{1B}[48;2;0;0;255m▀"
            + "\r\n" + "\u{1B}[38;2;3;2;1m\u{1B}[48;2;0;0;0m▀" + "\u{1B}[38;2;0;0;0m▀"
            + "\u{1B}[0m\r\n\u{1B}[2K" + "b"
        XCTAssertEqual(text, expected)
        XCTAssertThrowsError(try sink.write(frame, index: 0), "writing to a closed descriptor is an error")
    }

    /// ALSA `null` capture delivers silence at once and never blocks.
    func testNullCaptureDeliversSilence() throws {
        let capture = try ALSACapture(device: "null", sampleRate: 48000, channels: 2)
        var buffer = [Float](repeating: 1, count: 4096)
        let n = try buffer.withUnsafeMutableBufferPointer { try capture.readAvailableMono(into: $0) }
        XCTAssertGreaterThan(n, 0)
        XCTAssertTrue(buffer[0..<n].allSatisfy { $0 == 0 })
        XCTAssertThrowsError(try ALSACapture(device: "no-such-pcm-xyz")) {
            XCTAssertTrue("\($0)".contains("no-such-pcm-xyz"), "\($0)")
        }
    }
}
