import SpecvizCore

#if canImport(Glibc)
import Glibc
#endif

/// The CRT display shape that houses every tuner meter (seed 004 §9 "The CRT chassis
/// shape"): a split cubic-Bézier arch on top, sides angled inward toward the bottom and
/// tangent-arc rounded bottom corners. Pixel coordinates (y down) inside `rect`.
///
/// Parameters (seed 004 §9): arch apex 30.4 % of the height above the shoulders; arch
/// depth 56 % — read here as the length of each half-arch's Bézier handles relative to
/// the half-arch's extent; side inset 13 % of the width in total (6.5 % per side at the
/// bottom); bottom-corner radius 7 % of the width. The meters place their content on
/// parallel (vertically translated) copies of the arch, as the seed's wheel and LED arc do.
public struct CRTChassis: Sendable {
    public static let apexRise: Float = 0.304
    public static let archDepth: Float = 0.56
    public static let sideInset: Float = 0.13
    public static let cornerRadius: Float = 0.07

    /// Left, top, width, height in pixels.
    public let x: Float, y: Float, w: Float, h: Float

    public init(x: Float, y: Float, width: Float, height: Float) {
        self.x = x; self.y = y; w = width; h = height
    }

    /// The chassis grown (or shrunk, negative) by `d` pixels on every side.
    public func inset(_ d: Float) -> CRTChassis {
        CRTChassis(x: x + d, y: y + d, width: w - 2 * d, height: h - 2 * d)
    }

    public var centreX: Float { x + w / 2 }
    /// y of the shoulders (where the arch meets the sides).
    public var shoulderY: Float { y + CRTChassis.apexRise * h }
    public var bottomY: Float { y + h }
    var perSideInset: Float { CRTChassis.sideInset * 0.5 * w }
    var radius: Float { CRTChassis.cornerRadius * w }

    /// Point on the arch for u in 0…1 (left shoulder → apex → right shoulder).
    public func archPoint(_ u: Float) -> SIMD2<Float> {
        let left = u <= 0.5
        let t = left ? u * 2 : (1 - u) * 2
        let rise = shoulderY - y, half = w / 2
        let p0 = SIMD2<Float>(x, shoulderY)
        let p1 = SIMD2<Float>(x, shoulderY - CRTChassis.archDepth * rise)
        let p2 = SIMD2<Float>(centreX - CRTChassis.archDepth * half, y)
        let p3 = SIMD2<Float>(centreX, y)
        let s = 1 - t
        var p = p0 * (s * s * s) + p1 * (3 * s * s * t) + p2 * (3 * s * t * t) + p3 * (t * t * t)
        if !left { p.x = 2 * centreX - p.x }
        return p
    }

    /// Arch height (y) above pixel column `px` (clamped to the shoulders).
    public func archY(atX px: Float) -> Float {
        let xc = min(max(px, x), x + w)
        // The left half's x grows monotonically with t: bisection on the mirrored column.
        let target = xc <= centreX ? xc : 2 * centreX - xc
        var lo: Float = 0, hi: Float = 0.5
        for _ in 0..<22 {
            let mid = (lo + hi) * 0.5
            if archPoint(mid).x < target { lo = mid } else { hi = mid }
        }
        return archPoint((lo + hi) * 0.5).y
    }

    /// Left and right edge of the shape at row `py`, or nil outside it.
    public func span(atY py: Float) -> (Float, Float)? {
        guard py >= y, py <= bottomY else { return nil }
        if py < shoulderY {
            // Inside the arch: find the column where the arch reaches py (left half).
            var lo: Float = 0, hi: Float = 0.5
            for _ in 0..<22 {
                let mid = (lo + hi) * 0.5
                if archPoint(mid).y > py { lo = mid } else { hi = mid }
            }
            let xl = archPoint((lo + hi) * 0.5).x
            return (xl, 2 * centreX - xl)
        }
        let sideBottom = bottomY - radius
        var xl: Float
        if py <= sideBottom {
            xl = x + perSideInset * (py - shoulderY) / max(sideBottom - shoulderY, 1)
        } else {
            let cx = x + perSideInset + radius, cy = sideBottom
            let dy = py - cy
            xl = cx - (max(radius * radius - dy * dy, 0)).squareRoot()
        }
        return (xl, 2 * centreX - xl)
    }

