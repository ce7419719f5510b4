import Analysis
import Geometry
import Raster
import ShadersCPU
import SpecvizCore
import SpecvizTestSupport
import XCTest

/// Surface / surface+ geometry and pictures (issue 4; seed 000 Part 6).
final class SurfaceModeTests: XCTestCase {
    let bands = LogBands.count

    /// A state whose surface history holds `row(r, c)` (r = 0 oldest).
    func state(_ row: (Int, Int) -> Float) -> VisualState {
        var s = VisualState()
        for r in 0..<s.surface.rows {
            s.surface.push((0..<LogBands.count).map { row(r, $0) })
        }
        for i in 0..<s.waveform.count { s.waveform[i] = 0.5 * sinf(Float(i) * 0.07) }
        return s
    }

    func scene(_ st: VisualState, _ w: Int, _ h: Int, ridgelines: Bool, strip: Bool = false) -> Scene {
        let layout = Layout(width: w, height: h, labels: false)
        var sc = Scene(width: w, height: h)
        SurfaceMode(ridgelines: ridgelines).build(st, layout: layout, into: &sc)
        if strip { WaveformStrip().build(st, layout: layout, into: &sc) }
        return sc
    }

    func render(_ sc: Scene) throws -> PixelBuffer {
        var p = PixelBuffer(width: sc.width, height: sc.height)
        try Rasterizer(threads: 2).render(sc, into: &p, shader2D: FlatShader(), shader3D: LitShader())
        return p
    }

    /// Drives the real analyser with `samples` (44.1 kHz) and steps the visual state three
    /// video frames per hop (≈ 64 fps), as the renderer does.
    func analyse(_ samples: [Float]) -> VisualState {
        let analyzer = SpectrumAnalyzer(sampleRate: 44100)
        var frame = SpectrumFrame()
        var st = VisualState()
        st.modeState = VisualizationMode.surface.unit.makeState(ModeSettings(), height: 360)
        let hop = SpectrumAnalyzer.hopSize
        var i = 0
        while i + hop <= samples.count {
            samples[i..<(i + hop)].withUnsafeBufferPointer { analyzer.process($0, into: &frame) }
            for _ in 0..<3 { st.step(toward: frame) }
            i += hop
        }
        return st
    }

    /// Band with the highest value in each history row.
    func ridge(_ st: VisualState) -> [(band: Int, value: Float)] {
        (0..<st.surface.rows).map { r in
            var best = (0, -Float.infinity)
            for c in 0..<bands where st.surface.value(row: r, band: c) > best.1 { best = (c, st.surface.value(row: r, band: c)) }
            return best
        }
    }

    func testVertexBudgetDrawsAndNormals() {
        let st = state { r, c in 0.4 + 0.3 * sinf(Float(c) * 0.2 + Float(r) * 0.3) }
        let plain = scene(st, 320, 180, ridgelines: false)
        XCTAssertEqual(plain.vertices3D.count, 45_720, "60 × 127 quads × 6: the history's 59 and the live row's")
        XCTAssertEqual(SurfaceMode.vertexCount(rows: 60, ridgelines: false), 45_720)
        let plus = scene(st, 320, 180, ridgelines: true)
        XCTAssertEqual(plus.vertices3D.count, 45_720 + 61 * 127 * 6)
        XCTAssertEqual(plus.items.count, 2, "mesh draw + ridgeline draw")
        for v in plain.vertices3D {
            XCTAssertEqual(length(v.normal), 1, accuracy: 1e-4)
            XCTAssertGreaterThan(v.normal.y, 0, "a height field's face normals point up")
            XCTAssert(v.position.x >= -1 && v.position.x <= 1 && v.position.z >= -1 && v.position.z <= 1)
        }
        // Flat shading: the three vertices of a triangle share its face normal.
        for t in stride(from: 0, to: plain.vertices3D.count, by: 3) {
            XCTAssertEqual(plain.vertices3D[t].normal, plain.vertices3D[t + 2].normal)
        }
        // Ridgelines: normal (0,1,0), near edge 0.002 from the row's line, 0.008 thick, both
        // square to the line, colour ×1.3.
        let cam = SurfaceMode.camera(layout: Layout(width: 320, height: 180, labels: false)).camera
        let ridges = plus.vertices3D[45_720...]
        let first = Array(ridges.prefix(6))
        // Both draws go front (newest row) to back: ridge quad 0 is the front row, band 0;
        // mesh vertex 1 is (front, 0). A state built from rows alone shows its newest row in front.
        let y0 = st.surface.value(row: 59, band: 0) * cam.yScale
        let p0 = SIMD3<Float>(-1, y0, 1), p1 = SIMD3<Float>(-1 + 2 / 127, st.surface.value(row: 59, band: 1) * cam.yScale, 1)
        XCTAssertEqual(length(first[0].position - p0), 0.002, accuracy: 1e-5)
        XCTAssertEqual(length(first[5].position - p0), 0.010, accuracy: 1e-5)
        XCTAssertEqual(dot(first[5].position - p0, normalize(p1 - p0)), 0, accuracy: 1e-5, "square to the line")
        XCTAssertGreaterThan(first[5].position.y, y0)
        XCTAssertEqual(first[0].position.z, 1)
        XCTAssert(ridges.allSatisfy { $0.normal == SIMD3(0, 1, 0) })
        XCTAssertEqual(plain.vertices3D[1].position, SIMD3(-1, y0, 1))
        let meshColor = plain.vertices3D[1].color
        XCTAssertEqual(first[0].color.x, meshColor.x * 1.3, accuracy: 1e-5)
        XCTAssertEqual(first[0].color.z, meshColor.z * 1.3, accuracy: 1e-5)
    }

