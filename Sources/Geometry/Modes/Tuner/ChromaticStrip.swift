import SpecvizCore
import Tuning

/// The chromatic strip (seed 004 §3.3): the nine nearest chromatic notes around the target,
/// with two triangle indicators (top and bottom) gliding horizontally to where the pitch
/// sits (one note cell per 100¢, clamped to the strip); solid white when in tune.
public struct ChromaticStrip {
    public init() {}

    /// What the strip shows of the meters' state: the notes, the indicator and their colours.
    struct Shown: Equatable, Sendable {
        var detected: Bool
        var target: Int
        var cents: Double
        var inTune: Bool
        var unsure: Bool
        var tuningClass: TuningClass

        init(_ s: TunerViewState) {
            detected = s.detected
            target = s.target.midi
            cents = s.cents
            inTune = s.inTune
            unsure = s.unsure
            tuningClass = s.tuningClass
        }
    }

    /// Indicator x as a fraction of the strip width (0.5 = target centre), for `cents`.
    public static func indicatorFraction(cents: Double) -> Float {
        min(max(0.5 + Float(cents / 100) / 9, 0.02), 0.98)
    }

    func build(_ s: TunerViewState, rect r: PixelRect, scale: Float, text: Bool, into scene: inout Scene) {
        let cell = r.width / 9
        let on: Float = s.detected ? 1 : 0.45
        let font = min(r.height * 0.36, cell * 0.42)
        for k in -4...4 {
            let cx = r.midX + Float(k) * cell
            let note = Note(midi: s.target.midi + k)
            let isTarget = k == 0
            if isTarget {
                let frame = TunerColors.alpha(TunerColors.amber, 0.10 * on)
                scene.pxRect(
                    x0: cx - cell * 0.46, y0: r.y0 + r.height * 0.2, x1: cx + cell * 0.46, y1: r.y1 - r.height * 0.2,
                    top: frame, bottom: frame)
            }
            if text {
                let a: Float = isTarget ? 1 : 0.75 - 0.12 * Float(abs(k))
                let colour = isTarget && s.inTune ? TunerColors.white : TunerColors.alpha(TunerColors.scaled(TunerColors.amber, on), a)
                scene.glowText(
                    note.pitchClassName(), at: SIMD2(cx, r.midY + font * 0.36), size: font * (isTarget ? 1.15 : 1),
                    color: colour)
            }
            if k < 4 {
                let x = cx + cell * 0.5
                scene.pxLine(
                    SIMD2(x, r.y0 + r.height * 0.3), SIMD2(x, r.y1 - r.height * 0.3), width: max(1, scale),
                    color: TunerColors.alpha(TunerColors.amber, 0.25 * on), feather: 1)
            }
        }
        guard s.detected else { return }
        let x = r.x0 + r.width * ChromaticStrip.indicatorFraction(cents: s.cents)
        let t = r.height * 0.13
        let colour = TunerColors.reading(s)
        let glow = (s.inTune ? 7 : 4) * scale
        scene.pxGlowingTriangle(
            SIMD2(x - t, r.y0 + t * 0.3), SIMD2(x + t, r.y0 + t * 0.3), SIMD2(x, r.y0 + t * 1.5),
            color: colour, glow: glow)
        scene.pxGlowingTriangle(
            SIMD2(x - t, r.y1 - t * 0.3), SIMD2(x, r.y1 - t * 1.5), SIMD2(x + t, r.y1 - t * 0.3),
            color: colour, glow: glow)
    }
}
