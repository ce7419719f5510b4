import SpecvizCore

/// `--mode circular`: radial bars around a ring (`CircularMode`), with its frequency labels
/// around the ring.
public struct Circular: Mode {
    public init() {}
    public var name: String { "circular" }
    public var summary: String { "128 radial bars around a ring" }
    public var traits: ModeTraits { ModeTraits(labels: .own) }
    public func makeBuilder(_ settings: ModeSettings) -> any ModeBuilder { CircularMode(palette: settings.palette) }
    public func buildLabels(_ state: VisualState, layout: Layout, settings: ModeSettings, title: String?, into scene: inout Scene) {
        guard layout.labels else { return }
        Circular.ringLabels(state, layout: layout, into: &scene)
        Labels.waveformAndTitle(title, layout: layout, into: &scene)
    }

    /// Frequency labels around the ring at their angles, just outside its largest radius,
    /// and the dB window in the lower-left corner of the spectrum area.
    static func ringLabels(_ state: VisualState, layout: Layout, into scene: inout Scene) {
        let f = layout.fontSize
        let ring = CircularMode.geometry(layout: layout)
        for (hz, text) in state.frequencyLabels where state.axis.position(ofFrequency: hz) < 0.995 {
            let t = Float(state.axis.position(ofFrequency: hz))
            let dir = CircularMode.direction(position: t)
            let radius = ring.unitPixels * CircularMode.labelRadius
            let centre = layout.pixel(ring.center)
            let p = SIMD2(centre.x + dir.x * radius, centre.y - dir.y * radius)
            scene.addText(TextRun(text, at: SIMD2(p.x, p.y + f * 0.36), size: f * 0.9, color: Labels.textColor, anchor: .center))
        }
        let corner = layout.pixel(SIMD2(layout.spectrum.x0, layout.spectrum.y0))
        let text = "\(Int(saturating: state.dbBottom.rounded())) … \(Int(saturating: state.dbTop.rounded())) \(state.levelUnit)"
        scene.addText(TextRun(text, at: SIMD2(corner.x, corner.y - f * 0.2), size: f * 0.8, color: Labels.dimColor))
    }
}

extension VisualizationMode {
    public static let circular = VisualizationMode(Circular())
}
