import SpecvizCore

#if canImport(Glibc)
import Glibc
#endif

/// The orbit camera of the 3D waterfall (seed 000 Part 6, "MVP Matrix Construction" and
/// "Aspect-Ratio-Adaptive Camera"; SPEC §4): the eye sits on a sphere around `target`,
///
///     eye = target + distance · (cos(el)·sin(az), sin(el), cos(el)·cos(az))
///
/// looking at `target` with +Y up; projection fov 45°, near 0.1, far 100 (Metal depth
/// 0…w). Two presets, compact (tall views: steeper, amplitude scale 0.6) and full (wide
/// views: shallower, amplitude scale 1.2), are blended linearly by the frame's aspect
/// ratio between 0.55 and 0.75.
///
/// `fit(bounds:aspect:fill:)` then dollies the eye along its ray so the mesh's bounding
/// box fills the viewport without clipping, and centres it with a lens shift (a
/// clip-space translation; the field of view stays 45°). Angles in radians, lengths in
/// world units (the mesh spans x, z ∈ −1…1, y ∈ 0…yScale).
public struct OrbitCamera: Sendable, Equatable {
    /// One set of camera parameters (radians, world units).
    public struct Preset: Sendable, Equatable {
        public var azimuth: Float
        public var elevation: Float
        public var distance: Float
        /// World height of amplitude 1.
        public var yScale: Float

        public init(azimuth: Float, elevation: Float, distance: Float, yScale: Float) {
            self.azimuth = azimuth; self.elevation = elevation; self.distance = distance; self.yScale = yScale
        }
    }

    /// Tall / narrow frames (aspect ≤ 0.55): steeper look, flatter peaks.
    public static let compact = Preset(azimuth: 0.20, elevation: 0.90, distance: 3.6, yScale: 0.6)
    /// Wide frames (aspect ≥ 0.75): shallower look, peaks up to 1.2.
    public static let full = Preset(azimuth: 0.22, elevation: 0.40, distance: 3.2, yScale: 1.2)

    public static let fovY: Float = 45 * .pi / 180
    public static let near: Float = 0.1
    public static let far: Float = 100
    /// Aspect ratios (width / height) where the blend from compact to full starts and ends.
    public static let blendStart: Float = 0.55
    public static let blendEnd: Float = 0.75

    public var azimuth: Float
    public var elevation: Float
    public var distance: Float
    public var yScale: Float
    /// The point the camera orbits and looks at (world units).
    public var target: SIMD3<Float>
    /// Clip-space translation applied after the projection (lens shift), in NDC units.
    public var shift: SIMD2<Float> = .zero

    public init(preset: Preset, target: SIMD3<Float> = .zero) {
        azimuth = preset.azimuth
        elevation = preset.elevation
        distance = preset.distance
        yScale = preset.yScale
        self.target = target
    }

    /// t = clamp((aspect − 0.55) / (0.75 − 0.55), 0, 1): 0 = compact, 1 = full.
    public static func blendFactor(aspect: Float) -> Float {
        min(max((aspect - blendStart) / (blendEnd - blendStart), 0), 1)
    }

    /// The presets blended for a frame of `aspect` = width / height.
    public init(aspect: Float) {
        let t = OrbitCamera.blendFactor(aspect: aspect)
        let a = OrbitCamera.compact, b = OrbitCamera.full
        func lerp(_ x: Float, _ y: Float) -> Float { x + (y - x) * t }
        self.init(
            preset: Preset(
                azimuth: lerp(a.azimuth, b.azimuth), elevation: lerp(a.elevation, b.elevation),
                distance: lerp(a.distance, b.distance), yScale: lerp(a.yScale, b.yScale)))
    }

    /// Unit vector from the target toward the eye.
    public var direction: SIMD3<Float> {
        SIMD3(cosf(elevation) * sinf(azimuth), sinf(elevation), cosf(elevation) * cosf(azimuth))
    }

    /// Eye position (world units).
    public var eye: SIMD3<Float> { target + direction * distance }

