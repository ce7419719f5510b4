import CKernels
import SpecvizCore

/// Homogeneous polygon clipping (Sutherland–Hodgman in clip space, before the divide).
/// Triangles always clip against a guard band (|x|, |y| ≤ `guardBand`·w) so that
/// screen coordinates fit the rasteriser's fixed point, and 3D triangles also against
/// the near plane z ≥ 0 and far plane z ≤ w (Metal/Vulkan depth, SPEC §10).
@usableFromInline
struct Clipper {
    /// Far enough outside any frame that clipping there never changes covered pixels
    /// (shared with the setup kernel, which tests it).
    @usableFromInline static let guardBand = Float(SPV_GUARD_BAND)

    @usableFromInline var a: [ShadedVertex] = []
    @usableFromInline var b: [ShadedVertex] = []

    @usableFromInline init() {
        a.reserveCapacity(12)
        b.reserveCapacity(12)
    }

    /// Signed distances to the clip planes; inside when ≥ 0.
    @inlinable
    static func distance(_ p: SIMD4<Float>, plane: Int) -> Float {
        let g = guardBand
        switch plane {
        case 0: return p.z // near: z ≥ 0
        case 1: return p.w - p.z // far: z ≤ w
        case 2: return g * p.w - p.x
        case 3: return g * p.w + p.x
        case 4: return g * p.w - p.y
        default: return g * p.w + p.y
        }
    }

    /// Clips the triangle; the resulting convex polygon (0 or 3…9 vertices) is left in `a`.
    @inlinable
    mutating func clip(_ v0: ShadedVertex, _ v1: ShadedVertex, _ v2: ShadedVertex, depth: Bool) {
        a.removeAll(keepingCapacity: true)
        a.append(v0); a.append(v1); a.append(v2)
        for plane in (depth ? 0 : 2)..<6 {
            b.removeAll(keepingCapacity: true)
            let n = a.count
            if n == 0 { return }
            for i in 0..<n {
                let p = a[i], q = a[(i + 1) % n]
                let dp = Clipper.distance(p.position, plane: plane)
                let dq = Clipper.distance(q.position, plane: plane)
                if dp >= 0 { b.append(p) }
                if (dp >= 0) != (dq >= 0) {
                    b.append(p.lerp(to: q, dp / (dp - dq)))
                }
            }
            swap(&a, &b)
        }
    }
}