    func testNewestRowIsAtTheFrontAndColourFollowsFrequency() {
        // Only the newest row has a peak, at band 100.
        let st = state { r, c in r == 59 && c == 100 ? 1 : 0 }
        let sc = scene(st, 320, 180, ridgelines: false)
        let top = sc.vertices3D.max { $0.position.y < $1.position.y }!
        XCTAssertEqual(top.position.z, 1, "newest row at z = +1 (front)")
        XCTAssertEqual(top.position.x, -1 + 2 * 100 / 127, accuracy: 1e-5)
        XCTAssertEqual(top.position.y, 1.2, accuracy: 1e-5, "full preset height scale in landscape")
        // Low bands blue, high bands red (frequency gradient).
        let low = sc.vertices3D.first { $0.position.x == -1 }!.color
        let high = sc.vertices3D.first { $0.position.x == 1 }!.color
        XCTAssertGreaterThan(low.z, low.x)
        XCTAssertGreaterThan(high.x, high.z)
    }

    func testCameraPresetsBlendByAspect() {
        XCTAssertEqual(OrbitCamera.blendFactor(aspect: 0.4), 0)
        XCTAssertEqual(OrbitCamera.blendFactor(aspect: 0.65), 0.5, accuracy: 1e-6)
        XCTAssertEqual(OrbitCamera.blendFactor(aspect: 1.78), 1)
        XCTAssertEqual(OrbitCamera(aspect: 0.5).yScale, 0.6)
        XCTAssertEqual(OrbitCamera(aspect: 0.65).yScale, 0.9, accuracy: 1e-6)
        XCTAssertEqual(OrbitCamera(aspect: 16.0 / 9).yScale, 1.2)
        let c = OrbitCamera(aspect: 1)
        XCTAssertEqual(length(c.eye - c.target), c.distance, accuracy: 1e-4)
        XCTAssertEqual(c.eye.y, c.distance * sinf(c.elevation), accuracy: 1e-4)
    }

    func testMeshBoxFillsEveryFrameShapeWithoutClipping() {
        for (w, h) in [(1920, 1080), (1080, 1920), (1080, 1080), (3840, 1080)] {
            let layout = Layout(width: w, height: h, labels: true)
            let (cam, mvp) = SurfaceMode.camera(layout: layout)
            let rect = SurfaceMode.viewport(layout)
            var lo = SIMD2<Float>(.infinity, .infinity), hi = -lo
            for k in 0..<8 {
                let p = SIMD4<Float>(k & 1 == 0 ? -1 : 1, k & 2 == 0 ? 0 : cam.yScale + 0.01, k & 4 == 0 ? -1 : 1, 1)
                let c = mvp * p
                XCTAssertGreaterThan(c.z, 0, "in front of the near plane")
                let q = SIMD2(c.x / c.w, c.y / c.w)
                lo = pointwiseMin(lo, q); hi = pointwiseMax(hi, q)
            }
            let tol: Float = 1e-3
            XCTAssert(
                lo.x >= rect.x0 - tol && hi.x <= rect.x1 + tol && lo.y >= rect.y0 - tol && hi.y <= rect.y1 + tol,
                "\(w)x\(h): box inside the 3D viewport")
            let fill = max((hi.x - lo.x) / rect.width, (hi.y - lo.y) / rect.height)
            XCTAssertGreaterThan(fill, 0.93, "\(w)x\(h): the box fills the tighter dimension")
        }
    }

