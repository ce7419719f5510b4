import CKernels
import SpecvizCore

/// Subpixel precision of snapped vertex positions: 1/256 pixel (SPEC §10).
public let subpixelBits = 8

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

/// A triangle after the viewport transform, ready to rasterise: edge functions, its pixel
/// bounding box, and a Float plane per attribute.
///
/// Attributes: `color` (2D: colour; 3D: colour/w), `normal` (3D: xyz = normal/w, w = 1/w),
/// `depth` (3D: z/w), all linear in screen space. Each is a plane anchored at the bounding
/// box's top-left pixel (ox, oy) = (minX, minY):
/// a(px, py) = (base + ddy·(py − oy)) + ddx·(px − ox), in that order of operations, so a
/// pixel's value depends only on the triangle and the pixel (never on bands, threads or
/// where a block of lanes starts). The setup (`spv_setup_triangle` in CKernels) is done once,
/// in Double, from the exact edge functions; a constant attribute stays exactly constant.
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
}
