/// A 2D vertex exactly as the rasteriser consumes it: position in clip space
/// (−1…1, y up) and a straight-alpha RGBA colour. 32-byte stride: the position
/// is followed by 8 bytes of padding because `SIMD4<Float>` is 16-byte aligned
/// (seed 000, "Vertex Layout and the Alignment Lesson").
@frozen
public struct Vertex2D: Equatable, Sendable {
    public var position: SIMD2<Float>
    public var color: SIMD4<Float>

    @inlinable
    public init(_ position: SIMD2<Float>, _ color: SIMD4<Float>) {
        self.position = position
        self.color = color
    }

    @inlinable
    public init(x: Float, y: Float, color: SIMD4<Float>) {
        self.position = SIMD2(x, y)
        self.color = color
    }
}

/// A 3D vertex: world-space position, normal and straight-alpha colour.
/// 48-byte stride (`SIMD3<Float>` occupies 16 bytes).
@frozen
public struct Vertex3D: Equatable, Sendable {
    public var position: SIMD3<Float>
    public var normal: SIMD3<Float>
    public var color: SIMD4<Float>

    @inlinable
    public init(_ position: SIMD3<Float>, _ normal: SIMD3<Float>, _ color: SIMD4<Float>) {
        self.position = position
        self.normal = normal
        self.color = color
    }
}