    func testSteady440ShowsOneRidgeAlongTimeAtItsBand() {
        let st = analyse(Signals.sines([(440, 0.5)], seconds: 4))
        let expected = LogBands.index(ofFrequency: 440)
        for (r, peak) in ridge(st).enumerated() {
            XCTAssertLessThanOrEqual(abs(peak.band - expected), 1, "row \(r): ridge at band \(peak.band), 440 Hz is band \(expected)")
            XCTAssertGreaterThan(peak.value, 0.5)
        }
        // In the mesh: the highest vertex of each row sits at 440 Hz's x.
        let sc = scene(st, 320, 180, ridgelines: false)
        let x440 = -1 + 2 * Float(LogBands.position(ofFrequency: 440))
        var rowsChecked = 0
        for r in 1..<60 {
            let z = -1 + (Float(r) - st.surfaceMotion.phase) * 2 / 59
            let row = sc.vertices3D.filter { abs($0.position.z - z) < 1e-5 }
            let top = row.max { $0.position.y < $1.position.y }!
            XCTAssertEqual(top.position.x, x440, accuracy: 1.5 * 2 / 127, "row \(r)")
            rowsChecked += 1
        }
        XCTAssertEqual(rowsChecked, 59)
    }

    func testSweepMovesTheRidgeAcross() {
        // 20 Hz → 20 kHz exponentially over 6 s; the history holds the last ~2.8 s.
        let sr = 44100.0, seconds = 6.0
        var phase = 0.0
        let samples: [Float] = (0..<Int(sr * seconds)).map { i in
            let f = 20 * pow(1000, Double(i) / (sr * seconds))
            phase += 2 * .pi * f / sr
            return 0.5 * Float(sin(phase))
        }
        let peaks = ridge(analyse(samples))
        // Oldest → newest the ridge moves to higher bands, by about 128 bands per 6 s.
        XCTAssertGreaterThan(peaks[59].band - peaks[0].band, 40)
        for r in 1..<60 { XCTAssertGreaterThanOrEqual(peaks[r].band, peaks[r - 1].band - 1, "row \(r) moves forward") }
        XCTAssertGreaterThanOrEqual(peaks[59].band, LogBands.index(ofFrequency: 15_000))
    }

    func testTallFrontRidgeHidesWhatIsBehindIt() throws {
        let wall = { (r: Int, c: Int) -> Float in r >= 57 ? 1 : 0 }
        let mountain = { (r: Int, c: Int) -> Float in r < 20 && (50..<70).contains(c) ? 0.15 : 0 }
        let (w, h) = (320, 180)
        let onlyMountain = try render(scene(state(mountain), w, h, ridgelines: false))
        let flat = try render(scene(state { _, _ in 0 }, w, h, ridgelines: false))
        let mountainPixels = GoldenFrame.compare(onlyMountain, flat, tolerance: 2).0
        XCTAssertGreaterThan(mountainPixels, 100, "without the wall the mountain is visible")
        let both = try render(scene(state { max(wall($0, $1), mountain($0, $1)) }, w, h, ridgelines: false))
        let wallOnly = try render(scene(state(wall), w, h, ridgelines: false))
        XCTAssertEqual(GoldenFrame.compare(both, wallOnly, tolerance: 2).0, 0, "the front wall hides the mountain")
    }

    func testGoldenFrames() throws {
        // Two ridges drifting apart over time plus a low floor.
        let st = state { r, c in
            let a = 0.8 * expf(-powf((Float(c) - 30 - Float(r) * 0.5) / 4, 2))
            let b = 0.55 * expf(-powf((Float(c) - 95 + Float(r) * 0.3) / 6, 2))
            return min(1, a + b + 0.08 + 0.05 * sinf(Float(c) * 0.9 + Float(r)))
        }
        for plus in [false, true] {
            for (name, w, h) in [("landscape", 160, 90), ("portrait", 90, 160), ("square", 120, 120)] {
                let p = try render(scene(st, w, h, ridgelines: plus, strip: true))
                GoldenFrame.assertMatches(p, name: (plus ? "surface+/" : "surface/") + name)
            }
        }
    }
}
