import SpecvizCore
import Tuning

#if canImport(Glibc)
import Glibc
#endif

/// The note wheel (seed 004 §3.2, §9): a chromatic dial turning with the pitch. Its
/// geometry is locked to the chassis arch: rim lines are the arch translated down, tick
/// fans radiate from a virtual wheel centre 2× the chassis height below the apex, and each
/// label sits where its centre tick's spoke meets a translated arch (label and tick on the
/// same radial spoke at any rotation). Each note has a group of 5 ticks — short, medium,
/// long centre, medium, short — at quarter-semitone steps, the boundaries shared.
/// The visible arc shows the seven nearest semitones; the pointer at twelve o'clock marks
/// the current pitch; the target note glows white in tune.
public struct NoteWheelMeter {
    /// Semitones visible across the chassis.
    public static let visibleSemitones: Float = 7

    public init() {}

    /// Angle (rad, 0 = twelve o'clock, positive = clockwise/right) of a pitch `midi`
    /// (continuous semitones) when the wheel sits at `position`; `spacing` rad per semitone.
    /// Continuous in `position`, so the wheel turns smoothly with the cents.
    public static func angle(ofMidi midi: Double, position: Double, spacing: Float) -> Float {
        Float(midi - position) * spacing
    }

    /// The virtual wheel centre (pixels).
    static func hub(_ c: CRTChassis) -> SIMD2<Float> { SIMD2(c.centreX, c.y + 2 * c.h) }

    /// Angular spacing per semitone so that `visibleSemitones` fill 84 % of the width.
    static func spacing(_ c: CRTChassis) -> Float {
        let r = 2 * c.h
        return 2 * asin(min(0.95, 0.42 * c.w / r)) / visibleSemitones
    }

    /// Where the spoke at `theta` meets the arch translated down by `drop` pixels.
    static func spokePoint(_ c: CRTChassis, theta: Float, drop: Float) -> SIMD2<Float> {
        let hub = hub(c)
        let dir = SIMD2<Float>(sin(theta), -cos(theta))
        var lo: Float = 0, hi: Float = 3 * c.h
        for _ in 0..<24 {
            let mid = (lo + hi) * 0.5
            let p = hub + dir * mid
            if p.y > c.archY(atX: p.x) + drop { lo = mid } else { hi = mid }
        }
        return hub + dir * ((lo + hi) * 0.5)
    }

