import SpecvizCore

#if canImport(Glibc)
import Glibc
#endif

/// The tuner and BPM overlays of SPEC §4 (drawn in bars, curve, surface, surface+), in the
/// header slots the `Layout` reserves for them.
///
/// - Tuner (`VisualState.tuner`): the note name large, the cents beside it, both coloured
///   green in tune, yellow near, red beyond (`TuningTolerance`: ±5¢, ±15¢), and beneath a
///   ±50¢ track with a centre tick and a marker at the cents value.
/// - BPM (`VisualState.tempo`): a dot that pulses on each beat (radius and brightness
///   follow `beat`, 1 on the beat and fading) and the tempo value, or "--- BPM" while no
///   tempo is displayed (seed 000 Part 5; SPEC §6: shown only above 15% confidence).
///   Where the metre is known (`beatsPerBar`, issue 18), a row of beat-in-bar dots under
///   the value: the current beat lit, the downbeat's dot larger.
///
/// Shapes are drawn with the 2D pipeline, text by the rasteriser; nothing is drawn when the
/// layout has no labels (no font) or the overlay's state is nil.
public struct OverlayView {
    public static let trackColor = SIMD4<Float>(1, 1, 1, 0.22)
    public static let dimText = SIMD4<Float>(0.55, 0.6, 0.7, 0.85)
    /// Segments of the beat dot's triangle fan.
    public static let dotSegments = 24

    public init() {}

    public func build(_ state: VisualState, layout: Layout, into scene: inout Scene) {
        guard layout.labels else { return }
        if let tuner = state.tuner { buildTuner(tuner, layout: layout, into: &scene) }
        if let tempo = state.tempo { buildTempo(tempo, layout: layout, into: &scene) }
    }

    /// "A4  +3¢" and the cents track, in `layout.tunerSlot`.
    func buildTuner(_ tuner: TunerOverlay, layout: Layout, into scene: inout Scene) {
        let s = layout.overlaySize
        let slot = layout.tunerSlot
        let detected = !tuner.note.isEmpty
        let color = detected ? tuner.color : OverlayView.dimText
        let baseline = slot.y1 - s * 0.42
        // Track: ±50¢ across the slot, under the text.
        let px = layout.clipPerPixel
        let trackY = slot.y1 - s * 0.12
        let half = max(0.5, s * 0.035)
        let a = layout.clip(SIMD2(slot.x0, trackY - half)), b = layout.clip(SIMD2(slot.x1, trackY + half))
        let centreX = (slot.x0 + slot.x1) * 0.5
        let c = layout.clip(SIMD2(centreX, trackY))
        let cents = Float(min(max(tuner.cents, -50), 50))
        let markerX = centreX + cents / 50 * (slot.x1 - slot.x0) * 0.5
        let m = layout.clip(SIMD2(markerX, trackY))
        let tick = s * 0.16, marker = s * 0.11
        scene.begin2D()
        scene.quad(x0: a.x, y0: b.y, x1: b.x, y1: a.y, bottom: OverlayView.trackColor, top: OverlayView.trackColor)
        scene.quad(
            x0: c.x - half * px.x, y0: c.y - tick * px.y, x1: c.x + half * px.x, y1: c.y + tick * px.y,
            bottom: OverlayView.trackColor, top: OverlayView.trackColor)
        if detected && !tuner.unsure {
            scene.quad(
                x0: m.x - marker * px.x, y0: m.y - marker * px.y, x1: m.x + marker * px.x, y1: m.y + marker * px.y,
                bottom: color, top: color)
        }
        scene.end2D()
        scene.addText(TextRun(detected ? tuner.note : "---", at: SIMD2(slot.x0, baseline), size: s, color: color))
        guard detected else { return }
        // Unsure (another sound dominates the note's band): the note, dimmed, and no cents.
        let rounded = Int(saturating: tuner.cents.rounded())
        let centsText = tuner.unsure ? "?¢" : (rounded > 0 ? "+" : rounded < 0 ? "−" : "±") + "\(abs(rounded))¢"
        scene.addText(TextRun(centsText, at: SIMD2(slot.x1, baseline), size: s * 0.62, color: color, anchor: .right))
    }

    /// Beat dot and "128 BPM", in `layout.tempoSlot`.
    func buildTempo(_ tempo: TempoOverlay, layout: Layout, into scene: inout Scene) {
        let s = layout.overlaySize
        let slot = layout.tempoSlot
        let beat = min(max(tempo.beat, 0), 1)
        let baseline = slot.y1 - s * 0.42
        let centre = layout.clip(SIMD2(slot.x0 + s * 0.4, baseline - s * 0.36))
        let radius = s * (0.2 + 0.14 * beat)
        let level = 0.3 + 0.7 * beat
        let hasTempo = tempo.bpm != nil
        let dot = hasTempo ? SIMD4<Float>(1, 0.35 + 0.45 * level, 0.3, 0.35 + 0.65 * level) : OverlayView.dimText
        let rim = SIMD4<Float>(dot.x, dot.y, dot.z, dot.w * 0.6)
        let px = layout.clipPerPixel
        scene.begin2D()
        let n = OverlayView.dotSegments
        for k in 0..<n {
            let a0 = 2 * Float.pi * Float(k) / Float(n), a1 = 2 * Float.pi * Float(k + 1) / Float(n)
            let p0 = centre + SIMD2(cos(a0) * radius * px.x, sin(a0) * radius * px.y)
            let p1 = centre + SIMD2(cos(a1) * radius * px.x, sin(a1) * radius * px.y)
            scene.vertices2D.append(Vertex2D(centre, dot))
            scene.vertices2D.append(Vertex2D(p0, rim))
            scene.vertices2D.append(Vertex2D(p1, rim))
        }
        if let perBar = tempo.beatsPerBar, perBar > 1, perBar <= 12, hasTempo {
            // Beat in bar: one small dot per beat under the tempo, the current beat lit
            // (fading with the beat dot), the downbeat's dot larger.
            let y = slot.y1 - s * 0.12
            for k in 1...perBar {
                let c = layout.clip(SIMD2(slot.x0 + s * 1.0 + Float(k - 1) * s * 0.4, y))
                let r = s * (k == 1 ? 0.13 : 0.09)
                let current = tempo.position == k
                let color = current ? SIMD4<Float>(dot.x, dot.y, dot.z, 0.5 + 0.5 * level) : OverlayView.trackColor
                for q in 0..<n {
                    let a0 = 2 * Float.pi * Float(q) / Float(n), a1 = 2 * Float.pi * Float(q + 1) / Float(n)
                    scene.vertices2D.append(Vertex2D(c, color))
                    scene.vertices2D.append(Vertex2D(c + SIMD2(cos(a0) * r * px.x, sin(a0) * r * px.y), color))
                    scene.vertices2D.append(Vertex2D(c + SIMD2(cos(a1) * r * px.x, sin(a1) * r * px.y), color))
                }
            }
        }
        scene.end2D()
        let text: String
        if let bpm = tempo.bpm { text = "\(Int(saturating: bpm.rounded())) BPM" } else { text = "--- BPM" }
        scene.addText(
            TextRun(
                text, at: SIMD2(slot.x0 + s * 0.95, baseline), size: s * 0.8,
                color: hasTempo ? Labels.textColor : OverlayView.dimText))
    }
}
