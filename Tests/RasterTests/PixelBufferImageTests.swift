import Raster
import SpecvizCore
import XCTest

/// Artwork picture operations: scaling to fill and to fit, blur, dimming and "over".
final class PixelBufferImageTests: XCTestCase {
    func solid(_ w: Int, _ h: Int, _ c: SIMD4<Float>) -> PixelBuffer { PixelBuffer(width: w, height: h, fill: PixelBuffer.pack(c)) }

    /// Left half red, right half blue.
    func halves(_ w: Int, _ h: Int) -> PixelBuffer {
        var p = PixelBuffer(width: w, height: h)
        for y in 0..<h { for x in 0..<w { p.pixels[y * w + x] = PixelBuffer.pack(x < w / 2 ? [1, 0, 0, 1] : [0, 0, 1, 1]) } }
        return p
    }

    func testFillCropsTheOverflowAndKeepsTheMiddle() {
        // 400×100 onto 100×100: the middle 100×100 of the source (the red/blue edge) stays centred.
        let out = halves(400, 100).scaledToFill(width: 100, height: 100)
        XCTAssertEqual(out.width, 100)
        XCTAssertEqual(out.rgba(x: 10, y: 50), SIMD4(255, 0, 0, 255))
        XCTAssertEqual(out.rgba(x: 90, y: 50), SIMD4(0, 0, 255, 255))
        // Enlarging a solid picture keeps its colour exactly (weights sum to one).
        XCTAssertEqual(
            solid(3, 2, [0.2, 0.4, 0.6, 1]).scaledToFill(width: 64, height: 36).pixels,
            solid(64, 36, [0.2, 0.4, 0.6, 1]).pixels)
    }

    func testFitKeepsTheShapeAndAverages() {
        let out = halves(200, 100).scaledToFit(width: 50, height: 50)
        XCTAssertEqual(out.width, 50)
        XCTAssertEqual(out.height, 25)
        // A 1-pixel checkerboard shrunk by 4 is its average grey, not an aliased pattern.
        var checker = PixelBuffer(width: 64, height: 64)
        for i in checker.pixels.indices { checker.pixels[i] = (i % 64 + i / 64) % 2 == 0 ? 0xFFFF_FFFF : 0xFF00_0000 }
        let small = checker.scaledToFit(width: 16, height: 16)
        for p in small.pixels { XCTAssertEqual(Int(p & 0xFF), 128, accuracy: 3) }
    }

    func testTransparentPixelsDoNotDarkenEdges() {
        // Opaque white beside fully transparent black: the resampled edge stays white (only
        // alpha falls off), because the filter works on premultiplied colour.
        var p = PixelBuffer(width: 8, height: 1, fill: 0x0000_0000)
        for x in 0..<4 { p.pixels[x] = 0xFFFF_FFFF }
        let out = p.scaledToFill(width: 32, height: 4)
        for x in 0..<32 where out.rgba(x: x, y: 1).w > 8 { XCTAssertGreaterThanOrEqual(out.rgba(x: x, y: 1).x, 250) }
    }

    func testBlurSpreadsAnEdgeAndKeepsTheMean() {
        let p = halves(64, 8)
        let b = p.blurred(radius: 4)
        XCTAssertEqual(b.rgba(x: 2, y: 4), SIMD4(255, 0, 0, 255)) // far from the edge
        let mid = b.rgba(x: 32, y: 4)
        XCTAssertGreaterThan(mid.x, 60); XCTAssertGreaterThan(mid.z, 60) // mixed at the edge
        let mean = { (q: PixelBuffer) in q.pixels.reduce(0) { $0 + Int($1 & 0xFF) } }
        XCTAssertEqual(Double(mean(b)), Double(mean(p)), accuracy: Double(mean(p)) * 0.01)
    }

    func testDimAndOver() {
        XCTAssertEqual(solid(2, 2, [1, 0.5, 0, 1]).dimmed(0.5).rgba(x: 0, y: 0), SIMD4(127, 64, 0, 255))
        var dst = solid(4, 4, [0, 0, 0, 1])
        dst.draw(solid(2, 2, [1, 1, 1, 1]), x: 1, y: 1, opacity: 0.5)
        XCTAssertEqual(dst.rgba(x: 0, y: 0), SIMD4(0, 0, 0, 255))
        XCTAssertEqual(Int(dst.rgba(x: 1, y: 1).x), 128, accuracy: 1)
        XCTAssertEqual(dst.rgba(x: 1, y: 1).w, 255)
        // Clipped at the picture's edges, nothing outside is touched.
        dst.draw(solid(3, 3, [1, 0, 0, 1]), x: 2, y: -1)
        XCTAssertEqual(dst.rgba(x: 3, y: 0), SIMD4(255, 0, 0, 255))
        XCTAssertEqual(dst.rgba(x: 3, y: 2), SIMD4(0, 0, 0, 255))
    }
}
