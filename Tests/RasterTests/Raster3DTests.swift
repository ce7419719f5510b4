import Raster
import ShadersCPU
import SpecvizCore
import XCTest

/// Counts fragment invocations (single-threaded renders only) and returns the colour unlit.
final class FragmentCounter: @unchecked Sendable { var count = 0 }

struct CountingShader: Shader3D {
    let counter: FragmentCounter
    func vertex(_ v: Vertex3D, mvp: Mat4) -> ShadedVertex { LitShader().vertex(v, mvp: mvp) }
    func fragment(normal: SIMD3<Float>, color: SIMD4<Float>) -> SIMD4<Float> {
        counter.count += 1
        return color
    }
}

/// The lit 3D pipeline (SPEC §4, §10): depth LESS, near-plane clipping, perspective-correct
/// interpolation, lighting, no cracks, and errors for impossible draws. Oracles are computed
/// independently (ray casting per pixel centre), not by the rasteriser's own formulas.
final class Raster3DTests: XCTestCase {
    static let fov: Float = 45 * .pi / 180

    /// Projection for a camera at the origin looking down −z (view = identity).
    func projection(_ w: Int, _ h: Int) -> Mat4 {
        Mat4.perspective(fovY: Raster3DTests.fov, aspect: Float(w) / Float(h), near: 0.1, far: 100)
    }

    /// View-space direction of the ray through the centre of pixel (px, py).
    func ray(_ px: Int, _ py: Int, _ w: Int, _ h: Int) -> SIMD3<Float> {
        let t = tanf(Raster3DTests.fov / 2), a = Float(w) / Float(h)
        let x = (Float(px) + 0.5) / Float(w) * 2 - 1, y = 1 - (Float(py) + 0.5) / Float(h) * 2
        return SIMD3(x * t * a, y * t, -1)
    }

    func render<S: Shader3D>(_ scene: Scene, shader: S, threads: Int = 2) throws -> PixelBuffer {
        var picture = PixelBuffer(width: scene.width, height: scene.height)
        try Rasterizer(threads: threads).render(scene, into: &picture, shader2D: FlatShader(), shader3D: shader)
        return picture
    }

    /// A triangle whose normal is the light direction, so the lit colour equals the vertex colour.
    func add(
        _ s: inout Scene, _ a: SIMD3<Float>, _ b: SIMD3<Float>, _ c: SIMD3<Float>,
        _ ca: SIMD4<Float>, _ cb: SIMD4<Float>? = nil, _ cc: SIMD4<Float>? = nil
    ) {
        let n = LitShader.light
        s.vertices3D.append(Vertex3D(a, n, ca))
        s.vertices3D.append(Vertex3D(b, n, cb ?? ca))
        s.vertices3D.append(Vertex3D(c, n, cc ?? ca))
    }

    func testNearerTriangleWinsInEitherOrder() throws {
        let red = SIMD4<Float>(1, 0, 0, 1), blue = SIMD4<Float>(0, 0, 1, 1)
        for nearFirst in [true, false] {
            var s = Scene(width: 64, height: 48)
            s.begin3D(mvp: projection(64, 48))
            let near = { (s: inout Scene) in self.add(&s, SIMD3(-0.6, -0.5, -2), SIMD3(0.6, -0.5, -2), SIMD3(0, 0.6, -2), red) }
            let far = { (s: inout Scene) in self.add(&s, SIMD3(-2, -1.5, -3), SIMD3(2, -1.5, -3), SIMD3(0.5, 1.5, -3), blue) }
            if nearFirst { near(&s); far(&s) } else { far(&s); near(&s) }
            s.end3D()
            let p = try render(s, shader: LitShader())
            XCTAssertEqual(p.rgba(x: 32, y: 26), SIMD4(255, 0, 0, 255), "overlap shows the near triangle (nearFirst \(nearFirst))")
            XCTAssertEqual(p.rgba(x: 12, y: 38), SIMD4(0, 0, 255, 255), "far triangle visible outside the overlap")
            XCTAssertEqual(p.rgba(x: 1, y: 1), SIMD4(0, 0, 0, 255), "background untouched")
        }
    }

