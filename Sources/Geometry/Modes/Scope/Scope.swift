/// `--mode scope`: the triggered oscilloscope (`ScopeMode`), fed by the scope trigger; a
/// stereo input adds a vector scope.
public struct Scope: Mode {
    public init() {}
    public var name: String { "scope" }
    public var summary: String { "oscilloscope: triggered waveform with phosphor persistence" }
    public var traits: ModeTraits { ModeTraits(waveformStrip: false, labels: .titleOnly, needsScope: true, vectorScope: true) }
    public func makeBuilder(_ settings: ModeSettings) -> any ModeBuilder { ScopeMode() }
    public func makeState(_ settings: ModeSettings, height: Int) -> (any ModeState)? { ScopeState() }
}

extension VisualizationMode {
    public static let scope = VisualizationMode(Scope())
}
