import Analysis
import Geometry
import SpecvizCore
import SpecvizTestSupport
import XCTest

/// Vertical and square frames are filled (issue 17): the extent of the geometry at full
/// level, measured from its vertices (2D in clip space, 3D projected through each draw's
/// MVP), as a fraction of the frame. Landscape stays as it was (its golden frames).
final class FrameFillTests: XCTestCase {
    /// Pixel bounding box (x0, y0, x1, y1; y down) of every vertex of `scene`.
    static func extent(_ scene: Scene, layout: Layout) -> SIMD4<Float> {
        let r = SceneBoxes.extent(scene, layout: layout)
        return SIMD4(r.x0, r.y0, r.x1, r.y1)
    }

    static func fullState() -> VisualState {
        var s = VisualState()
        for i in 0..<LogBands.count { s.display[i] = 1; s.peaks[i] = 1 }
        // The mesh has no floor of its own: alternate bands at 0 and 1 span the whole box.
        let comb = (0..<LogBands.count).map { Float($0 % 2) }
        for _ in 0..<s.surface.rows { s.surface.push(comb) }
        return s
    }

    func testCircularRingFillsPortraitAndSquare() {
        let st = FrameFillTests.fullState()
        // (w, h, least diameter / width): the ring is round, so the width bounds it in portrait.
        for (w, h, least) in [(1080, 1920, 0.78 as Float), (1080, 1080, 0.57), (720, 1280, 0.78)] {
            let layout = Layout(width: w, height: h, labels: true)
            var sc = Scene(width: w, height: h)
            CircularMode().build(st, layout: layout, into: &sc)
            let e = FrameFillTests.extent(sc, layout: layout)
            let dw = (e.z - e.x) / Float(w), dh = (e.w - e.y) / Float(h)
            print("circular \(w)x\(h): diameter \(dw) of the width, \(dh) of the height")
            XCTAssertGreaterThan(dw, least, "\(w)x\(h)")
            XCTAssertGreaterThan(e.x, 0, "\(w)x\(h): inside the frame"); XCTAssertLessThan(e.z, Float(w))
            XCTAssertGreaterThan(e.y, 0); XCTAssertLessThan(e.w, Float(h))
        }
    }

    func testSurfacePlusFillsPortraitAndSquare() {
        let st = FrameFillTests.fullState()
        for (w, h) in [(1080, 1920), (1080, 1080), (720, 1280)] {
            let layout = Layout(width: w, height: h, labels: true)
            var sc = Scene(width: w, height: h)
            SurfaceMode(ridgelines: true).build(st, layout: layout, into: &sc)
            let e = FrameFillTests.extent(sc, layout: layout)
            let area = layout.spectrum
            let areaH = area.height * 0.5 * Float(h)
            let fw = (e.z - e.x) / Float(w), fh = (e.w - e.y) / areaH
            print("surface+ \(w)x\(h): \(fw) of the width, \(fh) of the spectrum area's height")
            XCTAssertGreaterThan(fw, 0.85, "\(w)x\(h): width")
            XCTAssertGreaterThan(fh, 0.9, "\(w)x\(h): height of the spectrum area")
            let top = layout.pixel(SIMD2(0, area.y1)).y, bottom = layout.pixel(SIMD2(0, area.y0)).y
            XCTAssertGreaterThanOrEqual(e.y, top - 1, "\(w)x\(h): below the header")
            XCTAssertLessThanOrEqual(e.w, bottom + 1, "\(w)x\(h): above the labels and the strip")
        }
    }
}
