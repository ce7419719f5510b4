import Raster
import ShadersCPU
import SpecvizCore
import XCTest

/// Frame reuse follows the layers' damage (`Scene.layers`), not a comparison of triangles:
/// a plot that says it is unchanged while only an overlay changes costs only the overlay's
/// rows (the rows reported, the bands drawn into a held picture), and the picture is the
/// scene drawn whole; a layer that says it changed is redrawn and reported even when its
/// triangles are the same.
final class LayerDamageTests: XCTestCase {
    // 300 rows at 64 px: three bands of 128 rows.
    let w = 64, h = 300

    /// A plot over the whole frame (a gradient and a triangle), then an overlay: a small
    /// quad in rows about 12–26, `x` across.
    func scene(overlayAt x: Float, plot: LayerDamage, overlay: LayerDamage) -> Scene {
        var s = Scene(width: w, height: h, clearColor: SIMD4(0.1, 0.1, 0.1, 1))
        s.begin2D()
        s.quad(x0: -0.9, y0: -0.95, x1: 0.9, y1: 0.95, bottom: SIMD4(0.9, 0.2, 0.1, 1), top: SIMD4(0.1, 0.3, 0.9, 1))
        s.end2D()
        s.begin2D()
        s.quad(SIMD2(-0.8, -0.9), SIMD2(0.7, -0.6), SIMD2(0.2, 0.9), SIMD2(-0.5, 0.3), .one, SIMD4(0, 1, 0, 0.5), .one, SIMD4(1, 1, 0, 0.7))
        s.end2D()
        s.markLayer(from: 0, damage: plot)
        s.begin2D()
        s.quad(x0: x, y0: 0.83, x1: x + 0.3, y1: 0.92, bottom: SIMD4(1, 1, 1, 0.8), top: SIMD4(1, 1, 0.5, 0.8))
        s.end2D()
        s.markLayer(from: 2, damage: overlay)
        return s
    }

    func whole(_ s: Scene) throws -> [UInt32] {
        var p = PixelBuffer(width: w, height: h)
        try Rasterizer(threads: 1).render(s, into: &p, shader2D: FlatShader(), shader3D: LitShader())
        return p.pixels
    }

    /// The rows that differ between two pictures.
    func differingRows(_ a: [UInt32], _ b: [UInt32]) -> [Int] {
        (0..<h).filter { y in a[y * w..<(y + 1) * w] != b[y * w..<(y + 1) * w] }
    }

    func testOnlyTheChangedLayersRowsAreRedrawnAndReported() throws {
        let r = Rasterizer(threads: 2)
        r.reusesUnchangedPrefix = true
        var picture = PixelBuffer(width: w, height: h)
        let first = scene(overlayAt: -0.6, plot: .changed, overlay: .changed)
        try r.render(first, into: &picture, shader2D: FlatShader(), shader3D: LitShader())
        XCTAssertTrue(r.lastChangedRows.isAll, "the first frame is all new")
        // The plot stays, the overlay moves: the picture is kept after the plot.
        try r.render(scene(overlayAt: -0.4, plot: .unchanged, overlay: .changed), into: &picture, shader2D: FlatShader(), shader3D: LitShader())
        XCTAssertEqual(r.lastKeptItems, 2, "kept after the plot, the layer that stayed")
        let before = picture.pixels

        // The overlay moves; the plot says it is the same. Marks in the two lower bands of
        // the held picture must be left alone (those bands are not drawn again).
        let second = scene(overlayAt: 0.2, plot: .unchanged, overlay: .changed)
        let marks = [150 * w + 5, (h - 1) * w + 7]
        for m in marks { picture.pixels[m] = 0xFF12_3456 }
        try r.render(second, into: &picture, holding: r.lastFrameStamp, shader2D: FlatShader(), shader3D: LitShader())
        XCTAssertEqual(r.lastReusedItems, 2, "the plot's two draws come from the kept picture")
        var expected = try whole(second)
        for m in marks {
            XCTAssertEqual(picture.pixels[m], 0xFF12_3456, "a band without a changed row was drawn again")
            expected[m] = 0xFF12_3456
        }
        XCTAssertEqual(differingRows(picture.pixels, expected), [], "the picture is the scene drawn whole")
        let changed = r.lastChangedRows
        XCTAssertFalse(changed.isAll)
        let moved = differingRows(before, try whole(second))
        XCTAssertFalse(moved.isEmpty, "the overlay moved")
        for y in moved { XCTAssertTrue(changed.intersects(y..<(y + 1)), "row \(y) changed but was not reported") }
        XCTAssertLessThanOrEqual(changed.rowCount(height: h), 20, "only the overlay's rows are reported")
        XCTAssertFalse(changed.intersects(40..<h), "the plot's rows are not reported")

        // Nothing moves and every layer says so: no row changed, every band left alone.
        let third = scene(overlayAt: 0.2, plot: .unchanged, overlay: .unchanged)
        picture.pixels[10 * w + 3] = 0xFF65_4321
        try r.render(third, into: &picture, holding: r.lastFrameStamp, shader2D: FlatShader(), shader3D: LitShader())
        XCTAssertTrue(r.lastChangedRows.isEmpty, "no layer changed")
        XCTAssertEqual(picture.pixels[10 * w + 3], 0xFF65_4321, "no band is drawn")

        // The same triangles, but the plot says it changed: its rows are reported and drawn.
        let fourth = scene(overlayAt: 0.2, plot: .changed, overlay: .unchanged)
        try r.render(fourth, into: &picture, holding: r.lastFrameStamp, shader2D: FlatShader(), shader3D: LitShader())
        XCTAssertEqual(r.lastReusedItems, 0, "a changed plot is drawn")
        XCTAssertGreaterThanOrEqual(r.lastChangedRows.rowCount(height: h), h * 9 / 10, "the plot's rows are reported")
        XCTAssertEqual(differingRows(picture.pixels, try whole(fourth)), [], "every band drawn again")
    }

    /// A plot that changes on every frame keeps no picture: nothing is copied for a reuse
    /// that never comes, and the next frame draws it all.
    func testALayerThatChangesOnEveryFrameKeepsNoPicture() throws {
        let r = Rasterizer(threads: 1)
        r.reusesUnchangedPrefix = true
        var picture = PixelBuffer(width: w, height: h)
        for k in 0..<3 {
            let s = scene(overlayAt: -0.6 + Float(k) * 0.1, plot: .everyFrame, overlay: .changed)
            try r.render(s, into: &picture, shader2D: FlatShader(), shader3D: LitShader())
            XCTAssertEqual(r.lastReusedItems, 0)
            XCTAssertEqual(differingRows(picture.pixels, try whole(s)), [], "frame \(k)")
        }
        XCTAssertEqual(r.lastKeptItems, 0, "no picture kept after a plot that changes on every frame")
        let s = scene(overlayAt: 0, plot: .unchanged, overlay: .changed)
        try r.render(s, into: &picture, shader2D: FlatShader(), shader3D: LitShader())
        XCTAssertEqual(r.lastKeptItems, 2, "a plot that stayed keeps the picture after it")
    }
}
