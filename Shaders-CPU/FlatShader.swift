import Raster
import SpecvizCore

/// The 2D shader pair of SPEC §4 (seed 000 `vertex_main` / `fragment_main`):
/// the vertex function passes the clip-space position and colour through; the fragment
/// function returns the interpolated colour. Blending is the rasteriser's fixed function.
public struct FlatShader: Shader2D {
    public init() {}

    @inlinable @inline(__always)
    public func vertex(_ v: Vertex2D) -> ShadedVertex {
        ShadedVertex(position: SIMD4(v.position.x, v.position.y, 0, 1), color: v.color)
    }

    @inlinable @inline(__always)
    public func fragment(color: SIMD4<Float>) -> SIMD4<Float> { color }

    public var passesColorThrough: Bool { true }
    public var passesPositionThrough: Bool { true }
}
