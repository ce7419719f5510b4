import SpecvizCore
import Tuning

/// `--mode tuner` (SPEC §5 last bullet; seed 004 §3.2–3.3, 9, 11): the CRT chassis with
/// one primary meter and its paired sub-meter — LED arc + chromatic strip, note wheel +
/// ±100¢ ruler, stroboscope + info bar — plus a small header. Reads
/// `VisualState.tunerView`; nil shows the `---` state.
///
/// Layout follows the frame's real size (seed 004 §11): wider than 1.2:1 → two columns
/// (chassis left, sub-meter and header right); otherwise a vertical stack (header,
/// chassis, sub-meter). The chassis shape is identical in every layout; only its size
/// and the chrome around it change.
public struct TunerViewMode: ModeBuilder {
    public var meter: TunerMeter
    /// Preset name and reference pitch for the header.
    public var preset: String
    public var reference: Double

    public init(meter: TunerMeter = .arc, preset: String = "chromatic", reference: Double = 440) {
        self.meter = meter
        self.preset = preset
        self.reference = reference
    }

    /// Chassis width / height.
    public static let chassisAspect: Float = 1.3

    /// Where the chassis, the sub-meter panel and the header go for a frame size.
    struct Placement {
        var chassis: CRTChassis
        var panel: PixelRect
        var header: SIMD2<Float>
        var headerAnchor: TextRun.Anchor
        var font: Float
        var twoColumn: Bool
    }

    static func place(width: Int, height: Int) -> Placement {
        let w = Float(width), h = Float(height)
        let m = 0.05 * min(w, h)
        if w / h >= 1.2 {
            let font = h * 0.042
            var ch = h - 2 * m - font * 0.6
            var cw = ch * chassisAspect
            if cw > w * 0.6 { cw = w * 0.6; ch = cw / chassisAspect }
            let cy = (h - ch) / 2 + font * 0.3
            let chassis = CRTChassis(x: m * 1.2, y: cy, width: cw, height: ch)
            let colX0 = chassis.x + cw + m * 1.6, colX1 = w - m
            let ph = min(ch * 0.36, (colX1 - colX0) * 0.42)
            let panel = PixelRect(x0: colX0, y0: cy + ch * 0.55 - ph / 2, x1: colX1, y1: cy + ch * 0.55 + ph / 2)
            return Placement(
                chassis: chassis, panel: panel, header: SIMD2(colX0, cy + ch * 0.12), headerAnchor: .left,
                font: font, twoColumn: true)
        }
        let font = w * 0.05
        var cw = w - 2 * m
        var ch = cw / chassisAspect
        let ph0 = cw * 0.3
        let available = h - 2 * m - font * 2.6 - ph0 - m
        if ch > available { ch = available; cw = ch * chassisAspect }
        let total = font * 2.6 + ch + m * 1.2 + ph0
        let top = (h - total) / 2 + font * 2.6
        let chassis = CRTChassis(x: (w - cw) / 2, y: top, width: cw, height: ch)
        let py0 = top + ch + m * 1.2
        let panel = PixelRect(x0: (w - cw) / 2, y0: py0, x1: (w + cw) / 2, y1: py0 + ph0)
        return Placement(
            chassis: chassis, panel: panel, header: SIMD2(w / 2, top - font * 1.3), headerAnchor: .center,
            font: font, twoColumn: false)
    }

    public func build(_ state: VisualState, layout: Layout, into scene: inout Scene) {
        var builder = self, layers = FrameLayers()
        builder.build(state, layout: layout, into: &scene, layers: &layers, key: nil, scrolls: false)
    }

    /// Layers, each built from what it shows (`FrameLayers`): the cabinet and the header,
    /// the same on every frame of a layout; the LED arc (which LEDs are lit, and how), its
    /// readout (the texts and their colours) and the strip, or the wheel or stroboscope
    /// with its sub-meter, from the meters' state. A new reading redraws only the parts
    /// it changes.
    public mutating func build(
        _ state: VisualState, layout: Layout, into scene: inout Scene, layers: inout FrameLayers, key: LayerKey?, scrolls: Bool
    ) {
        let s = state.tunerView ?? TunerViewState()
        let p = TunerViewMode.place(width: layout.width, height: layout.height)
        let text = layout.labels
        let scale = max(0.3, min(Float(layout.width), Float(layout.height)) / 1080)
        var first = scene.items.count
        scene.begin2D()
        // Warm dark cabinet behind everything (the clear colour: no full-frame overdraw).
        scene.clearColor = TunerColors.background
        p.chassis.draw(into: &scene, scale: scale, powered: true)
        SubMeterPanel.draw(p.panel, scale: scale, into: &scene)
        scene.end2D()
        layers.mark(&scene, from: first, key: 0)
        // Meters: triangles and text interleave, so each meter draws in its own 2D draw.
        first = scene.items.count
        scene.begin2D()
        let sub = p.panel.inset(p.panel.height * 0.08)
        switch meter {
        case .arc:
            LEDArcMeter().build(s, chassis: p.chassis, scale: scale, into: &scene)
            scene.end2D()
            layers.mark(&scene, from: first, key: LEDArcMeter.Lights(s))
            first = scene.items.count
            ArcReadout.build(s, chassis: p.chassis, text: text, into: &scene)
            layers.mark(&scene, from: first, key: ArcReadout.Reading(s))
            first = scene.items.count
            scene.begin2D()
            ChromaticStrip().build(s, rect: sub, scale: scale, text: text, into: &scene)
        case .wheel:
            NoteWheelMeter().build(s, chassis: p.chassis, scale: scale, text: text, into: &scene)
            FineTuneRuler().build(s, rect: sub, scale: scale, text: text, into: &scene)
        case .strobe:
            StrobeMeter().build(s, chassis: p.chassis, scale: scale, text: text, into: &scene)
            InfoBar().build(s, rect: sub, scale: scale, text: text, into: &scene)
        }
        scene.end2D()
        // The wheel and the stroboscope, with their sub-meters, show most of the state.
        let shown: LayerKey = meter == .arc ? ChromaticStrip.Shown(s) as LayerKey : s as LayerKey
        layers.mark(&scene, from: first, key: shown)
        first = scene.items.count
        if text { header(p, into: &scene) }
        layers.mark(&scene, from: first, key: 0)
    }

