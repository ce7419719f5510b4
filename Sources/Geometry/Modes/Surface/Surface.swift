import SpecvizCore

/// `--mode surface`: the 3D waterfall (`SurfaceMode`), with its own axis labels.
public struct Surface: Mode {
    public init() {}
    public var name: String { "surface" }
    public var summary: String { "3D waterfall: lit mesh of the last 60 spectra" }
    public var traits: ModeTraits { ModeTraits(overlays: true, labels: .own) }
    public func makeBuilder(_ settings: ModeSettings) -> any ModeBuilder { SurfaceMode(ridgelines: false, palette: settings.palette) }
    public func buildLabels(_ state: VisualState, layout: Layout, settings: ModeSettings, title: String?, into scene: inout Scene) {
        SurfaceMode.labels(state, layout: layout, into: &scene, title: title)
    }
    public func makeState(_ settings: ModeSettings, height: Int) -> (any ModeState)? { SurfaceState() }
    // No damage key: the front row and the scroll move its picture on every frame.
}

/// `--mode surface+`: the 3D waterfall with a ridgeline along each spectrum.
public struct SurfacePlus: Mode {
    public init() {}
    public var name: String { "surface+" }
    public var summary: String { "3D waterfall with ridgelines along each spectrum" }
    public var traits: ModeTraits { Surface().traits }
    public func makeBuilder(_ settings: ModeSettings) -> any ModeBuilder { SurfaceMode(ridgelines: true, palette: settings.palette) }
    public func buildLabels(_ state: VisualState, layout: Layout, settings: ModeSettings, title: String?, into scene: inout Scene) {
        SurfaceMode.labels(state, layout: layout, into: &scene, title: title)
    }
    public func makeState(_ settings: ModeSettings, height: Int) -> (any ModeState)? { SurfaceState() }
    // No damage key: the front row and the scroll move its picture on every frame.
}

extension VisualizationMode {
    public static let surface = VisualizationMode(Surface())
    public static let surfacePlus = VisualizationMode(SurfacePlus())
}
