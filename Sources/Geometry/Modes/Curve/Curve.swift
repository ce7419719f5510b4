/// `--mode curve`: the filled spectrum curve (`CurveMode`).
public struct Curve: Mode {
    public init() {}
    public var name: String { "curve" }
    public var summary: String { "filled spectrum curve with a bright outline and peak squares" }
    public var traits: ModeTraits { ModeTraits(overlays: true, labels: .axes(.linear), stereo: true) }
    public func makeBuilder(_ settings: ModeSettings) -> any ModeBuilder { CurveMode(palette: settings.palette) }
}

extension VisualizationMode {
    public static let curve = VisualizationMode(Curve())
}
