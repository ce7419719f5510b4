import SpecvizCore

#if canImport(Glibc)
import Glibc
#endif

/// The stroboscopic meter (seed 004 §3.2, §9): four bands following the chassis arch, one
/// per harmonic 1…4 of the target. Band k carries k × `cycles` light/dark cycles across
/// the face, shifted by that harmonic's drift phase φ_k, so equal cents move every band at
/// the same speed (as on a mechanical strobe disc) and an in-tune note freezes them.
/// Brightness follows the harmonic's energy. Motion comes from `TunerViewState.strobePhase`,
/// whose velocity is capped at 120 rad/s.
public struct StrobeMeter {
    /// Light/dark cycles across the face for harmonic 1.
    public static let cycles: Float = 6
    /// Vertex columns per cycle (the cosine profile is interpolated between them).
    static let columnsPerCycle = 8

    public init() {}

    /// Brightness profile of band `harmonic` (1…4) at face position u (0…1):
    /// ½ + ½·cos(2π·k·cycles·u − φ). The bright crests move right as φ grows (sharp).
    public static func profile(u: Float, harmonic: Int, phase: Float) -> Float {
        0.5 + 0.5 * cos(2 * Float.pi * Float(harmonic) * cycles * u - phase)
    }

    func build(_ s: TunerViewState, chassis c: CRTChassis, scale: Float, text: Bool, into scene: inout Scene) {
        let firstDrop = c.h * 0.12
        let bandHeight = c.h * 0.085, gap = c.h * 0.035
        let face = c.inset(c.w * 0.05)
        let label = max(8, c.h * 0.05)
        for k in 0..<4 {
            let drop = firstDrop + Float(k) * (bandHeight + gap)
            // The band's x extent: inside the face at the band's lowest point near the shoulders.
            let probeY = c.archY(atX: c.x + c.w * 0.12) + drop + bandHeight
            guard let (xa, xb) = face.span(atY: probeY) else { continue }
            let x0 = max(xa, c.x + c.w * 0.12), x1 = min(xb, c.x + c.w * 0.88)
            let energy = s.detected ? s.strobeEnergy[k] : 0
            let harmonic = k + 1
            let columns = harmonic * Int(StrobeMeter.cycles) * StrobeMeter.columnsPerCycle
            let dark = SIMD4<Float>(0.02, 0.07, 0.04, 0.9)
            var prevTop = SIMD2<Float>.zero, prevBottom = SIMD2<Float>.zero, prevColour = dark
            for i in 0...columns {
                let u = Float(i) / Float(columns)
                let px = x0 + (x1 - x0) * u
                let top = SIMD2(px, c.archY(atX: px) + drop)
                let bottom = top + SIMD2(0, bandHeight)
                let b = StrobeMeter.profile(u: u, harmonic: harmonic, phase: s.strobePhase[k]) * energy
                let colour = dark + (TunerColors.phosphor - dark) * (b * b * (3 - 2 * b))
                if i > 0 {
                    scene.pxQuad(prevTop, top, bottom, prevBottom, prevColour, colour, colour, prevColour)
                }
                prevTop = top; prevBottom = bottom; prevColour = colour
            }
            // Soft phosphor bloom above and below the band, as bright as its energy.
            if energy > 0.01 {
                let bloom = TunerColors.alpha(TunerColors.phosphor, 0.18 * energy)
                let clear = TunerColors.alpha(bloom, 0)
                let g = 7 * scale
                let steps = 24
                for i in 0..<steps {
                    let pa = x0 + (x1 - x0) * Float(i) / Float(steps), pb = x0 + (x1 - x0) * Float(i + 1) / Float(steps)
                    let ya = c.archY(atX: pa) + drop, yb = c.archY(atX: pb) + drop
                    scene.pxQuad(SIMD2(pa, ya - g), SIMD2(pb, yb - g), SIMD2(pb, yb), SIMD2(pa, ya), clear, clear, bloom, bloom)
                    scene.pxQuad(
                        SIMD2(pa, ya + bandHeight), SIMD2(pb, yb + bandHeight), SIMD2(pb, yb + bandHeight + g),
                        SIMD2(pa, ya + bandHeight + g), bloom, bloom, clear, clear)
                }
            }
            if text {
                let ly = c.archY(atX: x0) + drop + bandHeight * 0.5 + label * 0.35
                scene.addText(
                    TextRun(
                        "\(harmonic)\u{00D7}", at: SIMD2(x0 - label * 0.4, ly), size: label,
                        color: TunerColors.alpha(TunerColors.amber, 0.75), anchor: .right))
            }
        }
        if text {
            let fontSize = max(10, c.h * 0.12)
            let y = c.y + c.h * 0.86
            let name = s.detected ? s.target.name() : "---"
            scene.glowText(
                name, at: SIMD2(c.centreX, y), size: fontSize,
                color: s.inTune ? TunerColors.white : TunerColors.scaled(TunerColors.amber, s.detected ? 1 : 0.5))
        }
    }
}
