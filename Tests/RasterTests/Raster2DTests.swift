import Raster
import ShadersCPU
import SpecvizCore
import XCTest

final class Raster2DTests: XCTestCase {
    let rasterizer = Rasterizer(threads: 2)

    func render(_ scene: Scene) throws -> PixelBuffer {
        var picture = PixelBuffer(width: scene.width, height: scene.height)
        try rasterizer.render(scene, into: &picture, shader2D: FlatShader(), shader3D: LitShader())
        return picture
    }

    /// Clip-space x of the left edge of pixel column `px` in a frame `w` wide.
    func cx(_ px: Float, _ w: Int) -> Float { px / Float(w) * 2 - 1 }
    func cy(_ py: Float, _ h: Int) -> Float { 1 - py / Float(h) * 2 }

    func testQuadCoversExactlyItsPixels() throws {
        var s = Scene(width: 16, height: 8)
        s.begin2D()
        let red = SIMD4<Float>(1, 0, 0, 1)
        s.quad(x0: cx(2, 16), y0: cy(6, 8), x1: cx(10, 16), y1: cy(1, 8), bottom: red, top: red)
        s.end2D()
        let p = try render(s)
        for y in 0..<8 {
            for x in 0..<16 {
                let inside = (2..<10).contains(x) && (1..<6).contains(y)
                XCTAssertEqual(p.rgba(x: x, y: y), inside ? SIMD4(255, 0, 0, 255) : SIMD4(0, 0, 0, 255), "pixel \(x),\(y)")
            }
        }
    }

    func testSharedEdgesAreDrawnOnce() throws {
        // A fan of half-transparent triangles around a centre: any pixel drawn twice would be brighter.
        var s = Scene(width: 64, height: 64)
        s.begin2D()
        let c = SIMD4<Float>(1, 1, 1, 0.5)
        let n = 7
        let centre = SIMD2<Float>(0.013, -0.021)
        for i in 0..<n {
            let a0 = Float(i) / Float(n) * 2 * .pi, a1 = Float(i + 1) / Float(n) * 2 * .pi
            s.vertices2D.append(Vertex2D(centre, c))
            s.vertices2D.append(Vertex2D(SIMD2(0.9 * cosf(a0), 0.9 * sinf(a0)), c))
            s.vertices2D.append(Vertex2D(SIMD2(0.9 * cosf(a1), 0.9 * sinf(a1)), c))
        }
        s.end2D()
        let p = try render(s)
        var values = Set<UInt8>()
        for y in 0..<64 { for x in 0..<64 { values.insert(p.rgba(x: x, y: y).x) } }
        XCTAssertEqual(values, [0, 128], "every pixel is covered zero times or exactly once")
    }

    func testColourInterpolatesAndBlends() throws {
        var s = Scene(width: 100, height: 10)
        s.begin2D()
        // Horizontal ramp black → white.
        s.quad(
            SIMD2(-1, -1), SIMD2(1, -1), SIMD2(1, 1), SIMD2(-1, 1),
            SIMD4(0, 0, 0, 1), SIMD4(1, 1, 1, 1), SIMD4(1, 1, 1, 1), SIMD4(0, 0, 0, 1))
        s.end2D()
        s.begin2D()
        // 25% red over the right half.
        let r = SIMD4<Float>(1, 0, 0, 0.25)
        s.quad(x0: 0, y0: -1, x1: 1, y1: 1, bottom: r, top: r)
        s.end2D()
        let p = try render(s)
        // Pixel centre x = 24.5 → 0.245 grey.
        XCTAssertEqual(Int(p.rgba(x: 24, y: 5).y), Int((0.245 * 255).rounded()), accuracy: 1)
        // Pixel 74: grey 0.745 under 25% red: r = 0.25 + 0.745·0.75, g = 0.745·0.75.
        let q = p.rgba(x: 74, y: 5)
        XCTAssertEqual(Int(q.x), Int(((0.25 + 0.745 * 0.75) * 255).rounded()), accuracy: 1)
        XCTAssertEqual(Int(q.y), Int((0.745 * 0.75 * 255).rounded()), accuracy: 1)
    }

    func testColoursAboveOneAreClampedWhenWritten() throws {
        var s = Scene(width: 4, height: 4)
        s.begin2D()
        let hot = SIMD4<Float>(1.3, 0.5, 2, 1)
        s.quad(x0: -1, y0: -1, x1: 1, y1: 1, bottom: hot, top: hot)
        s.end2D()
        XCTAssertEqual(try render(s).rgba(x: 1, y: 1), SIMD4(255, 128, 255, 255))
    }

    func testTrianglesOffTheFrameAreClipped() throws {
        var s = Scene(width: 32, height: 32)
        s.begin2D()
        let g = SIMD4<Float>(0, 1, 0, 1)
        // Huge triangle far beyond the guard band covering the whole frame.
        s.vertices2D.append(Vertex2D(SIMD2(-1e5, -1e5), g))
        s.vertices2D.append(Vertex2D(SIMD2(1e5, -1e5), g))
        s.vertices2D.append(Vertex2D(SIMD2(0, 1e5), g))
        s.end2D()
        let p = try render(s)
        for y in 0..<32 { for x in 0..<32 { XCTAssertEqual(p.rgba(x: x, y: y).y, 255) } }
    }

    func testBadDrawsAreErrors() {
        var s = Scene(width: 8, height: 8)
        s.begin2D()
        s.vertices2D.append(Vertex2D(SIMD2(0, 0), SIMD4(1, 1, 1, 1)))
        s.vertices2D.append(Vertex2D(SIMD2(1, 0), SIMD4(1, 1, 1, 1)))
        s.end2D()
        XCTAssertThrowsError(try render(s)) { XCTAssertTrue("\($0)".contains("not a triangle list")) }

        var t = Scene(width: 8, height: 8)
        t.items.append(.draw(DrawCommand(pipeline: .flat2D, first: 0, count: 300)))
        XCTAssertThrowsError(try render(t)) { XCTAssertTrue("\($0)".contains("exceeds")) }

        var u = Scene(width: 8, height: 8)
        u.begin2D()
        for _ in 0..<3 { u.vertices2D.append(Vertex2D(SIMD2(.nan, 0), SIMD4(1, 1, 1, 1))) }
        u.end2D()
        XCTAssertThrowsError(try render(u)) { XCTAssertTrue("\($0)".contains("non-finite")) }
    }

    func testThreadCountDoesNotChangeThePicture() throws {
        var s = Scene(width: 97, height: 61)
        s.begin2D()
        for i in 0..<50 {
            let a = Float(i) * 0.37
            s.vertices2D.append(Vertex2D(SIMD2(cosf(a), sinf(a * 1.3)), SIMD4(0.5, Float(i) / 50, 1, 0.6)))
            s.vertices2D.append(Vertex2D(SIMD2(sinf(a * 2.1), cosf(a)), SIMD4(1, 0.2, 0.1, 0.6)))
            s.vertices2D.append(Vertex2D(SIMD2(cosf(a * 0.7), -sinf(a)), SIMD4(0.1, 1, 0.3, 0.6)))
        }
        s.end2D()
        let one = Rasterizer(threads: 1), many = Rasterizer(threads: 4)
        var a = PixelBuffer(width: 97, height: 61), b = a
        try one.render(s, into: &a, shader2D: FlatShader(), shader3D: LitShader())
        try many.render(s, into: &b, shader2D: FlatShader(), shader3D: LitShader())
        XCTAssertEqual(a.pixels, b.pixels)
    }
}
