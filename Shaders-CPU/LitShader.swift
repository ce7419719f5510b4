import Raster
import SpecvizCore

/// The 3D shader pair of SPEC §4 / seed 000 Part 6: the vertex function transforms by the
/// draw's MVP (model = identity, mesh in world space); the fragment function applies
/// Lambert diffuse with ambient 0.5: colour·(0.5 + 0.5·max(dot(N, L), 0)),
/// N = normalize(interpolated normal), L = normalize(−0.5, 1, 0.3). Alpha is kept.
public struct LitShader: Shader3D {
    public static let light: SIMD3<Float> = normalize(SIMD3(-0.5, 1, 0.3))
    public static let ambient: Float = 0.5

    /// `light` copied at construction: a static read per fragment costs a lazy-init check.
    @usableFromInline let l: SIMD3<Float>

    public init() { l = LitShader.light }

    @inlinable @inline(__always)
    public func vertex(_ v: Vertex3D, mvp: Mat4) -> ShadedVertex {
        ShadedVertex(
            position: mvp * SIMD4(v.position.x, v.position.y, v.position.z, 1), color: v.color,
            normal: SIMD4(v.normal.x, v.normal.y, v.normal.z, 0))
    }

    @inlinable @inline(__always)
    public func fragment(normal: SIMD3<Float>, color: SIMD4<Float>) -> SIMD4<Float> {
        // dot(normalize(N), L) = dot(N, L) / |N|, written out so it inlines into the span loop.
        let nn = normal.x * normal.x + normal.y * normal.y + normal.z * normal.z
        let ndotl = nn > 0 ? (normal.x * l.x + normal.y * l.y + normal.z * l.z) / nn.squareRoot() : 0
        let brightness = 0.5 + 0.5 * max(ndotl, 0) // ambient 0.5
        return SIMD4(color.x * brightness, color.y * brightness, color.z * brightness, color.w)
    }

    public var lambertLight: SIMD3<Float>? { l }
}
