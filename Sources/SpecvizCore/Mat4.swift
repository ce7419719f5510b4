#if canImport(Glibc)
import Glibc
#endif

/// A 4×4 single-precision matrix stored column-major (like Metal's `float4x4`),
/// so `columns.0` is the first column and `m * v` transforms a column vector.
@frozen
public struct Mat4: Equatable, Sendable {
    public var c0: SIMD4<Float>
    public var c1: SIMD4<Float>
    public var c2: SIMD4<Float>
    public var c3: SIMD4<Float>

    @inlinable
    public init(_ c0: SIMD4<Float>, _ c1: SIMD4<Float>, _ c2: SIMD4<Float>, _ c3: SIMD4<Float>) {
        self.c0 = c0; self.c1 = c1; self.c2 = c2; self.c3 = c3
    }

    public static let identity = Mat4(SIMD4(1, 0, 0, 0), SIMD4(0, 1, 0, 0), SIMD4(0, 0, 1, 0), SIMD4(0, 0, 0, 1))

    /// The 16 elements in column-major order.
    public var elements: [Float] {
        [c0.x, c0.y, c0.z, c0.w, c1.x, c1.y, c1.z, c1.w, c2.x, c2.y, c2.z, c2.w, c3.x, c3.y, c3.z, c3.w]
    }

    @inlinable
    public static func * (m: Mat4, v: SIMD4<Float>) -> SIMD4<Float> {
        m.c0 * v.x + m.c1 * v.y + m.c2 * v.z + m.c3 * v.w
    }

    @inlinable
    public static func * (a: Mat4, b: Mat4) -> Mat4 {
        Mat4(a * b.c0, a * b.c1, a * b.c2, a * b.c3)
    }

    /// Right-handed perspective projection with Metal/Vulkan clip depth:
    /// z = 0 at `near`, z = w at `far`. `fovY` in radians, `aspect` = width / height.
    public static func perspective(fovY: Float, aspect: Float, near: Float, far: Float) -> Mat4 {
        let y = 1 / tanf(fovY * 0.5)
        let x = y / aspect
        let z = far / (near - far)
        return Mat4(SIMD4(x, 0, 0, 0), SIMD4(0, y, 0, 0), SIMD4(0, 0, z, -1), SIMD4(0, 0, z * near, 0))
    }

    /// Right-handed view matrix looking from `eye` at `target`.
    public static func lookAt(eye: SIMD3<Float>, target: SIMD3<Float>, up: SIMD3<Float>) -> Mat4 {
        let f = normalize(target - eye)
        let r = normalize(cross(f, up))
        let u = cross(r, f)
        return Mat4(
            SIMD4(r.x, u.x, -f.x, 0),
            SIMD4(r.y, u.y, -f.y, 0),
            SIMD4(r.z, u.z, -f.z, 0),
            SIMD4(-dot(r, eye), -dot(u, eye), dot(f, eye), 1))
    }
}

@inlinable public func dot(_ a: SIMD3<Float>, _ b: SIMD3<Float>) -> Float { (a * b).sum() }
@inlinable public func dot(_ a: SIMD4<Float>, _ b: SIMD4<Float>) -> Float { (a * b).sum() }
@inlinable public func cross(_ a: SIMD3<Float>, _ b: SIMD3<Float>) -> SIMD3<Float> {
    SIMD3(a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x)
}
@inlinable public func length(_ a: SIMD3<Float>) -> Float { dot(a, a).squareRoot() }
@inlinable public func normalize(_ a: SIMD3<Float>) -> SIMD3<Float> {
    let l = length(a)
    return l > 0 ? a / l : a
}
