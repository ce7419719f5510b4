/// `--mode bars`: 128 gradient bars with falling peaks (`BarsMode`).
public struct Bars: Mode {
    public init() {}
    public var name: String { "bars" }
    public var summary: String { "128 gradient bars with falling peaks" }
    public var traits: ModeTraits { ModeTraits(overlays: true, labels: .axes(.linear), stereo: true) }
    public func makeBuilder(_ settings: ModeSettings) -> any ModeBuilder { BarsMode(palette: settings.palette) }
}

extension VisualizationMode {
    public static let bars = VisualizationMode(Bars())
}
