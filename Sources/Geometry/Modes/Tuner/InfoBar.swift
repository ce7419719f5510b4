import SpecvizCore
import Tuning

/// The info bar (seed 004 §3.3): Hz | note with flat/sharp triangle pairs | cents. The
/// pairs light by the reading's class (`TuningTolerance`): none in tune, one near, two far.
public struct InfoBar {
    public init() {}

    /// Triangles lit on the offset's side.
    public static func lit(cents: Double) -> Int {
        switch TuningTolerance.classify(cents: cents) {
        case .inTune: 0
        case .near: 1
        case .far: 2
        }
    }

    func build(_ s: TunerViewState, rect r: PixelRect, scale: Float, text: Bool, into scene: inout Scene) {
        let font = min(r.height * 0.34, r.width * 0.075)
        let y = r.midY + font * 0.36
        let on: Float = s.detected ? 1 : 0.45
        let ink = TunerColors.scaled(TunerColors.amber, on)
        if text {
            scene.glowText(
                s.detected ? TunerFormat.hertz(s.frequency) : "--- Hz", at: SIMD2(r.x0 + r.width * 0.17, y),
                size: font * 0.8, color: ink)
            scene.glowText(
                s.detected ? s.target.name() : "---", at: SIMD2(r.midX, y), size: font * 1.25,
                color: s.inTune ? TunerColors.white : ink)
            scene.glowText(
                !s.detected ? "---\u{00A2}" : s.unsure ? "?\u{00A2}" : TunerFormat.cents(s.cents), at: SIMD2(r.x1 - r.width * 0.17, y),
                size: font * 0.8, color: s.detected ? TunerColors.reading(s) : ink)
        }
        let n = s.detected && !s.unsure ? InfoBar.lit(cents: s.cents) : 0
        let t = font * 0.32
        for si in 0..<2 {
            let side: Float = si == 0 ? -1 : 1
            for i in 0..<2 {
                let cx = r.midX + side * (font * 1.55 + Float(i) * t * 2.3)
                let litHere = (side < 0) == (s.cents < 0) && i < n
                let colour = litHere ? TunerColors.reading(s) : SIMD4<Float>(0.25, 0.07, 0.05, 1)
                // Flat triangles point right (raise), sharp ones point left (lower): toward the note.
                let tip = SIMD2<Float>(cx - side * t, r.midY), b0 = SIMD2<Float>(cx + side * t, r.midY - t),
                    b1 = SIMD2<Float>(cx + side * t, r.midY + t)
                scene.pxGlowingTriangle(tip, b0, b1, color: colour, glow: litHere ? 5 * scale : 0)
            }
        }
    }
}
