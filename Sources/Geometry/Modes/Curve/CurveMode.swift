import Analysis
import SpecvizCore

/// Curve (seed 000 Part 2, "Curve Mode"): a filled area under the spectrum with a bright
/// outline along its top edge and small white squares at the peaks.
///
/// - Fill: for each neighbouring pair of band centres (i, i+1) the area from the baseline to
///   the curve; baseline colour at 15% brightness and 40% alpha, curve colour full. Drawn
///   as a rectangle up to the lower height plus a triangle (9 vertices, not the seed's 6),
///   so the vertical gradient has no diagonal seams.
/// - Outline: each segment extruded by ±lineWidth/2 along its normal (computed in pixels,
///   so the line is equally thick at every slope and aspect), colour at 120% brightness
///   (colours above 1 are allowed and clamped when the pixel is written, SPEC §10). Each
///   segment is lengthened by half the line width at both ends so joints have no gaps.
/// - Peaks: a white square (about 5 px at 1080p) centred at each band's peak height.
///
/// 127×9 + 127×6 + 128×6 = 2,673 vertices (seed 000: 2,292 with 6-vertex fill quads).
public struct CurveMode: ModeBuilder {
    public static let fillBrightness: Float = 0.15
    public static let fillAlpha: Float = 0.40
    public static let outlineBrightness: Float = 1.2

    public var palette: Palette

    public init(palette: Palette = .spectrum) { self.palette = palette }

    /// Clip-space point of band i's centre on the curve at value v (0…1).
    @inlinable
    static func point(_ i: Int, _ v: Float, _ r: Layout.Rect, bands n: Int = LogBands.count) -> SIMD2<Float> {
        SIMD2(r.x0 + (Float(i) + 0.5) / Float(n) * r.width, r.y0 + min(max(v, 0), 1) * r.height)
    }

    public func build(_ state: VisualState, layout: Layout, into scene: inout Scene) {
        let r = layout.spectrum
        let n = state.display.count
        let sx = Float(layout.width) * 0.5, sy = Float(layout.height) * 0.5
        let halfLine = max(1, 1.5 * layout.scale)
        let square = min(max(2, 5 * layout.scale), r.width * sx / Float(n) * 0.9) * 0.5
        let white = SIMD4<Float>(1, 1, 1, 0.9)
        scene.begin2D()
        state.display.withUnsafeBufferPointer { d in
            // Filled area: a rectangle up to the lower of the two heights, then the triangle
            // above it, so the base-to-curve gradient runs straight up in every column
            // (one quad split along its diagonal shows seams where neighbours differ).
            for i in 0..<(n - 1) {
                let a = CurveMode.point(i, d[i], r, bands: n), b = CurveMode.point(i + 1, d[i + 1], r, bands: n)
                let ca = palette.color((Float(i) + 0.5) / Float(n)), cb = palette.color((Float(i) + 1.5) / Float(n))
                let ba = fillColor(ca), bb = fillColor(cb)
                let low = min(a.y, b.y)
                let ma = mix(ba, ca, a.y, low, r.y0), mb = mix(bb, cb, b.y, low, r.y0)
                scene.quad(SIMD2(a.x, r.y0), SIMD2(b.x, r.y0), SIMD2(b.x, low), SIMD2(a.x, low), ba, bb, mb, ma)
                if a.y > b.y {
                    scene.vertices2D.append(Vertex2D(SIMD2(a.x, low), ma))
                    scene.vertices2D.append(Vertex2D(SIMD2(b.x, low), mb))
                    scene.vertices2D.append(Vertex2D(a, ca))
                } else {
                    scene.vertices2D.append(Vertex2D(SIMD2(a.x, low), ma))
                    scene.vertices2D.append(Vertex2D(SIMD2(b.x, low), mb))
                    scene.vertices2D.append(Vertex2D(b, cb))
                }
            }
            // Outline along the top edge.
            for i in 0..<(n - 1) {
                let a = CurveMode.point(i, d[i], r, bands: n), b = CurveMode.point(i + 1, d[i + 1], r, bands: n)
                let dp = SIMD2((b.x - a.x) * sx, (b.y - a.y) * sy)
                let len = (dp * dp).sum().squareRoot()
                guard len > 0 else { continue }
                let u = dp / len
                let along = SIMD2(u.x * halfLine / sx, u.y * halfLine / sy)
                let normal = SIMD2(-u.y * halfLine / sx, u.x * halfLine / sy)
                let p = a - along, q = b + along
                let ca = outlineColor(palette.color((Float(i) + 0.5) / Float(n)))
                let cb = outlineColor(palette.color((Float(i) + 1.5) / Float(n)))
                scene.quad(p - normal, q - normal, q + normal, p + normal, ca, cb, cb, ca)
            }
        }
        // Peak squares.
        state.peaks.withUnsafeBufferPointer { p in
            for i in 0..<n where p[i] > 0.002 {
                let c = CurveMode.point(i, p[i], r, bands: n)
                let hx = square / sx, hy = square / sy
                scene.quad(x0: c.x - hx, y0: max(c.y - hy, r.y0), x1: c.x + hx, y1: min(c.y + hy, r.y1), bottom: white, top: white)
            }
        }
        scene.end2D()
    }

    /// Colour at height `y` of a column whose gradient runs from `base` at `y0` to `top` at `yTop`.
    @inlinable
    func mix(_ base: SIMD4<Float>, _ top: SIMD4<Float>, _ yTop: Float, _ y: Float, _ y0: Float) -> SIMD4<Float> {
        yTop > y0 ? base + (top - base) * ((y - y0) / (yTop - y0)) : top
    }

    @inlinable
    func fillColor(_ c: SIMD4<Float>) -> SIMD4<Float> {
        SIMD4(c.x * CurveMode.fillBrightness, c.y * CurveMode.fillBrightness, c.z * CurveMode.fillBrightness, CurveMode.fillAlpha)
    }

    @inlinable
    func outlineColor(_ c: SIMD4<Float>) -> SIMD4<Float> {
        SIMD4(c.x * CurveMode.outlineBrightness, c.y * CurveMode.outlineBrightness, c.z * CurveMode.outlineBrightness, c.w)
    }
}