    private func header(_ p: Placement, into scene: inout Scene) {
        let f = p.font
        let pair: String
        switch meter {
        case .arc: pair = "LED ARC \u{00B7} CHROMATIC STRIP"
        case .wheel: pair = "NOTE WHEEL \u{00B7} FINE TUNE"
        case .strobe: pair = "STROBOSCOPE \u{00B7} INFO BAR"
        }
        let tenths = Int(saturating: (reference * 10).rounded())
        let ref = "A4 = \(tenths / 10).\(tenths % 10) Hz"
        let title = TunerColors.amber, small = TunerColors.alpha(TunerColors.amber, 0.6)
        scene.glowText("SPECVIZ TUNER", at: p.header, size: f, color: title, anchor: p.headerAnchor)
        if p.twoColumn {
            scene.addText(TextRun(pair, at: p.header + SIMD2(0, f * 1.3), size: f * 0.5, color: small, anchor: .left))
            scene.addText(
                TextRun(
                    "\(preset)  \u{00B7}  \(ref)", at: p.header + SIMD2(0, f * 2.1), size: f * 0.5,
                    color: small, anchor: .left))
        } else {
            scene.addText(
                TextRun(
                    "\(pair)  \u{00B7}  \(preset)  \u{00B7}  \(ref)", at: p.header + SIMD2(0, f * 0.9),
                    size: f * 0.42, color: small, anchor: .center))
        }
    }
}

/// Note and cents under the LED arc.
enum ArcReadout {
    /// What the readout shows of the meters' state: its texts and their colours.
    struct Reading: Equatable, Sendable {
        var detected: Bool
        var inTune: Bool
        var unsure: Bool
        var tuningClass: TuningClass
        var note: String
        var cents: String

        init(_ s: TunerViewState) {
            detected = s.detected
            inTune = s.inTune
            unsure = s.unsure
            tuningClass = s.tuningClass
            note = s.detected ? s.target.name() : ""
            cents = s.detected && !s.unsure ? TunerFormat.cents(s.cents) : ""
        }
    }

    static func build(_ s: TunerViewState, chassis c: CRTChassis, text: Bool, into scene: inout Scene) {
        guard text else { return }
        let f = c.h * 0.22
        let colour = s.inTune ? TunerColors.white : TunerColors.scaled(TunerColors.amber, s.detected ? 1 : 0.5)
        scene.glowText(s.detected ? s.target.name() : "---", at: SIMD2(c.centreX, c.y + c.h * 0.66), size: f, color: colour)
        if s.detected {
            scene.glowText(
                s.unsure ? "?\u{00A2}" : TunerFormat.cents(s.cents), at: SIMD2(c.centreX, c.y + c.h * 0.84), size: f * 0.38,
                color: TunerColors.alpha(TunerColors.reading(s), 0.9))
        }
    }
}

/// The small housing of the sub-meters: a bezel and a dark phosphor screen with scanlines.
enum SubMeterPanel {
    static func draw(_ r: PixelRect, scale: Float, into scene: inout Scene) {
        let b = max(3, 12 * scale)
        scene.pxRect(x0: r.x0 - b, y0: r.y0 - b, x1: r.x1 + b, y1: r.y1 + b, top: TunerColors.bezelTop, bottom: TunerColors.bezelBottom)
        scene.pxRect(
            x0: r.x0 - b * 0.25, y0: r.y0 - b * 0.25, x1: r.x1 + b * 0.25, y1: r.y1 + b * 0.25,
            top: SIMD4(0.015, 0.015, 0.013, 1), bottom: SIMD4(0.015, 0.015, 0.013, 1))
        scene.pxRect(x0: r.x0, y0: r.y0, x1: r.x1, y1: r.midY, top: TunerColors.screenEdge, bottom: TunerColors.screenCentre)
        scene.pxRect(x0: r.x0, y0: r.midY, x1: r.x1, y1: r.y1, top: TunerColors.screenCentre, bottom: TunerColors.screenEdge)
        let pitch = max(3, 4 * scale)
        var y = r.y0 + pitch * 0.5
        let line = SIMD4<Float>(0, 0, 0, 0.22)
        while y < r.y1 {
            scene.pxRect(x0: r.x0, y0: y, x1: r.x1, y1: min(r.y1, y + pitch * 0.4), top: line, bottom: line)
            y += pitch
        }
    }
}
