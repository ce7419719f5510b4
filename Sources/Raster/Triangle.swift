import CKernels
import SpecvizCore

/// Subpixel precision of snapped vertex positions: 1/256 pixel (SPEC §10).
public let subpixelBits = 8
@usableFromInline let subpixelScale: Float = 256

/// One edge function E(px, py) = row + stepX·px + stepY·py evaluated at pixel centres,
/// in fixed point (units of 1/256 px squared), with the top-left bias folded into `row`:
/// a pixel is inside when E ≥ 0 (bias 0 for top-left edges, −1 otherwise, so shared edges
/// are drawn once).
///
/// Rows are walked without division: along a row the edge bounds the span at
/// F(py) = ⌊(row + stepY·py) / s⌋ with s = |stepX| (lower bound −F when stepX > 0, upper
/// bound F when stepX < 0), and F steps from row to row by the exact quotient/remainder
/// `dq`, `dm` of stepY / s (a Bresenham walk, one division per edge when a walk starts).
@usableFromInline typealias Edge = spv_edge

extension spv_edge {
    /// Edge from a to b (fixed-point screen coordinates, y down), for a triangle whose
    /// vertices are ordered so that its interior is on the positive side.
    @inlinable
    init(_ ax: Int64, _ ay: Int64, _ bx: Int64, _ by: Int64) {
        let dx = bx - ax, dy = by - ay
        // E(P) = dx·(Py − ay) − dy·(Px − ax) with P = (256·px + 128, 256·py + 128).
        let topLeft = dy < 0 || (dy == 0 && dx > 0)
        let row = dx * (128 - ay) + dy * (ax - 128) + (topLeft ? 0 : -1)
        let stepX = -256 * dy, stepY = 256 * dx
        let s = abs(stepX)
        let dq = s > 0 ? floorDivPositive(stepY, s) : 0
        self.init(row: row, stepX: stepX, stepY: stepY, s: s, dq: dq, dm: stepY - dq * s)
    }
}

/// Where an edge's bound stands on the current row of a walk (see `Edge`).
@frozen @usableFromInline
struct EdgeWalk {
    /// F(py), or for a horizontal edge (s = 0) the edge value itself.
    @usableFromInline var q: Int64
    /// Remainder: row + stepY·py = q·s + m, 0 ≤ m < s.
    @usableFromInline var m: Int64

    @inline(__always) @inlinable
    init(_ e: Edge, py: Int) {
        let r = e.row + e.stepY * Int64(py)
        if e.s > 0 {
            q = floorDivPositive(r, e.s)
            m = r - q * e.s
        } else {
            q = r; m = 0
        }
    }

    /// Narrows [lo, hi] to this edge on the current row; false when the row is outside it.
    @inline(__always) @inlinable
    func clamp(_ e: Edge, _ lo: inout Int64, _ hi: inout Int64) -> Bool {
        if e.stepX > 0 {
            lo = max(lo, -q)
        } else if e.stepX < 0 {
            hi = min(hi, q)
        } else if q < 0 {
            return false
        }
        return true
    }

    /// Moves to the next row.
    @inline(__always) @inlinable
    mutating func step(_ e: Edge) {
        if e.s > 0 {
            q &+= e.dq
            m &+= e.dm
            if m >= e.s { m &-= e.s; q &+= 1 }
        } else {
            q &+= e.stepY
        }
    }
}

/// v·256 rounded half away from zero (as `rounded()`), without a libm call: v·256 is a
/// Float, exact in Double, and so is ±0.5 added to it; truncation then rounds.
@inline(__always) @inlinable func snap(_ v: Float) -> Int64 {
    let d = Double(v * subpixelScale)
    return Int64(d + (d >= 0 ? 0.5 : -0.5))
}

/// ⌊a / b⌋ for b > 0 and |a|, b < 2^53 (edge values always are): the quotient in Double is
/// within one of the truth, and one integer step on each side makes it exact. A 64-bit
/// integer division costs several times more.
@inline(__always) @inlinable func floorDivPositive(_ a: Int64, _ b: Int64) -> Int64 {
    var q = Int64(Double(a) / Double(b))
    var r = a &- q &* b
    if r < 0 { q &-= 1; r &+= b }
    if r >= b { q &+= 1 }
    return q
}

@inline(__always) @inlinable func floorDiv(_ a: Int64, _ b: Int64) -> Int64 {
    let q = a / b
    return (a % b != 0 && ((a < 0) != (b < 0))) ? q - 1 : q
}

@inline(__always) @inlinable func ceilDiv(_ a: Int64, _ b: Int64) -> Int64 { -floorDiv(-a, b) }

/// A triangle after the viewport transform, ready to rasterise: edge functions, its pixel
/// bounding box, and a Float plane per attribute.
///
/// Attributes: `color` (2D: colour; 3D: colour/w), `normal` (3D: xyz = normal/w, w = 1/w),
/// `depth` (3D: z/w), all linear in screen space. Each is a plane anchored at the bounding
/// box's top-left pixel (ox, oy) = (minX, minY):
/// a(px, py) = (base + ddy·(py − oy)) + ddx·(px − ox), in that order of operations, so a
/// pixel's value depends only on the triangle and the pixel (never on bands, threads or
/// where a block of lanes starts). The setup is done once, in Double, from the exact edge
/// functions; a constant attribute stays exactly constant.
@frozen @usableFromInline
struct Triangle {
    /// The C layout the span kernels read (`spv_triangle`); the only stored property, so a
    /// pointer to a Triangle is a pointer to it.
    @usableFromInline var raw: spv_triangle

