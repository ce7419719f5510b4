import ArgumentParser
import Geometry
import Specviz
import Tuning

/// Options that decide how frames look, shared by `render` and `live`.
struct LookOptions: ParsableArguments {
    @Option(
        name: .shortAndLong, help: "Visualisation mode: \(VisualizationMode.allCases.map(\.rawValue).joined(separator: ", ")).",
        completion: Completions.modes, transform: VisualizationMode.option)
    var mode: VisualizationMode?

    @Option(help: "Frame size WxH (e.g. 1920x1080, 1080x1920, 1080x1080); default 1920x1080.", transform: FrameSize.option)
    var size: FrameSize?

    @Option(help: "Video frames per second (default 60).")
    var fps: Int?

    @Flag(name: .customLong("no-labels"), help: "No text (labels, title, readouts).")
    var noLabels = false

    @Option(help: "Title drawn in the corner of the video.")
    var title: String?

    @Option(
        help:
            "Colour table: \(Palette.all.map(\.name).joined(separator: ", ")). Sets the spectrogram's heatmap in spectrogram mode, else the frequency gradient (defaults: magma, spectrum; heat is the old rainbow heatmap).",
        completion: Completions.palettes, transform: Palette.option)
    var palette: Palette?

    @Flag(help: "Show the render time / FPS readout.")
    var stats = false

    @Flag(inversion: .prefixedNo, help: "Tuner overlay (note and cents) in bars, curve, surface, surface+.")
    var tuner: Bool?

    @Flag(inversion: .prefixedNo, help: "BPM overlay with beat dot and beat flash in bars, curve, surface, surface+.")
    var bpm: Bool?

    @Option(help: "Tuning preset for the tuner (see `specviz presets`); default chromatic.", completion: Completions.presets, transform: TuningPreset.option)
    var preset: TuningPreset?

    @Option(help: "Reference pitch of A4 in Hz (400–480); default 440.", transform: ReferencePitch.option)
    var reference: ReferencePitch?

    @OptionGroup var tuningSystem: TuningSystemOptions

    @Option(
        help: "Tuner view meter pair: arc (LED arc + chromatic strip), wheel (note wheel + ruler), strobe (stroboscope + info bar).",
        completion: Completions.meters, transform: TunerMeter.option)
    var meter: TunerMeter = .arc

    @Option(help: "Rasteriser threads (1…\(Self.maxThreads)).")
    var threads: Int = 2

    /// The most rasteriser threads: a value outside 1…16 is refused, not clamped.
    static let maxThreads = 16

    func validate() throws {
        if !(1...Self.maxThreads).contains(threads) {
            throw ValidationError("--threads must be 1…\(Self.maxThreads) (got \(threads))")
        }
    }

    /// Flags override the config file (SPEC §8, read once by the command), which overrides
    /// the built-in defaults.
    func settings(config: Config) throws -> RenderSettings {
        let size = self.size ?? config.size ?? .standard, fps = self.fps ?? config.fps ?? 60
        var s = RenderSettings()
        s.mode = mode ?? config.mode ?? .default
        s.width = size.width
        s.height = size.height
        guard (1...240).contains(fps) else { throw ValidationError("--fps must be 1…240") }
        s.fps = fps
        if let palette {
            if s.mode.traits.paletteIsHeatmap { s.heatPalette = palette } else { s.palette = palette }
        }
        s.labels = !noLabels
        s.title = InputChecks.capped(title, "title")
        s.stats = stats
        s.tunerOverlay = tuner ?? config.tuner ?? false
        s.tempoOverlay = bpm ?? config.bpm ?? false
        s.preset = preset ?? config.preset ?? .chromatic
        s.reference = (reference ?? config.reference ?? .standard).hertz
        s.tuningSystem = try tuningSystem.system(config: config)
        s.meter = meter
        s.threads = threads
        return s
    }

    /// A note when `--tuner` or `--bpm` was given for a mode that draws no overlays (SPEC §4:
    /// they show in bars, curve, surface and surface+), which would otherwise drop them
    /// silently; nil when they show. The tuner mode is a tuner itself: `--tuner` there says nothing.
    func overlayNote(for settings: RenderSettings) -> String? {
        let traits = settings.mode.traits
        guard !traits.overlays else { return nil }
        let asked = [(tuner == true && !traits.needsPitch, "--tuner"), (bpm == true, "--bpm")].filter(\.0).map(\.1)
        guard !asked.isEmpty else { return nil }
        let modes = ModeCatalog.modes.filter(\.traits.overlays).map(\.name).joined(separator: ", ")
        let verb = asked.count == 1 ? "shows" : "show"
        return "\(settings.mode.rawValue) mode draws no overlays: \(asked.joined(separator: " and ")) \(verb) only in \(modes)"
    }
}
