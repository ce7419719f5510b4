import Analysis
import SpecvizCore

#if canImport(Glibc)
import Glibc
#endif

/// The text around the spectrum (seed 000 Part 3 label overlays, SPEC §4): dB scale labels
/// that follow the auto-level window, frequency labels (20 … 20k) at their log positions,
/// the waveform label and the title. Placed in pixels from the `Layout`.
///
/// Styles: `.linear` (bars, curve: dB on the left, frequencies under the spectrum),
/// `.heatmap` (spectrogram: the dB labels sit beside a colour legend of the heatmap).
/// A mode with other labels draws its own (`ModeTraits.LabelSet.own`) and ends them with
/// `waveformAndTitle`.
public struct Labels {
    public enum Style: Sendable { case linear, heatmap }

    public static let frequencies: [(Double, String)] = [
        (20, "20"), (50, "50"), (100, "100"), (200, "200"), (500, "500"),
        (1000, "1k"), (2000, "2k"), (5000, "5k"), (10000, "10k"), (20000, "20k"),
    ]
    public static let textColor = SIMD4<Float>(0.75, 0.8, 0.9, 0.9)
    public static let dimColor = SIMD4<Float>(0.55, 0.6, 0.7, 0.8)
    public static let titleColor = SIMD4<Float>(0.95, 0.95, 1, 0.95)

    public var style: Style
    public var heatPalette: Palette

    public init(style: Style = .linear, heatPalette: Palette = .heat) {
        self.style = style
        self.heatPalette = heatPalette
    }

    /// The frequency labels of an axis: the 1-2-5 Hz series on log-like scales, note names
    /// (each C) on `notes`, nominal band centres on `octave:N`, round kHz on `linear`;
    /// only those inside the axis.
    public static func frequencies(for axis: FrequencyAxis) -> [(Double, String)] {
        let inside: (Double) -> Bool = { $0 >= axis.lowHz * 0.999 && $0 <= axis.highHz * 1.001 }
        switch axis.scale {
        case .notes:
            var list: [(Double, String)] = []
            for o in 0...10 {
                let hz: Double = 440 * exp2(Double(12 * o - 57) / 12)
                if inside(hz) { list.append((hz, "C\(o)")) }
            }
            return list
        case .octave:
            var list: [(Double, String)] = []
            for x in -6...4 {
                let hz: Double = 1000 * pow(10, 0.3 * Double(x))
                if inside(hz) { list.append((hz, BandLayout.nominalName(hz))) }
            }
            return list
        case .linear:
            let span = axis.highHz - axis.lowHz
            let step = span > 10_000 ? 2000.0 : span > 4000 ? 1000 : span > 1000 ? 200 : 50
            var list: [(Double, String)] = []
            var f = (axis.lowHz / step).rounded(.up) * step
            while f <= axis.highHz * 1.001 {
                list.append(
                    (f, f >= 1000 ? (f / 1000 == (f / 1000).rounded() ? "\(Int(f / 1000))k" : "\(Int(f / 100) / 10).\(Int(f / 100) % 10)k") : "\(Int(f))"))
                f += step
            }
            return list
        default:
            if axis == .standard { return frequencies }
            let extra: [(Double, String)] = [(10, "10"), (30_000, "30k")]
            return (frequencies + extra).sorted { $0.0 < $1.0 }.filter { inside($0.0) }
        }
    }

    /// Pixel x of a frequency on the spectrum's axis.
    public static func x(ofFrequency hz: Double, layout: Layout, axis: FrequencyAxis = .standard) -> Float {
        let r = layout.spectrum
        let clip = r.x0 + Float(axis.position(ofFrequency: hz)) * r.width
        return layout.pixel(SIMD2(clip, 0)).x
    }

    public func build(_ state: VisualState, layout: Layout, into scene: inout Scene, title: String? = nil) {
        guard layout.labels else { return }
        switch style {
        case .linear:
            frequencyAxis(state, layout: layout, into: &scene)
            dBAxis(state, layout: layout, into: &scene)
        case .heatmap:
            frequencyAxis(state, layout: layout, into: &scene)
            heatKey(state, layout: layout, into: &scene)
            timeAxis(state, layout: layout, into: &scene)
        }
        Labels.waveformAndTitle(title, layout: layout, into: &scene)
    }

    /// The waveform strip's label and the title (the last labels of every mode with axes).
    public static func waveformAndTitle(_ title: String?, layout: Layout, into scene: inout Scene) {
        let f = layout.fontSize
        scene.addText(TextRun("waveform", at: layout.waveformLabelOrigin, size: f * 0.75, color: Labels.dimColor))
        if let title { Labels.title(title, layout: layout, into: &scene) }
    }

    /// The title, right-aligned in the header's title slot; shortened with "…" so it never
    /// runs into the overlay slots or off the frame.
    public static func title(_ title: String, layout: Layout, into scene: inout Scene) {
        guard let run = titleRun(title, layout: layout) else { return }
        scene.addText(run)
    }

    /// The title's text run in the header's slot, nil when it is not drawn.
    static func titleRun(_ title: String, layout: Layout) -> TextRun? {
        guard layout.labels, !title.isEmpty else { return nil }
        let slot = layout.titleSlot
        let size = min(layout.fontSize * 1.1, slot.height * 0.8)
        // A title cut to a stub says nothing: leave it out.
        guard let text = Layout.fitted(title, size: size, width: slot.width) else { return nil }
        let baseline = slot.y1 - (slot.height - size * 0.72) * 0.5
        return TextRun(text, at: SIMD2(slot.x1, baseline), size: size, color: titleColor, anchor: .right)
    }

