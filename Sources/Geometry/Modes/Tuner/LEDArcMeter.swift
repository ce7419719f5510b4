import SpecvizCore
import Tuning

#if canImport(Glibc)
import Glibc
#endif

/// The LED arc meter (seed 004 §3.2, §9): 19 LED-shaped polygons along a parallel copy of
/// the chassis arch, 9 red each side of a green centre, placed at equal arc length.
///
/// Lighting: within ±5¢ only the centre is lit (white when in tune); beyond, the LEDs from
/// the centre out to the offset's segment are lit on the offset's side (sharp = right),
/// one segment per 5¢: 5–10¢ → 1, 10–15¢ → 2, …, ≥ 45¢ → all 9. So more segments mean a
/// larger correction, as the seed describes.
public struct LEDArcMeter {
    public static let segments = 19
    public static let centre = 9
    /// Cents per segment beyond the in-tune window.
    public static let centsPerSegment = 5.0
    /// Fraction of the arch's arc length the LEDs span.
    static let span: Float = 0.74

    public init() {}

    /// What the arc shows of the meters' state: which LEDs are lit and their colours.
    struct Lights: Equatable, Sendable {
        var detected: Bool
        var centreLit: Bool
        var side: Int
        var sharp: Bool
        var inTune: Bool
        var unsure: Bool
        var tuningClass: TuningClass

        init(_ s: TunerViewState) {
            detected = s.detected
            centreLit = abs(s.cents) <= TunerViewState.inTuneCents
            side = LEDArcMeter.sideCount(cents: s.cents)
            sharp = s.cents > 0
            inTune = s.inTune
            unsure = s.unsure
            tuningClass = s.tuningClass
        }
    }

    /// Number of side segments lit for `cents` (0…9); the side is the sign of `cents`.
    public static func sideCount(cents: Double) -> Int {
        let a = abs(cents)
        guard a > TunerViewState.inTuneCents else { return 0 }
        return min(9, Int(saturating: ((a - TunerViewState.inTuneCents) / centsPerSegment).rounded(.up)))
    }

    /// Side LEDs take the reading's class (`TuningTolerance`): amber while near, red when far.
    static func sideHue(_ c: TuningClass) -> SIMD4<Float> { c == .near ? TunerColors.amber : TunerColors.red }

    /// Whether LED `index` (0 = leftmost, 9 = centre, 18 = rightmost) is lit.
    public static func isLit(_ index: Int, cents: Double, detected: Bool) -> Bool {
        guard detected else { return false }
        if index == centre { return abs(cents) <= TunerViewState.inTuneCents }
        let n = sideCount(cents: cents)
        let offset = index - centre
        return (offset > 0) == (cents > 0) && abs(offset) <= n
    }

    /// Arc-length positions of the 19 LEDs on the arch translated down by `drop` pixels:
    /// calls `body(index, point, unit tangent)`. Arc length by a 96-step polyline.
    static func forEachLED(
        on chassis: CRTChassis, drop: Float,
        _ body: (Int, SIMD2<Float>, SIMD2<Float>) -> Void
    ) {
        let steps = 96
        withUnsafeTemporaryAllocation(of: Float.self, capacity: steps + 1) { cum in
            cum[0] = 0
            var prev = chassis.archPoint(0)
            for i in 1...steps {
                let p = chassis.archPoint(Float(i) / Float(steps))
                let d = p - prev
                cum[i] = cum[i - 1] + (d * d).sum().squareRoot()
                prev = p
            }
            let total = cum[steps]
            var j = 0
            for k in 0..<segments {
                let f = 0.5 + (Float(k) / Float(segments - 1) - 0.5) * span
                let target = f * total
                while j < steps - 1 && cum[j + 1] < target { j += 1 }
                let t = (target - cum[j]) / max(cum[j + 1] - cum[j], 1e-6)
                let u = (Float(j) + t) / Float(steps)
                var p = chassis.archPoint(u)
                let q = chassis.archPoint(min(1, u + 0.002)), r = chassis.archPoint(max(0, u - 0.002))
                var tan = q - r
                tan /= max((tan * tan).sum().squareRoot(), 1e-6)
                p.y += drop
                body(k, p, tan)
            }
        }
    }

    func build(_ s: TunerViewState, chassis: CRTChassis, scale: Float, into scene: inout Scene) {
        let drop = chassis.h * 0.13
        let length = chassis.h * 0.13
        let arcLength = chassis.w * 1.05 * LEDArcMeter.span
        let width = arcLength / Float(LEDArcMeter.segments) * 0.56
        LEDArcMeter.forEachLED(on: chassis, drop: drop) { k, p, tan in
            // Normal pointing inward (down, away from the arch).
            let n = SIMD2<Float>(-tan.y, tan.x).y > 0 ? SIMD2<Float>(-tan.y, tan.x) : SIMD2<Float>(tan.y, -tan.x)
            let outerHalf = width * 0.5, innerHalf = width * 0.40
            let a = p + tan * -outerHalf, b = p + tan * outerHalf
            let c = p + n * length + tan * innerHalf, d = p + n * length - tan * innerHalf
            let isCentre = k == LEDArcMeter.centre
            let hue = isCentre ? TunerColors.phosphor : s.unsure ? TunerColors.unsure : LEDArcMeter.sideHue(s.tuningClass)
            let lit = LEDArcMeter.isLit(k, cents: s.cents, detected: s.detected)
            if lit {
                let core = isCentre && s.inTune ? TunerColors.white : hue
                let halo = isCentre && s.inTune ? TunerColors.alpha(TunerColors.white, 0.55) : TunerColors.alpha(hue, 0.5)
                let mid = p + n * (length * 0.5)
                scene.pxGlow(mid, radius: length * (isCentre && s.inTune ? 1.5 : 1.05), color: TunerColors.alpha(hue, 0.28))
                scene.pxGlowingQuad((a, b, c, d), color: core, glow: 6 * scale, halo: halo)
            } else {
                let off = SIMD4<Float>(hue.x * 0.16, hue.y * 0.16, hue.z * 0.16, 1)
                scene.pxGlowingQuad((a, b, c, d), color: off, glow: 0, halo: off)
                // A dim specular fleck: the lens of an unlit LED.
                scene.pxLine(
                    a + (b - a) * 0.25 + n * (length * 0.15), a + (b - a) * 0.25 + n * (length * 0.55),
                    width: max(1, width * 0.08), color: SIMD4(1, 1, 1, 0.07), feather: 1)
            }
        }
    }
}