    func testTriangleCrossingTheNearPlaneMatchesRayCasting() throws {
        // A floor triangle at y = −0.5 reaching from 3 units ahead to 1 unit behind the eye.
        let w = 96, h = 64
        let a = SIMD3<Float>(-1.5, -0.5, -3), b = SIMD3<Float>(1.5, -0.5, -3), c = SIMD3<Float>(0.2, -0.5, 1)
        var s = Scene(width: w, height: h)
        s.begin3D(mvp: projection(w, h))
        add(&s, a, b, c, SIMD4(1, 1, 1, 1))
        s.end3D()
        let p = try render(s, shader: LitShader())
        func inside(_ q: SIMD2<Float>) -> Bool {
            func side(_ u: SIMD3<Float>, _ v: SIMD3<Float>) -> Float { (v.x - u.x) * (q.y - u.z) - (v.z - u.z) * (q.x - u.x) }
            let s0 = side(a, b), s1 = side(b, c), s2 = side(c, a)
            return (s0 >= 0 && s1 >= 0 && s2 >= 0) || (s0 <= 0 && s1 <= 0 && s2 <= 0)
        }
        var mismatches = 0, covered = 0
        for py in 0..<h {
            for px in 0..<w {
                let d = ray(px, py, w, h)
                var expected = false
                if d.y < 0 {
                    let t = -0.5 / d.y // distance along −z, = view depth
                    expected = t >= 0.1 && inside(SIMD2(d.x * t, -t))
                }
                let drawn = p.rgba(x: px, y: py).x > 0
                if drawn { covered += 1 }
                if drawn != expected { mismatches += 1 }
                if py < h / 2 { XCTAssertFalse(drawn, "nothing above the horizon at \(px),\(py)") }
            }
        }
        XCTAssertGreaterThan(covered, w * h / 5, "the clipped triangle fills much of the lower half")
        XCTAssertLessThanOrEqual(mismatches, 3, "coverage equals the ray-cast oracle except at exact edge pixels")
    }

    func testTriangleBehindTheEyeDrawsNothing() throws {
        var s = Scene(width: 32, height: 32)
        s.begin3D(mvp: projection(32, 32))
        add(&s, SIMD3(-1, -1, 2), SIMD3(1, -1, 2), SIMD3(0, 1, 3), SIMD4(1, 1, 1, 1))
        s.end3D()
        let p = try render(s, shader: LitShader())
        XCTAssertTrue(p.pixels.allSatisfy { $0 == 0xFF00_0000 }, "w < 0 everywhere: no inverted garbage")
    }

    func testColourIsPerspectiveCorrectOnATiltedQuad() throws {
        // Floor quad from 1 to 6 units ahead, red at the near edge, green at the far edge.
        let w = 80, h = 80
        let red = SIMD4<Float>(1, 0, 0, 1), green = SIMD4<Float>(0, 1, 0, 1)
        let n0 = SIMD3<Float>(-1, -0.6, -1), n1 = SIMD3<Float>(1, -0.6, -1)
        let f0 = SIMD3<Float>(-1, -0.6, -6), f1 = SIMD3<Float>(1, -0.6, -6)
        var s = Scene(width: w, height: h)
        s.begin3D(mvp: projection(w, h))
        add(&s, n0, n1, f1, red, red, green)
        add(&s, n0, f1, f0, red, green, green)
        s.end3D()
        let p = try render(s, shader: LitShader())
        var checked = 0, worst = 0, affineGap: Float = 0
        for py in 0..<h {
            for px in 0..<w {
                let d = ray(px, py, w, h)
                guard d.y < 0 else { continue }
                let t = -0.6 / d.y
                let x = d.x * t, z = -t
                // Stay a pixel away from the quad's edges.
                guard z < -1.15, z > -5.7, abs(x) < 0.9 else { continue }
                let g = (-1 - z) / 5 // 0 at the near edge, 1 at the far edge, linear in world space
                let rgba = p.rgba(x: px, y: py)
                worst = max(worst, abs(Int(rgba.y) - Int((g * 255).rounded())), abs(Int(rgba.x) - Int(((1 - g) * 255).rounded())))
                checked += 1
                // What affine (screen-space) interpolation would show: linear in screen y between the edges.
                let yNear = -0.6 / 1 / tanf(Raster3DTests.fov / 2), yFar = -0.6 / 6 / tanf(Raster3DTests.fov / 2)
                let ndcY = 1 - (Float(py) + 0.5) / Float(h) * 2
                affineGap = max(affineGap, abs((ndcY - yNear) / (yFar - yNear) - g))
            }
        }
        XCTAssertGreaterThan(checked, 600)
        XCTAssertLessThanOrEqual(worst, 2, "colour within 2/255 of the world-space gradient")
        XCTAssertGreaterThan(affineGap, 0.3, "the test discriminates: affine interpolation would be far off")
    }

