import Geometry
import MediaIO
import SpecvizCore

/// Where a scene's parts land in pixels, for the layout tests: the inked box of a text run as
/// the rasteriser places it, and the box of a range of draws' vertices.
public enum SceneBoxes {
    /// Inked pixel box (y down, x1/y1 exclusive) of a text run, placed as the rasteriser
    /// places it; nil when nothing of it inks.
    public static func box(_ run: TextRun, font: FreeTypeFont) -> Layout.Rect? {
        let size = max(1, Int(run.size.rounded()))
        var width: Float = 0
        for s in run.text.unicodeScalars { width += font.glyph(s, pixelSize: size)?.advance ?? 0 }
        var pen = run.origin.x - (run.anchor == .center ? width / 2 : run.anchor == .right ? width : 0)
        let baseline = Int(run.origin.y.rounded())
        var r: Layout.Rect? = nil
        for s in run.text.unicodeScalars {
            guard let g = font.glyph(s, pixelSize: size) else { continue }
            if g.width > 0 && g.height > 0 {
                let x0 = Float(Int(pen.rounded()) + g.bearing.x), y0 = Float(baseline + g.bearing.y)
                let b = Layout.Rect(x0: x0, y0: y0, x1: x0 + Float(g.width), y1: y0 + Float(g.height))
                r = r.map { Layout.Rect(x0: min($0.x0, b.x0), y0: min($0.y0, b.y0), x1: max($0.x1, b.x1), y1: max($0.y1, b.y1)) } ?? b
            }
            pen += g.advance
        }
        return r
    }

    /// Pixel box (y down) of the vertices of the draws among `items` (all of them when nil):
    /// 2D in clip space, 3D through each draw's MVP.
    public static func extent(_ scene: Scene, items: Range<Int>? = nil, layout: Layout) -> Layout.Rect {
        var lo = SIMD2<Float>(.infinity, .infinity), hi = -lo
        for item in scene.items[items ?? scene.items.indices] {
            guard case .draw(let d) = item else { continue }
            for i in d.first..<(d.first + d.count) {
                let q: SIMD2<Float>
                if d.pipeline == .flat2D {
                    q = scene.vertices2D[i].position
                } else {
                    let p = scene.vertices3D[i].position
                    let c = d.mvp * SIMD4(p.x, p.y, p.z, 1)
                    q = SIMD2(c.x / c.w, c.y / c.w)
                }
                let px = layout.pixel(q)
                lo = pointwiseMin(lo, px)
                hi = pointwiseMax(hi, px)
            }
        }
        return Layout.Rect(x0: lo.x, y0: lo.y, x1: hi.x, y1: hi.y)
    }
}
