import SpecvizCore

/// The fine-tune ruler (seed 004 §3.3): a static ±100¢ scale with graduated ticks —
/// tallest at 0¢, then multiples of 25¢, 10¢, 5¢, single cents — and a vertical line
/// with a triangle that pins to the end at ±100¢ instead of leaving the scale.
public struct FineTuneRuler {
    public init() {}

    /// Tick height as a fraction of the tallest, by cents value.
    public static func tickLevel(_ c: Int) -> Float {
        if c == 0 { return 1 }
        if c % 25 == 0 { return 0.72 }
        if c % 10 == 0 { return 0.52 }
        if c % 5 == 0 { return 0.36 }
        return 0.2
    }

    /// Indicator x fraction 0…1 (pinned at the ends).
    public static func indicatorFraction(cents: Double) -> Float {
        Float(min(max(cents, -100), 100) / 200 + 0.5)
    }

    func build(_ s: TunerViewState, rect r: PixelRect, scale: Float, text: Bool, into scene: inout Scene) {
        let x0 = r.x0 + r.width * 0.05, x1 = r.x1 - r.width * 0.05
        let base = r.y0 + r.height * 0.68
        let tall = r.height * 0.42
        let on: Float = s.detected ? 1 : 0.5
        let ink = TunerColors.scaled(TunerColors.amber, on)
        for c in -100...100 {
            let x = x0 + (x1 - x0) * Float(c + 100) / 200
            let level = FineTuneRuler.tickLevel(c)
            scene.pxLine(
                SIMD2(x, base), SIMD2(x, base - tall * level), width: max(1, (level >= 0.72 ? 2 : 1) * scale),
                color: TunerColors.alpha(ink, 0.45 + 0.5 * level), feather: 0.6)
        }
        scene.pxLine(SIMD2(x0, base), SIMD2(x1, base), width: max(1, scale), color: TunerColors.alpha(ink, 0.6), feather: 1)
        if text {
            let f = r.height * 0.17
            for c in stride(from: -100, through: 100, by: 50) {
                let x = x0 + (x1 - x0) * Float(c + 100) / 200
                let label = c > 0 ? "+\(c)" : (c < 0 ? "\u{2212}\(-c)" : "0")
                scene.addText(TextRun(label, at: SIMD2(x, base + f * 1.25), size: f, color: TunerColors.alpha(ink, 0.8), anchor: .center))
            }
        }
        guard s.detected else { return }
        let x = x0 + (x1 - x0) * FineTuneRuler.indicatorFraction(cents: s.cents)
        let colour = TunerColors.reading(s)
        scene.pxLine(
            SIMD2(x, base + r.height * 0.04), SIMD2(x, base - tall * 1.08), width: max(1.5, 2.5 * scale),
            color: colour, feather: 4 * scale)
        let t = r.height * 0.09
        let top = base - tall * 1.08
        scene.pxGlowingTriangle(
            SIMD2(x - t, top - t * 1.5), SIMD2(x + t, top - t * 1.5), SIMD2(x, top),
            color: colour, glow: 5 * scale)
    }
}
