import Analysis
import SpecvizCore

/// The text around the spectrum (seed 000 Part 3 label overlays): dB scale labels that
/// follow the auto-level window, frequency labels at their log positions, and the
/// waveform label. Placed in pixels from the layout.
public struct Labels {
    public static let frequencies: [(Double, String)] = [
        (20, "20"), (50, "50"), (100, "100"), (200, "200"), (500, "500"),
        (1000, "1k"), (2000, "2k"), (5000, "5k"), (10000, "10k"), (20000, "20k"),
    ]
    public static let textColor = SIMD4<Float>(0.75, 0.8, 0.9, 0.9)
    public static let dimColor = SIMD4<Float>(0.55, 0.6, 0.7, 0.8)

    public init() {}

    /// Pixel x of a frequency on the spectrum's log axis.
    public static func x(ofFrequency hz: Double, layout: Layout) -> Float {
        let r = layout.spectrum
        let clip = r.x0 + Float(LogBands.position(ofFrequency: hz)) * r.width
        return layout.pixel(SIMD2(clip, 0)).x
    }

    public func build(_ state: VisualState, layout: Layout, into scene: inout Scene, title: String? = nil) {
        guard layout.labels else { return }
        let f = layout.fontSize
        let r = layout.spectrum
        let bottomLeft = layout.pixel(SIMD2(r.x0, r.y0))
        let topRight = layout.pixel(SIMD2(r.x1, r.y1))
        // Frequency labels under the spectrum.
        for (hz, text) in Labels.frequencies {
            let x = Labels.x(ofFrequency: hz, layout: layout)
            scene.addText(TextRun(text, at: SIMD2(x, bottomLeft.y + f * 1.25), size: f, color: Labels.textColor, anchor: .center))
        }
        // dB labels at the top, middle and bottom of the auto-level window.
        let steps = 4
        for k in 0...steps {
            let frac = Float(k) / Float(steps)
            let db = state.dbBottom + (state.dbTop - state.dbBottom) * frac
            let y = bottomLeft.y + (topRight.y - bottomLeft.y) * frac
            scene.addText(TextRun("\(Int(db.rounded()))", at: SIMD2(bottomLeft.x - f * 0.4, y + f * 0.35), size: f * 0.85,
                                  color: Labels.dimColor, anchor: .right))
        }
        scene.addText(TextRun("dB", at: SIMD2(bottomLeft.x - f * 0.4, topRight.y - f * 0.6), size: f * 0.8,
                              color: Labels.dimColor, anchor: .right))
        let wf = layout.pixel(SIMD2(layout.waveform.x0, layout.waveform.y1))
        scene.addText(TextRun("waveform", at: SIMD2(wf.x, wf.y - f * 0.2), size: f * 0.75, color: Labels.dimColor))
        if let title {
            scene.addText(TextRun(title, at: SIMD2(topRight.x, topRight.y - f * 0.9), size: f * 1.1,
                                  color: SIMD4(0.95, 0.95, 1, 0.95), anchor: .right))
        }
    }
}
