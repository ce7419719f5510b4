import Analysis
import SpecvizCore

/// The spectrogram's labels (issue 39): the dB colour key beside the plot on the right (a
/// bar of the heat palette, its dB ticks and, under it, the unit), and a time axis down the
/// left edge in seconds before now (0 at the top, where the newest sound is).
extension Labels {
    /// The widest text of the key's column (pixels): a four-character tick or the unit.
    public static func keyLabelWidth(_ state: VisualState, layout: Layout) -> Float {
        let f = layout.fontSize
        return max(Layout.estimatedWidth("-100", size: f * 0.8), Layout.estimatedWidth(state.levelUnit, size: f * 0.75))
    }

    /// A vertical colour bar of the heat palette right of the plot, the dB ticks of the
    /// level window beside it and the unit beneath it (on the frequency labels' line, clear
    /// of the last one).
    func heatKey(_ state: VisualState, layout: Layout, into scene: inout Scene) {
        let r = layout.spectrum
        let f = layout.fontSize
        let px = layout.clipPerPixel.x
        let x0 = r.x1 + f * Layout.keyGap * px
        let x1 = x0 + max(2, f * Layout.keyBar) * px
        let steps = 16
        scene.begin2D()
        for k in 0..<steps {
            let a = Float(k) / Float(steps), b = Float(k + 1) / Float(steps)
            scene.quad(
                x0: x0, y0: r.y0 + a * r.height, x1: x1, y1: r.y0 + b * r.height,
                bottom: heatPalette.color(a), top: heatPalette.color(b))
        }
        scene.end2D()
        let top = layout.pixel(SIMD2(r.x1, r.y1)).y, bottom = layout.pixel(SIMD2(r.x1, r.y0)).y
        let x = layout.pixel(SIMD2(x1, 0)).x + f * Layout.keyGap
        for db in Labels.dBTicks(bottom: state.dbBottom, top: state.dbTop, pixels: bottom - top, spacing: f * 1.1) {
            let frac = (Float(db) - state.dbBottom) / (state.dbTop - state.dbBottom)
            let y = bottom + (top - bottom) * frac
            let baseline = min(max(y + f * 0.3, top + f * 0.62), bottom)
            scene.addText(TextRun("\(db)", at: SIMD2(x, baseline), size: f * 0.8, color: Labels.dimColor))
        }
        // The last frequency label is centred on the plot's right edge: the unit starts
        // after half of it.
        let lastHalf = Layout.estimatedWidth(state.frequencyLabels.last?.1 ?? "", size: f) * 0.5
        let unitX = max(x, layout.pixel(SIMD2(r.x1, 0)).x + lastHalf + f * 0.3)
        scene.addText(TextRun(state.levelUnit, at: SIMD2(unitX, bottom + f * 1.2), size: f * 0.75, color: Labels.dimColor))
    }

    /// Seconds before now down the plot's left edge, at round steps (1, 2, 5, 10 … s) at
    /// least two label heights apart, and "s" above them, once the time per row is known
    /// (the full-resolution spectrogram's is set; the grid's is measured between its rows).
    func timeAxis(_ state: VisualState, layout: Layout, into scene: inout Scene) {
        guard let (history, rowSeconds) = state.spectrogramRows else { return }
        let f = layout.fontSize
        let (topRow, rowPixels, rows) = FullSpectrogramMode.rows(layout: layout, history: history)
        let pixelsPerSecond = Float(rowPixels) / Float(rowSeconds)
        let span = Double(Float(rows) * rowPixels / pixelsPerSecond)
        let step = Labels.timeStep(pixelsPerSecond: pixelsPerSecond, minimum: f * 2)
        let r = layout.spectrum
        let x = layout.pixel(SIMD2(r.x0, 0)).x - f * 0.4
        let top = topRow, bottom = layout.pixel(SIMD2(r.x0, r.y0)).y
        var t = 0.0
        while t <= span + 1e-6 {
            let y = top + Float(t) * pixelsPerSecond
            let baseline = min(max(y + f * 0.3, top + f * 0.62), bottom)
            let text = t == 0 ? "0" : step < 1 ? "-\(Int((t * 10).rounded()) / 10).\(Int((t * 10).rounded()) % 10)" : "-\(Int(t.rounded()))"
            scene.addText(TextRun(text, at: SIMD2(x, baseline), size: f * 0.8, color: Labels.dimColor, anchor: .right))
            t += step
        }
        scene.addText(TextRun("s", at: SIMD2(x, top - f * 0.35), size: f * 0.75, color: Labels.dimColor, anchor: .right))
    }

    /// The smallest of 0.5, 1, 2, 5, 10, 15, 30, 60, 120, 300 s whose ticks lie at least
    /// `minimum` pixels apart.
    static func timeStep(pixelsPerSecond: Float, minimum: Float) -> Double {
        let steps: [Double] = [0.5, 1, 2, 5, 10, 15, 30, 60, 120, 300]
        return steps.first { Float($0) * pixelsPerSecond >= minimum } ?? 600
    }
}