    public var view: Mat4 { Mat4.lookAt(eye: eye, target: target, up: SIMD3(0, 1, 0)) }

    /// Projection for a viewport of `aspect` = width / height, including the lens shift.
    public func projection(aspect: Float) -> Mat4 {
        let p = Mat4.perspective(fovY: OrbitCamera.fovY, aspect: aspect, near: OrbitCamera.near, far: OrbitCamera.far)
        return OrbitCamera.translation(shift) * p
    }

    /// Projection · view (the model matrix is identity: the mesh is built in world space).
    public func viewProjection(aspect: Float) -> Mat4 { projection(aspect: aspect) * view }

    /// Clip-space translation by (dx, dy) NDC units: x' = x + dx·w, y' = y + dy·w.
    public static func translation(_ d: SIMD2<Float>) -> Mat4 {
        Mat4(SIMD4(1, 0, 0, 0), SIMD4(0, 1, 0, 0), SIMD4(0, 0, 1, 0), SIMD4(d.x, d.y, 0, 1))
    }

    /// Maps the full clip square onto `rect` (clip space) of the frame: the sub-viewport
    /// the 3D scene is drawn in. Depth is untouched.
    public static func viewport(_ rect: Layout.Rect) -> Mat4 {
        let s = SIMD2(rect.width / 2, rect.height / 2), c = rect.center
        return Mat4(SIMD4(s.x, 0, 0, 0), SIMD4(0, s.y, 0, 0), SIMD4(0, 0, 1, 0), SIMD4(c.x, c.y, 0, 1))
    }

    /// NDC extent (min x, min y, max x, max y) of a box's eight corners; nil if a corner is
    /// not in front of the near plane.
    public func projectedExtent(min lo: SIMD3<Float>, max hi: SIMD3<Float>, aspect: Float) -> SIMD4<Float>? {
        let m = Mat4.perspective(fovY: OrbitCamera.fovY, aspect: aspect, near: OrbitCamera.near, far: OrbitCamera.far) * view
        var e = SIMD4<Float>(.infinity, .infinity, -.infinity, -.infinity)
        for k in 0..<8 {
            let p = SIMD3(k & 1 == 0 ? lo.x : hi.x, k & 2 == 0 ? lo.y : hi.y, k & 4 == 0 ? lo.z : hi.z)
            let c = m * SIMD4(p.x, p.y, p.z, 1)
            guard c.z > 0, c.w > 0 else { return nil }
            let x = c.x / c.w, y = c.y / c.w
            e = SIMD4(Swift.min(e.x, x), Swift.min(e.y, y), Swift.max(e.z, x), Swift.max(e.w, y))
        }
        return e
    }

    /// Dollies along the view ray (azimuth and elevation kept) until the box spans `fill`
    /// of the viewport in its tighter dimension, then sets the lens shift that centres it.
    /// Bisection over distance (the projected extent shrinks monotonically with it).
    public mutating func fit(min lo: SIMD3<Float>, max hi: SIMD3<Float>, aspect: Float, fill: Float = 0.96) {
        target = (lo + hi) * 0.5
        shift = .zero
        let radius = length(hi - lo) * 0.5
        func size(_ d: Float) -> Float {
            var c = self
            c.distance = d
            guard let e = c.projectedExtent(min: lo, max: hi, aspect: aspect) else { return .infinity }
            return Swift.max((e.z - e.x) * 0.5, (e.w - e.y) * 0.5)
        }
        var near = radius + OrbitCamera.near * 2, far = Swift.max(distance, near) * 8
        if size(near) <= fill {
            distance = near
        } else {
            for _ in 0..<40 {
                let mid = (near + far) * 0.5
                if size(mid) > fill { near = mid } else { far = mid }
            }
            distance = far
        }
        if let e = projectedExtent(min: lo, max: hi, aspect: aspect) {
            shift = SIMD2(-(e.x + e.z) * 0.5, -(e.y + e.w) * 0.5)
        }
    }
}