    func testMeshHasNoCracksAndNoDoubleWrites() throws {
        // Jittered 12×12-cell grid covering pixels 10..<90 × 8..<72 exactly; every triangle is
        // nearer than the one before, so each covered pixel runs the fragment stage once per write.
        let w = 100, h = 80, cells = 12
        let x0: Float = -0.8, x1: Float = 0.8, y0: Float = -0.8, y1: Float = 0.8
        var rng: UInt64 = 0x9E37_79B9_7F4A_7C15
        func jitter() -> Float {
            rng = rng &* 6364136223846793005 &+ 1442695040888963407
            return Float(rng >> 40) / Float(1 << 24) - 0.5
        }
        var grid = [SIMD2<Float>](repeating: .zero, count: (cells + 1) * (cells + 1))
        for j in 0...cells {
            for i in 0...cells {
                var q = SIMD2(x0 + (x1 - x0) * Float(i) / Float(cells), y0 + (y1 - y0) * Float(j) / Float(cells))
                if i > 0 && i < cells { q.x += jitter() * 0.6 * (x1 - x0) / Float(cells) }
                if j > 0 && j < cells { q.y += jitter() * 0.6 * (y1 - y0) / Float(cells) }
                grid[j * (cells + 1) + i] = q
            }
        }
        var s = Scene(width: w, height: h)
        s.begin3D(mvp: .identity)
        var depth: Float = 0.9
        func tri(_ a: SIMD2<Float>, _ b: SIMD2<Float>, _ c: SIMD2<Float>) {
            add(&s, SIMD3(a.x, a.y, depth), SIMD3(b.x, b.y, depth), SIMD3(c.x, c.y, depth), SIMD4(1, 1, 1, 1))
            depth -= 1e-4
        }
        for j in 0..<cells {
            for i in 0..<cells {
                let a = grid[j * (cells + 1) + i], b = grid[j * (cells + 1) + i + 1]
                let c = grid[(j + 1) * (cells + 1) + i + 1], d = grid[(j + 1) * (cells + 1) + i]
                if (i + j) % 2 == 0 { tri(a, b, c); tri(a, c, d) } else { tri(a, b, d); tri(b, c, d) }
            }
        }
        s.end3D()
        let counter = FragmentCounter()
        let p = try render(s, shader: CountingShader(counter: counter), threads: 1)
        var holes = 0, outside = 0
        for py in 0..<h {
            for px in 0..<w {
                let drawn = p.rgba(x: px, y: py).x > 0
                let inRegion = (10..<90).contains(px) && (8..<72).contains(py)
                if inRegion && !drawn { holes += 1 }
                if !inRegion && drawn { outside += 1 }
            }
        }
        XCTAssertEqual(holes, 0, "no unwritten pixel inside the mesh")
        XCTAssertEqual(outside, 0, "nothing outside the mesh's boundary")
        XCTAssertEqual(counter.count, 80 * 64, "every pixel written exactly once")
    }

    func testLambertLightingWithAmbientHalf() throws {
        var s = Scene(width: 8, height: 8)
        s.begin3D(mvp: .identity)
        let white = SIMD4<Float>(1, 1, 1, 1)
        // Left half faces up, right half faces away from the light.
        for (x0, x1, n) in [(Float(-1), Float(0), SIMD3<Float>(0, 1, 0)), (0, 1, -LitShader.light)] {
            for (a, b, c) in [
                (SIMD3(x0, -1, 0.5), SIMD3(x1, -1, 0.5), SIMD3(x1, 1, 0.5)),
                (SIMD3(x0, -1, 0.5), SIMD3(x1, 1, 0.5), SIMD3(x0, 1, 0.5)),
            ] {
                s.vertices3D.append(Vertex3D(a, n, white)); s.vertices3D.append(Vertex3D(b, n, white))
                s.vertices3D.append(Vertex3D(c, n, white))
            }
        }
        s.end3D()
        let p = try render(s, shader: LitShader())
        let up = 0.5 + 0.5 * Float(1 / (0.25 + 1 + 0.09).squareRoot())
        XCTAssertEqual(Int(p.rgba(x: 1, y: 4).x), Int((up * 255).rounded()), "N = (0,1,0): 0.5 + 0.5·L.y")
        XCTAssertEqual(Int(p.rgba(x: 6, y: 4).x), 128, "facing away: ambient only")
    }

    func testVertexCountOverTheBufferIsAnError() {
        var s = Scene(width: 8, height: 8)
        add(&s, SIMD3(0, 0, 0.5), SIMD3(1, 0, 0.5), SIMD3(0, 1, 0.5), SIMD4(1, 1, 1, 1))
        s.items.append(.draw(DrawCommand(pipeline: .lit3D, first: 0, count: 6, mvp: .identity)))
        XCTAssertThrowsError(try render(s, shader: LitShader()), "6 vertices from a 3-vertex buffer")
        s.items = [.draw(DrawCommand(pipeline: .lit3D, first: 0, count: 2, mvp: .identity))]
        XCTAssertThrowsError(try render(s, shader: LitShader()), "not a triangle list")
    }
}
