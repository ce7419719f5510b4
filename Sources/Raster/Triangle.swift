import SpecvizCore

/// Subpixel precision of snapped vertex positions: 1/256 pixel (SPEC §10).
public let subpixelBits = 8
@usableFromInline let subpixelScale: Float = 256

/// One edge function E(px, py) = row + stepX·px + stepY·py evaluated at pixel centres,
/// in fixed point (units of 1/256 px squared). Inside when E + bias ≥ 0, where bias is 0 for
/// top-left edges and −1 otherwise (the top-left fill rule: shared edges drawn once).
@frozen @usableFromInline
struct Edge {
    @usableFromInline var row: Int64
    @usableFromInline var stepX: Int64
    @usableFromInline var stepY: Int64
    @usableFromInline var bias: Int64

    /// Edge from a to b (fixed-point screen coordinates, y down), for a triangle whose
    /// vertices are ordered so that its interior is on the positive side.
    @inlinable
    init(_ ax: Int64, _ ay: Int64, _ bx: Int64, _ by: Int64) {
        let dx = bx - ax, dy = by - ay
        // E(P) = dx·(Py − ay) − dy·(Px − ax) with P = (256·px + 128, 256·py + 128).
        row = dx * (128 - ay) + dy * (ax - 128)
        stepX = -256 * dy
        stepY = 256 * dx
        let topLeft = dy < 0 || (dy == 0 && dx > 0)
        bias = topLeft ? 0 : -1
    }

    @inlinable func value(_ px: Int, _ py: Int) -> Int64 {
        row + stepX * Int64(px) + stepY * Int64(py)
    }
}

@inlinable func floorDiv(_ a: Int64, _ b: Int64) -> Int64 {
    let q = a / b
    return (a % b != 0 && ((a < 0) != (b < 0))) ? q - 1 : q
}

@inlinable func ceilDiv(_ a: Int64, _ b: Int64) -> Int64 { -floorDiv(-a, b) }

/// A triangle after the viewport transform, ready to rasterise: edge functions,
/// its pixel bounding box, and the plane of every attribute.
/// Attributes: `color` (2D: colour; 3D: colour/w), `normal` (3D: xyz = normal/w, w = 1/w),
/// `depth` (3D: z/w, linear in screen space).
@frozen @usableFromInline
struct Triangle {
    @usableFromInline var e0: Edge, e1: Edge, e2: Edge
    @usableFromInline var minX: Int32, maxX: Int32, minY: Int32, maxY: Int32
    @usableFromInline var invArea: Double
    @usableFromInline var lit: Bool
    /// Attribute at vertex 0, and its differences to vertices 1 and 2.
    @usableFromInline var c0: SIMD4<Float>, c1: SIMD4<Float>, c2: SIMD4<Float>
    @usableFromInline var n0: SIMD4<Float>, n1: SIMD4<Float>, n2: SIMD4<Float>
    /// z0, z1 − z0, z2 − z0.
    @usableFromInline var z: SIMD3<Float>
    /// d(attribute)/d(px).
    @usableFromInline var dcdx: SIMD4<Float>, dndx: SIMD4<Float>, dzdx: Float

    /// Sets up a triangle from three screen-space vertices (x, y in pixels, y down; z, invW).
    /// Returns nil when it covers no pixel centre of the `width`×`height` frame.
    @inlinable
    init?(_ p0: SIMD4<Float>, _ p1: SIMD4<Float>, _ p2: SIMD4<Float>,
          colors: (SIMD4<Float>, SIMD4<Float>, SIMD4<Float>),
          normals: (SIMD4<Float>, SIMD4<Float>, SIMD4<Float>),
          lit: Bool, width: Int, height: Int) {
        let x0 = Int64((p0.x * subpixelScale).rounded()), y0 = Int64((p0.y * subpixelScale).rounded())
        var x1 = Int64((p1.x * subpixelScale).rounded()), y1 = Int64((p1.y * subpixelScale).rounded())
        var x2 = Int64((p2.x * subpixelScale).rounded()), y2 = Int64((p2.y * subpixelScale).rounded())
        var area = (x1 - x0) * (y2 - y0) - (y1 - y0) * (x2 - x0)
        if area == 0 { return nil }
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
        if cx0 > cx1 || cy0 > cy1 { return nil }
        minX = Int32(cx0); maxX = Int32(cx1); minY = Int32(cy0); maxY = Int32(cy1)
        e0 = Edge(x1, y1, x2, y2)   // opposite v0 → weight of v0
        e1 = Edge(x2, y2, x0, y0)   // opposite v1
        e2 = Edge(x0, y0, x1, y1)   // opposite v2
        invArea = 1 / Double(area)
        self.lit = lit
        // Attributes are kept as a0 + (a1 − a0)·λ1 + (a2 − a0)·λ2, so a constant attribute stays
        // exactly constant (no drift from λ0 + λ1 + λ2 ≠ 1 in floating point).
        c0 = c.0; c1 = c.1 - c.0; c2 = c.2 - c.0
        n0 = n.0; n1 = n.1 - n.0; n2 = n.2 - n.0
        z = SIMD3(zs.x, zs.y - zs.x, zs.z - zs.x)
        let w1 = Float(Double(e1.stepX) * invArea), w2 = Float(Double(e2.stepX) * invArea)
        dcdx = c1 * w1 + c2 * w2
        dndx = n1 * w1 + n2 * w2
        dzdx = z.y * w1 + z.z * w2
    }

    /// The covered pixel range of row `py` (inclusive), or nil.
    @inlinable
    func span(row py: Int) -> (Int, Int)? {
        var lo = Int64(minX), hi = Int64(maxX)
        if !Triangle.clampSpan(e0, py, &lo, &hi) || !Triangle.clampSpan(e1, py, &lo, &hi)
            || !Triangle.clampSpan(e2, py, &lo, &hi) { return nil }
        return lo <= hi ? (Int(lo), Int(hi)) : nil
    }

    /// Narrows [lo, hi] to the pixels of row `py` inside edge `e`; false when none can be.
    @inline(__always) @inlinable
    static func clampSpan(_ e: Edge, _ py: Int, _ lo: inout Int64, _ hi: inout Int64) -> Bool {
        let r = e.row + e.stepY * Int64(py) + e.bias
        if e.stepX > 0 {
            lo = max(lo, ceilDiv(-r, e.stepX))
        } else if e.stepX < 0 {
            hi = min(hi, floorDiv(r, -e.stepX))
        } else if r < 0 {
            return false
        }
        return true
    }

    /// Attribute values at pixel (px, py) from the weights λ1, λ2.
    @inline(__always) @inlinable
    func attributes(_ px: Int, _ py: Int) -> (SIMD4<Float>, SIMD4<Float>, Float) {
        let l1 = Float(Double(e1.value(px, py)) * invArea), l2 = Float(Double(e2.value(px, py)) * invArea)
        return (c0 + c1 * l1 + c2 * l2, n0 + n1 * l1 + n2 * l2, z.x + z.y * l1 + z.z * l2)
    }

    /// Barycentric weights (λ0, λ1, λ2) at the centre of pixel (px, py), exact to double precision.
    @inlinable
    func weights(_ px: Int, _ py: Int) -> SIMD3<Float> {
        SIMD3(Float(Double(e0.value(px, py)) * invArea),
              Float(Double(e1.value(px, py)) * invArea),
              Float(Double(e2.value(px, py)) * invArea))
    }
}
