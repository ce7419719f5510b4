import Analysis

/// `--mode spectrogram`: the scrolling heatmap, on the seed's 128×128 grid
/// (`SpectrogramMode`) or one row per hop (`FullSpectrogramMode`, `ModeSettings.fullResolution`).
public struct Spectrogram: Mode {
    public init() {}
    public var name: String { "spectrogram" }
    public var summary: String { "scrolling 128x128 heatmap (time up, frequency across)" }
    public var traits: ModeTraits { ModeTraits(labels: .axes(.heatmap), paletteIsHeatmap: true, stereo: true) }
    public func makeBuilder(_ settings: ModeSettings) -> any ModeBuilder {
        settings.fullResolution ? FullSpectrogramMode(palette: settings.heatPalette) : SpectrogramMode(palette: settings.heatPalette)
    }
    /// At full resolution, one history row per pixel row of the plot (at least 16), each
    /// standing for `historySeconds` over the rows.
    public func makeState(_ settings: ModeSettings, height: Int) -> (any ModeState)? {
        var state = SpectrogramState()
        if settings.fullResolution {
            let rows = max(settings.plotRows > 0 ? settings.plotRows : height, 16)
            state.hops = History(rows: rows, bands: LogBands.count)
            state.rowSeconds = settings.historySeconds > 0 ? settings.historySeconds / Double(rows) : 0
        }
        return state
    }
    /// Its picture is its state's alone: it changes with the state's revision.
    public func damageKey(_ state: VisualState) -> Int? { state.modeState?.revision }
    /// A new row moves the history's rows down (by whole pixel rows when a row is a whole
    /// number of pixels tall, as at full resolution).
    public func scrolls(_ settings: ModeSettings) -> Bool { true }
}

extension VisualizationMode {
    public static let spectrogram = VisualizationMode(Spectrogram())
}
