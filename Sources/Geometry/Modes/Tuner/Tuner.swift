/// `--mode tuner`: the chromatic tuner view (`TunerViewMode`), fed by the pitch tracker.
public struct Tuner: Mode {
    public init() {}
    public var name: String { "tuner" }
    public var summary: String { "chromatic tuner: LED arc, note wheel, stroboscope" }
    public var traits: ModeTraits { ModeTraits(waveformStrip: false, labels: .none, needsPitch: true) }
    public func makeBuilder(_ settings: ModeSettings) -> any ModeBuilder {
        TunerViewMode(meter: settings.meter, preset: settings.preset, reference: settings.reference)
    }
    public func makeState(_ settings: ModeSettings, height: Int) -> (any ModeState)? { TunerState() }
    /// Its picture is its state's alone: it changes with the state's revision.
    public func damageKey(_ state: VisualState) -> Int? { state.modeState?.revision }
}

extension VisualizationMode {
    public static let tuner = VisualizationMode(Tuner())
}