    /// Calls `body` with the outline's points in order (clockwise on screen), `archSteps`
    /// per half-arch. Allocation-free.
    public func forEachOutlinePoint(archSteps: Int = 40, cornerSteps: Int = 8, _ body: (SIMD2<Float>) -> Void) {
        for i in 0...(2 * archSteps) { body(archPoint(Float(i) / Float(2 * archSteps))) }
        let r = radius
        let sideBottom = bottomY - r
        // Right side down to the corner, corner arc, bottom, left corner arc, left side up.
        let rc = SIMD2<Float>(x + w - perSideInset - r, sideBottom)
        for i in 0...cornerSteps {
            let a = Float(i) / Float(cornerSteps) * Float.pi / 2
            body(rc + SIMD2(cos(a), sin(a)) * r)
        }
        let lc = SIMD2<Float>(x + perSideInset + r, sideBottom)
        for i in 0...cornerSteps {
            let a = Float.pi / 2 + Float(i) / Float(cornerSteps) * Float.pi / 2
            body(lc + SIMD2(cos(a), sin(a)) * r)
        }
    }

    /// Fills the shape as a fan from its centre: `centreColor` at the centre, `edgeColor`
    /// on the outline (a radial vignette).
    func fill(into scene: inout Scene, centreColor: SIMD4<Float>, edgeColor: SIMD4<Float>) {
        let c = SIMD2<Float>(centreX, y + h * 0.55)
        var first: SIMD2<Float>? = nil
        var prev = SIMD2<Float>.zero
        forEachOutlinePoint { p in
            if first == nil { first = p } else { scene.pxTriangle(c, prev, p, centreColor, edgeColor, edgeColor) }
            prev = p
        }
        if let f = first { scene.pxTriangle(c, prev, f, centreColor, edgeColor, edgeColor) }
    }

    /// Strokes the outline with feathered edges.
    func stroke(into scene: inout Scene, width: Float, color: SIMD4<Float>, feather: Float) {
        var first: SIMD2<Float>? = nil
        var prev = SIMD2<Float>.zero
        forEachOutlinePoint { p in
            if first == nil { first = p } else { scene.pxLine(prev, p, width: width, color: color, feather: feather) }
            prev = p
        }
        if let f = first { scene.pxLine(prev, f, width: width, color: color, feather: feather) }
    }

    /// The whole housing: bezel, dark phosphor screen with vignette, scanlines, glass
    /// sheen and a faint phosphor rim glow. `scale` is pixels per reference pixel.
    func draw(into scene: inout Scene, scale: Float, powered: Bool) {
        let bezel = max(4, 16 * scale)
        let outer = inset(-bezel)
        outer.fill(into: &scene, centreColor: TunerColors.bezelTop, edgeColor: TunerColors.bezelBottom)
        outer.stroke(into: &scene, width: max(1, 2 * scale), color: SIMD4(0.35, 0.31, 0.26, 0.9), feather: 1)
        // The black gap between bezel and glass: a ring, not a third full fill (less overdraw).
        inset(-bezel * 0.125).stroke(into: &scene, width: bezel * 0.25, color: SIMD4(0.012, 0.012, 0.011, 1), feather: 0)
        let glowK: Float = powered ? 1 : 0.35
        fill(into: &scene, centreColor: TunerColors.scaled(TunerColors.screenCentre, glowK), edgeColor: TunerColors.screenEdge)
        // Scanlines every ~4 reference pixels, clipped to the shape.
        let pitch = max(3, 4 * scale)
        var row = y + pitch * 0.5
        let line = SIMD4<Float>(0, 0, 0, 0.22)
        while row < bottomY {
            if let (a, b) = span(atY: row) {
                scene.pxRect(x0: a, y0: row, x1: b, y1: row + pitch * 0.4, top: line, bottom: line)
            }
            row += pitch
        }
        // Glass sheen: a soft highlight band under the arch.
        let sheen = inset(h * 0.035)
        sheen.stroke(into: &scene, width: max(1, 3 * scale), color: SIMD4(1, 1, 1, 0.035), feather: 10 * scale)
        stroke(
            into: &scene, width: max(1, 1.5 * scale), color: TunerColors.alpha(TunerColors.phosphor, 0.25 * glowK),
            feather: 6 * scale)
    }
}
