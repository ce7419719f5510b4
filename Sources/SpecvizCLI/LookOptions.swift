import ArgumentParser
import Geometry
import Specviz
import Tuning

/// Options that decide how frames look, shared by `render` and `live`.
struct LookOptions: ParsableArguments {
    @Option(name: .shortAndLong, help: "Visualisation mode: \(VisualizationMode.allCases.map(\.rawValue).joined(separator: ", ")).")
    var mode: String?

    @Option(help: "Frame size WxH (e.g. 1920x1080, 1080x1920, 1080x1080); default 1920x1080.")
    var size: String?

    @Option(help: "Video frames per second (default 60).")
    var fps: Int?

    @Flag(name: .customLong("no-labels"), help: "No text (labels, title, readouts).")
    var noLabels = false

    @Option(help: "Title drawn in the corner of the video.")
    var title: String?

    @Option(help: "Colour table: \(Palette.all.map(\.name).joined(separator: ", ")). Sets the spectrogram's heatmap in spectrogram mode, else the frequency gradient (defaults: heat, spectrum).")
    var palette: String?

    @Flag(help: "Show the render time / FPS readout.")
    var stats = false

    @Flag(inversion: .prefixedNo, help: "Tuner overlay (note and cents) in bars, curve, surface, surface+.")
    var tuner: Bool?

    @Flag(inversion: .prefixedNo, help: "BPM overlay with beat dot and beat flash in bars, curve, surface, surface+.")
    var bpm: Bool?

    @Option(help: "Tuning preset for the tuner (see `specviz presets`); default chromatic.")
    var preset: String?

    @Option(help: "Reference pitch of A4 in Hz (400–480); default 440.")
    var reference: Double?

    @OptionGroup var tuningSystem: TuningSystemOptions

    @Option(help: "Tuner view meter pair: arc (LED arc + chromatic strip), wheel (note wheel + ruler), strobe (stroboscope + info bar).")
    var meter: String = "arc"

    @Option(help: "Rasteriser threads.")
    var threads: Int = 2

    /// Flags override the config file (SPEC §8), which overrides the built-in defaults.
    func settings() throws -> RenderSettings {
        let config = try Config.load()
        let mode = self.mode ?? config.mode ?? "bars", size = self.size ?? config.size ?? "1920x1080"
        let fps = self.fps ?? config.fps ?? 60, preset = self.preset ?? config.preset ?? "chromatic"
        let reference = self.reference ?? config.reference ?? 440
        var s = RenderSettings()
        guard let m = VisualizationMode(rawValue: mode.lowercased()) else {
            throw ValidationError("unknown mode '\(mode)' (modes: \(VisualizationMode.allCases.map(\.rawValue).joined(separator: ", ")))")
        }
        s.mode = m
        let parts = size.lowercased().split(separator: "x")
        guard parts.count == 2, let w = Int(parts[0]), let h = Int(parts[1]), (16...8192).contains(w), (16...8192).contains(h) else {
            throw ValidationError("--size must be WxH with 16…8192 pixels each, e.g. 1920x1080")
        }
        guard w % 2 == 0 && h % 2 == 0 else { throw ValidationError("--size must be even in both directions (video needs it)") }
        s.width = w
        s.height = h
        guard (1...240).contains(fps) else { throw ValidationError("--fps must be 1…240") }
        s.fps = fps
        if let palette {
            guard let p = Palette.named(palette) else {
                throw ValidationError("unknown palette '\(palette)' (palettes: \(Palette.all.map(\.name).joined(separator: ", ")))")
            }
            if m == .spectrogram { s.heatPalette = p } else { s.palette = p }
        }
        s.labels = !noLabels
        s.title = title
        s.stats = stats
        s.tunerOverlay = tuner ?? config.tuner ?? false
        s.tempoOverlay = bpm ?? config.bpm ?? false
        guard TuningPreset.named(preset) != nil else {
            throw ValidationError(InputChecks.unknownPreset(preset) + (self.preset == nil ? " in the config file" : ""))
        }
        s.preset = preset
        guard (400...480).contains(reference) else { throw ValidationError("--reference must be 400–480 Hz") }
        s.reference = reference
        s.tuningSystem = try tuningSystem.system(config: config)
        guard let tm = TunerMeter(rawValue: meter.lowercased()) else {
            throw ValidationError("unknown meter '\(meter)' (meters: arc, wheel, strobe)")
        }
        s.meter = tm
        s.threads = max(1, min(threads, 16))
        return s
    }
}
