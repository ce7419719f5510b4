import SpecvizCore

/// The programmable stages of the 2D pipeline (SPEC §4): a vertex function that maps a
/// `Vertex2D` to clip space plus a varying colour, and a fragment function that maps the
/// interpolated colour to the output colour (straight alpha; blended src-alpha /
/// one-minus-src-alpha by the rasteriser). Implementations live in `Shaders-CPU/`.
public protocol Shader2D {
    func vertex(_ v: Vertex2D) -> ShadedVertex
    func fragment(color: SIMD4<Float>) -> SIMD4<Float>
    /// True when `fragment(color:)` returns its argument: the rasteriser then runs its
    /// built-in 8-pixel kernels instead of calling `fragment` per pixel. Default false.
    var passesColorThrough: Bool { get }
    /// True when `vertex(v)` is (v.position.x, v.position.y, 0, 1) with v.color: only then
    /// can a frame's 2D draws scroll (`Scroll` compares the vertices as they are). Default
    /// false.
    var passesPositionThrough: Bool { get }
}

extension Shader2D {
    public var passesColorThrough: Bool { false }
    public var passesPositionThrough: Bool { false }
}

/// The programmable stages of the lit 3D pipeline: vertex transform by the draw's MVP,
/// and a fragment function of the interpolated normal (perspective-correct direction, not
/// normalised) and colour. Depth test LESS, no blend.
public protocol Shader3D {
    func vertex(_ v: Vertex3D, mvp: Mat4) -> ShadedVertex
    func fragment(normal: SIMD3<Float>, color: SIMD4<Float>) -> SIMD4<Float>
    /// The light direction (normalised) when `fragment` is exactly Lambert with ambient 0.5,
    /// colour·(0.5 + 0.5·max(dot(N, L), 0)) with N = normal/|N| (0 when |N| = 0): the
    /// rasteriser then runs its built-in 8-pixel kernel. Default nil (per-pixel `fragment`).
    var lambertLight: SIMD3<Float>? { get }
}

extension Shader3D {
    public var lambertLight: SIMD3<Float>? { nil }
}

/// A vertex after the vertex stage: clip-space position and varyings.
@frozen
public struct ShadedVertex: Sendable {
    public var position: SIMD4<Float>
    public var color: SIMD4<Float>
    /// xyz = normal (unused in 2D), w unused.
    public var normal: SIMD4<Float>

    @inlinable
    public init(position: SIMD4<Float>, color: SIMD4<Float>, normal: SIMD4<Float> = .zero) {
        self.position = position
        self.color = color
        self.normal = normal
    }

    @inlinable
    func lerp(to b: ShadedVertex, _ t: Float) -> ShadedVertex {
        ShadedVertex(
            position: position + (b.position - position) * t,
            color: color + (b.color - color) * t,
            normal: normal + (b.normal - normal) * t)
    }
}