    /// The box (pixels, y down, generous) the header's title takes, nil when none is drawn.
    public static func titleBox(_ title: String?, layout: Layout) -> Layout.Rect? {
        guard let title, let run = titleRun(title, layout: layout) else { return nil }
        return Layout.estimatedBox(run.text, size: run.size, origin: run.origin, anchor: .right, maxWidth: layout.titleSlot.width)
    }

    /// Frequency labels under the spectrum, centred on their log positions. In narrow
    /// frames a label that would touch its left neighbour is left out (20, 100, 1k, 10k
    /// and 20k are kept first), so no two labels ever overlap.
    func frequencyAxis(_ state: VisualState, layout: Layout, into scene: inout Scene) {
        let f = layout.fontSize
        let axis = state.axis, labels = state.frequencyLabels
        let bottom = layout.pixel(SIMD2(layout.spectrum.x0, layout.spectrum.y0)).y
        let gap = f * 0.4
        func span(_ k: Int) -> (Float, Float) {
            let (hz, text) = labels[k]
            let x = Labels.x(ofFrequency: hz, layout: layout, axis: axis), half = Layout.estimatedWidth(text, size: f) * 0.5
            return (x - half - gap * 0.5, x + half + gap * 0.5)
        }
        // Decades first, then the 2s and 5s where they fit; other axes every other label
        // first. The kept ones are bits of a mask (at most 64 labels): nothing is allocated.
        let n = min(labels.count, 64), half = (n + 1) / 2
        let standard = axis == .standard && n == Labels.standardPriority.count
        var kept: UInt64 = 0
        for i in 0..<n {
            let k = standard ? Labels.standardPriority[i] : i < half ? 2 * i : 2 * (i - half) + 1
            let (a, b) = span(k)
            var clear = true, others = kept
            while others != 0 && clear {
                let (c, d) = span(others.trailingZeroBitCount)
                clear = b <= c || a >= d
                others &= others - 1
            }
            if clear { kept |= 1 << UInt64(k) }
        }
        while kept != 0 {
            let (hz, text) = labels[kept.trailingZeroBitCount]
            kept &= kept - 1
            let x = Labels.x(ofFrequency: hz, layout: layout, axis: axis)
            scene.addText(TextRun(text, at: SIMD2(x, bottom + f * 1.2), size: f, color: Labels.textColor, anchor: .center))
        }
    }

    /// The order in which the standard axis's ten labels are placed.
    static let standardPriority = [0, 2, 5, 8, 9, 3, 6, 1, 4, 7]

    /// The dB labels' values: the multiples of a round step (10 dB on a window 30 dB or
    /// taller, 5 from 12 dB, else 2 or 1) inside `bottom…top`, lowest first. Fixed values, so
    /// a window that moves shows the same numbers at new heights, never new numbers.
    /// - pixels: the scale's height; ticks closer than `spacing` pixels are thinned to a
    ///   multiple of the step (at most every 50 dB) that keeps them apart.
    public static func dBTicks(bottom: Float, top: Float, pixels: Float = .infinity, spacing: Float = 0) -> [Int] {
        let span = top - bottom
        guard span.isFinite, span > 0 else { return [] }
        var step = span >= 30 ? 10 : span >= 12 ? 5 : span >= 4 ? 2 : 1
        while step < 50 && Float(step) / span * pixels < spacing {
            step = step == 1 ? 2 : step == 2 ? 5 : step == 5 ? 10 : step == 10 ? 20 : 50
        }
        let first = Int(saturating: (bottom / Float(step) - 1e-3).rounded(.up)) * step
        let last = Int(saturating: (top / Float(step) + 1e-3).rounded(.down)) * step
        guard first <= last else { return [] }
        return Array(stride(from: first, through: last, by: step))
    }

    /// dB labels at round values of the level window along the spectrum's left edge (see
    /// `dBTicks`), and the unit above them.
    func dBAxis(_ state: VisualState, layout: Layout, into scene: inout Scene) {
        let f = layout.fontSize
        let r = layout.spectrum
        let bottomLeft = layout.pixel(SIMD2(r.x0, r.y0))
        let topRight = layout.pixel(SIMD2(r.x1, r.y1))
        let x = bottomLeft.x - f * 0.4
        for db in Labels.dBTicks(bottom: state.dbBottom, top: state.dbTop, pixels: bottomLeft.y - topRight.y, spacing: f * 1.1) {
            let frac = (Float(db) - state.dbBottom) / (state.dbTop - state.dbBottom)
            let y = bottomLeft.y + (topRight.y - bottomLeft.y) * frac
            // Keep the top label's cap and the bottom label's baseline inside the spectrum's span.
            let baseline = min(max(y + f * 0.3, topRight.y + f * 0.62), bottomLeft.y)
            scene.addText(
                TextRun(
                    "\(db)", at: SIMD2(x, baseline), size: f * 0.8,
                    color: Labels.dimColor, anchor: .right))
        }
        // A unit wider than the margin ("dB(468)") moves right, over the plot's top edge
        // (its baseline is above the plot), rather than past the frame's left edge.
        let unitSize = f * 0.75
        let unitRight = max(x, f * 0.3 + Layout.estimatedWidth(state.levelUnit, size: unitSize))
        scene.addText(
            TextRun(
                state.levelUnit, at: SIMD2(unitRight, topRight.y - f * 0.35), size: unitSize,
                color: Labels.dimColor, anchor: .right))
    }
}