    @inlinable var e0: Edge { raw.e.0 }
    @inlinable var e1: Edge { raw.e.1 }
    @inlinable var e2: Edge { raw.e.2 }
    @inlinable var minX: Int32 { raw.minX }
    @inlinable var maxX: Int32 { raw.maxX }
    @inlinable var minY: Int32 { raw.minY }
    @inlinable var maxY: Int32 { raw.maxY }
    @inlinable var lit: Bool { raw.lit != 0 }
    /// 2D only: the colour is the same at every pixel (`cBase`).
    @inlinable var flat: Bool { raw.flat != 0 }
    @inlinable var cBase: SIMD4<Float> { raw.cBase }
    @inlinable var cdx: SIMD4<Float> { raw.cdx }
    @inlinable var cdy: SIMD4<Float> { raw.cdy }
    @inlinable var nBase: SIMD4<Float> { raw.nBase }
    @inlinable var ndx: SIMD4<Float> { raw.ndx }
    @inlinable var ndy: SIMD4<Float> { raw.ndy }
    @inlinable var zBase: Float { raw.zBase }
    @inlinable var zdx: Float { raw.zdx }
    @inlinable var zdy: Float { raw.zdy }

    @inlinable init(raw: spv_triangle) { self.raw = raw }

    /// Sets up a triangle from three screen-space vertices (x, y in pixels, y down; z, invW)
    /// straight into `slot` (uninitialised memory; no copy of the ~270-byte record).
    /// Returns false, leaving `slot` uninitialised, when it covers no pixel centre of the
    /// `width`×`height` frame.
    @inlinable
    static func setUp(
        _ p0: SIMD4<Float>, _ p1: SIMD4<Float>, _ p2: SIMD4<Float>,
        colors: (SIMD4<Float>, SIMD4<Float>, SIMD4<Float>),
        normals: (SIMD4<Float>, SIMD4<Float>, SIMD4<Float>),
        lit: Bool, width: Int, height: Int, into slot: UnsafeMutablePointer<Triangle>
    ) -> Bool {
        let x0 = snap(p0.x), y0 = snap(p0.y)
        var x1 = snap(p1.x), y1 = snap(p1.y)
        var x2 = snap(p2.x), y2 = snap(p2.y)
        var area = (x1 - x0) * (y2 - y0) - (y1 - y0) * (x2 - x0)
        if area == 0 { return false }
        var c = colors, n = normals
        var zs = SIMD3(p0.z, p1.z, p2.z)
        if area < 0 {
            // Draw both windings: swap v1 and v2 so the interior is positive.
            swap(&x1, &x2); swap(&y1, &y2)
            swap(&c.1, &c.2); swap(&n.1, &n.2)
            zs = SIMD3(zs.x, zs.z, zs.y)
            area = -area
        }
        // Pixel bounding box of centres that can be inside.
        let bx0 = ceilDiv(min(x0, x1, x2) - 128, 256), bx1 = floorDiv(max(x0, x1, x2) - 128, 256)
        let by0 = ceilDiv(min(y0, y1, y2) - 128, 256), by1 = floorDiv(max(y0, y1, y2) - 128, 256)
        let cx0 = max(bx0, 0), cx1 = min(bx1, Int64(width - 1))
        let cy0 = max(by0, 0), cy1 = min(by1, Int64(height - 1))
        if cx0 > cx1 || cy0 > cy1 { return false }
        let e0 = Edge(x1, y1, x2, y2) // opposite v0 → weight of v0
        let e1 = Edge(x2, y2, x0, y0) // opposite v1
        let e2 = Edge(x0, y0, x1, y1) // opposite v2
        // Barycentric weights λ1, λ2 at the anchor pixel and their steps, exact in Double
        // (the unbiased edge values are integers below 2^53).
        let invArea = 1 / Double(area)
        let v1 = Edge.unbiased(x2, y2, x0, y0, px: cx0, py: cy0)
        let v2 = Edge.unbiased(x0, y0, x1, y1, px: cx0, py: cy0)
        let l1 = Float(Double(v1) * invArea), l2 = Float(Double(v2) * invArea)
        let l1x = Float(Double(e1.stepX) * invArea), l2x = Float(Double(e2.stepX) * invArea)
        let l1y = Float(Double(e1.stepY) * invArea), l2y = Float(Double(e2.stepY) * invArea)
        // Attributes as a0 + (a1 − a0)·λ1 + (a2 − a0)·λ2: a constant attribute stays exact.
        let c1 = c.1 - c.0, c2 = c.2 - c.0
        let n1 = n.1 - n.0, n2 = n.2 - n.0
        let z1 = zs.y - zs.x, z2 = zs.z - zs.x
        slot.initialize(
            to: Triangle(
                raw: spv_triangle(
                    cBase: c.0 + c1 * l1 + c2 * l2, cdx: c1 * l1x + c2 * l2x, cdy: c1 * l1y + c2 * l2y,
                    nBase: n.0 + n1 * l1 + n2 * l2, ndx: n1 * l1x + n2 * l2x, ndy: n1 * l1y + n2 * l2y,
                    e: (e0, e1, e2),
                    zBase: zs.x + z1 * l1 + z2 * l2, zdx: z1 * l1x + z2 * l2x, zdy: z1 * l1y + z2 * l2y,
                    minX: Int32(cx0), maxX: Int32(cx1), minY: Int32(cy0), maxY: Int32(cy1),
                    lit: lit ? 1 : 0, flat: !lit && c1 == .zero && c2 == .zero ? 1 : 0)))
        return true
    }
}

extension Edge {
    /// E(px, py) of the edge from a to b without the fill-rule bias.
    @inlinable
    static func unbiased(_ ax: Int64, _ ay: Int64, _ bx: Int64, _ by: Int64, px: Int64, py: Int64) -> Int64 {
        let dx = bx - ax, dy = by - ay
        return dx * (256 * py + 128 - ay) - dy * (256 * px + 128 - ax)
    }
}
