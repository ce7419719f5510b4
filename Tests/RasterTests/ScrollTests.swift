import Raster
import ShadersCPU
import SpecvizCore
import XCTest

/// A frame whose draws are the previous frame's moved down by whole pixel rows, after a new
/// one, starts from the kept picture moved (`Rasterizer+Scroll.swift`), and draws the same
/// pixels as drawing it whole. When the new draw shares rows with the moved ones, or the
/// frame has a background picture, it is drawn as usual.
final class ScrollTests: XCTestCase {
    let w = 64, h = 48

    /// Rows `first`… of a history, newest first: row k of the picture (pixel row top + k)
    /// shows hop `newest − k`, one draw each, then a strip near the bottom. The history is a
    /// layer with `damage` (a new hop: it scrolled; the same hop again: unchanged), the
    /// strip one that changes on every frame.
    func scene(newest: Int, rows: Int, top: Int = 5, newRowHeight: Int = 1, damage: LayerDamage = .scrolled) -> Scene {
        var s = Scene(width: w, height: h)
        let pixel = 2 / Float(h)
        for k in 0..<rows {
            let hop = newest - k
            let c = SIMD4<Float>(Float(hop % 7) / 6, Float(hop % 5) / 4, Float(hop % 3) / 2, 1)
            let y1 = 1 - Float(top + k) * pixel
            let y0 = 1 - Float(top + k + (k == 0 ? newRowHeight : 1)) * pixel
            s.begin2D()
            s.quad(x0: -0.9, y0: y0, x1: 0, y1: y1, bottom: c, top: c)
            s.quad(x0: 0, y0: y0, x1: 0.9, y1: y1, bottom: c * 0.5, top: SIMD4(1, 1, 1, 1))
            s.end2D()
        }
        s.markLayer(from: 0, damage: damage)
        s.begin2D()
        s.quad(x0: -1, y0: -0.8, x1: Float(newest % 4) * 0.2 - 0.5, y1: -0.7, bottom: SIMD4(0.2, 0.8, 1, 1), top: SIMD4(0.2, 0.8, 1, 1))
        s.end2D()
        s.markLayer(from: rows, damage: .everyFrame)
        return s
    }

    func differing(_ a: [UInt32], _ b: [UInt32]) -> Int { zip(a, b).filter { $0 != $1 }.count + abs(a.count - b.count) }

    func whole(_ s: Scene) throws -> [UInt32] {
        var p = PixelBuffer(width: w, height: h)
        try Rasterizer(threads: 1).render(s, into: &p, shader2D: FlatShader(), shader3D: LitShader())
        return p.pixels
    }

    func testHistoryRowsMoveInsteadOfBeingDrawnAgain() throws {
        let r = Rasterizer(threads: 2)
        r.reusesUnchangedPrefix = true
        var p = PixelBuffer(width: w, height: h)
        // Two frames alike (the second starts from the first's kept picture), then a hop per frame, with the
        // history filling (10, 11, 12 rows) and then full (12 rows, the oldest dropped).
        let frames: [(newest: Int, rows: Int, moves: Bool)] = [
            (10, 10, false), (10, 10, false), (11, 11, true), (12, 12, true), (13, 12, true), (14, 12, true),
        ]
        for (i, f) in frames.enumerated() {
            let s = scene(newest: f.newest, rows: f.rows, damage: i == 1 ? .unchanged : .scrolled)
            try r.render(s, into: &p, shader2D: FlatShader(), shader3D: LitShader())
            XCTAssertEqual(differing(p.pixels, try whole(s)), 0, "frame \(i): pixels that differ from the scene drawn whole")
            XCTAssertEqual(r.lastMovedItems > 0, f.moves, "frame \(i): moved \(r.lastMovedItems) items")
        }
        XCTAssertGreaterThan(Set(p.pixels).count, 10, "the frame shows something")
    }

    func testANewRowOverlappingTheMovedOnesIsDrawnAsUsual() throws {
        let r = Rasterizer(threads: 1)
        r.reusesUnchangedPrefix = true
        var p = PixelBuffer(width: w, height: h)
        let frames = [
            scene(newest: 10, rows: 10), scene(newest: 10, rows: 10, damage: .unchanged), scene(newest: 11, rows: 11, newRowHeight: 2),
        ]
        for s in frames {
            try r.render(s, into: &p, shader2D: FlatShader(), shader3D: LitShader())
            XCTAssertEqual(differing(p.pixels, try whole(s)), 0)
        }
        XCTAssertEqual(r.lastMovedItems, 0, "the two-row-tall new row overlaps the moved rows")
    }

    func testNoMoveOverABackgroundPicture() throws {
        let r = Rasterizer(threads: 1)
        r.reusesUnchangedPrefix = true
        var back = PixelBuffer(width: w, height: h)
        for i in back.pixels.indices { back.pixels[i] = 0xFF00_0000 | UInt32(i % 200) }
        r.background = back
        var p = PixelBuffer(width: w, height: h)
        for s in [scene(newest: 10, rows: 10), scene(newest: 10, rows: 10, damage: .unchanged), scene(newest: 11, rows: 11)] {
            try r.render(s, into: &p, shader2D: FlatShader(), shader3D: LitShader())
        }
        XCTAssertEqual(r.lastMovedItems, 0)
    }
}