    func build(_ s: TunerViewState, chassis c: CRTChassis, scale: Float, text: Bool, into scene: inout Scene) {
        let spacing = NoteWheelMeter.spacing(c)
        let on: Float = s.detected ? 1 : 0.45
        let ink = TunerColors.scaled(TunerColors.amber, on)
        let rimTop = c.h * 0.10, rimBottom = c.h * 0.36, labelDrop = c.h * 0.49
        // Rim lines: the chassis arch translated down, clipped to the face.
        for k in 0..<2 {
            let drop = k == 0 ? rimTop : rimBottom
            let steps = 64
            var prev: SIMD2<Float>? = nil
            for i in 0...steps {
                let px = c.x + c.w * Float(i) / Float(steps)
                let p = SIMD2(px, c.archY(atX: px) + drop)
                let inside = c.inset(c.w * 0.03).span(atY: p.y).map { p.x >= $0.0 && p.x <= $0.1 } ?? false
                if inside, let q = prev { scene.pxLine(q, p, width: max(1, 2 * scale), color: TunerColors.alpha(ink, 0.8), feather: 3 * scale) }
                prev = inside ? p : nil
            }
        }
        // Tick fan and labels for the notes near the current position.
        let centreMidi = Int(saturating: s.wheelPosition.rounded())
        let face = c.inset(c.w * 0.035)
        // Label size from the spacing of neighbouring spokes where the labels sit ("G#" ≈ 1.2 em).
        let labelRadius = (NoteWheelMeter.hub(c) - NoteWheelMeter.spokePoint(c, theta: 0, drop: labelDrop))
        let labelSpacing = (labelRadius * labelRadius).sum().squareRoot() * spacing
        let fontSize = max(8, min(c.h * 0.1, labelSpacing * 0.62))
        for m in (centreMidi - 4)...(centreMidi + 4) {
            for q in -2...1 {
                let pitch = Double(m) + Double(q) * 0.25
                let theta = NoteWheelMeter.angle(ofMidi: pitch, position: s.wheelPosition, spacing: spacing)
                let level = q == 0 ? 1.0 : (abs(q) == 1 ? 0.6 : 0.35) as Float
                let outer = NoteWheelMeter.spokePoint(c, theta: theta, drop: rimTop)
                let inner = NoteWheelMeter.spokePoint(c, theta: theta, drop: rimTop + (rimBottom - rimTop) * level)
                guard let sp = face.span(atY: inner.y), inner.x > sp.0, inner.x < sp.1,
                    let so = face.span(atY: outer.y), outer.x > so.0, outer.x < so.1
                else { continue }
                let w: Float = (q == 0 ? 3 : 2) * scale
                scene.pxLine(outer, inner, width: max(1, w), color: TunerColors.alpha(ink, 0.9), feather: 2 * scale)
            }
            let theta = NoteWheelMeter.angle(ofMidi: Double(m), position: s.wheelPosition, spacing: spacing)
            let label = NoteWheelMeter.spokePoint(c, theta: theta, drop: labelDrop)
            guard abs(theta) <= spacing * (NoteWheelMeter.visibleSemitones * 0.5 + 0.1),
                let sp = face.span(atY: label.y), label.x > sp.0 + fontSize * 0.6, label.x < sp.1 - fontSize * 0.6
            else { continue }
            let isTarget = s.detected && m == s.target.midi
            // Fade labels toward the edges of the visible arc.
            let edge = 1 - min(1, abs(theta) / (spacing * NoteWheelMeter.visibleSemitones * 0.5))
            if isTarget && s.inTune {
                scene.pxGlow(label + SIMD2(0, -fontSize * 0.35), radius: fontSize * 1.4, color: TunerColors.alpha(TunerColors.white, 0.35))
            }
            if text {
                let colour = isTarget && s.inTune ? TunerColors.white : TunerColors.alpha(ink, 0.35 + 0.65 * edge)
                let name = Note(midi: m).pitchClassName()
                scene.glowText(name, at: label + SIMD2(0, fontSize * 0.35), size: fontSize * (isTarget ? 1.12 : 1), color: colour)
            }
        }
        // The twelve o'clock pointer: a triangle above the upper rim, pointing at the wheel.
        let top = SIMD2<Float>(c.centreX, c.archY(atX: c.centreX) + rimTop)
        let tw = c.h * 0.035
        let pointer = s.detected ? TunerColors.reading(s) : TunerColors.phosphor
        scene.pxGlowingTriangle(
            top + SIMD2(-tw, -tw * 1.6), top + SIMD2(tw, -tw * 1.6), top + SIMD2(0, -tw * 0.1),
            color: TunerColors.scaled(pointer, on), glow: 5 * scale)
        // Hairline from the pointer down the spoke at twelve o'clock.
        let foot = NoteWheelMeter.spokePoint(c, theta: 0, drop: rimBottom)
        scene.pxLine(top, foot, width: max(1, 1.5 * scale), color: TunerColors.alpha(pointer, 0.55 * on), feather: 3 * scale)
        // Readout under the wheel.
        if text {
            let y = c.y + c.h * 0.80
            let read = s.detected ? TunerFormat.cents(s.cents) : "---"
            scene.glowText(
                read, at: SIMD2(c.centreX, y), size: fontSize * 0.9,
                color: s.detected ? TunerColors.reading(s) : TunerColors.scaled(TunerColors.phosphor, on))
        }
    }
}
