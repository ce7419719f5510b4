import Analysis
import ArgumentParser
import Geometry
import Specviz

/// The spectrum analysis options, shared by `render`, `live` and `analyze` (issue 16).
/// Flags override the config file's keys of the same name ("scale", "bands",
/// "freq-range", "fft-size", "window", "overlap", "hop", "weighting", "tilt",
/// "db-range", "smoothing", "peak-hold", "gain", "resolution", "history"), which override the
/// defaults. Each value is parsed once, where it is read (`OptionValues+Analysis`); `apply`
/// merges the flags with the config file into the render settings.
struct AnalysisOptions: ParsableArguments {
    /// The config-file keys these options read.
    static let keys = [
        "scale", "bands", "freq-range", "fft-size", "window", "overlap", "hop", "weighting", "tilt",
        "db-range", "smoothing", "peak-hold", "gain", "resolution", "history",
    ]

    @Option(
        help:
            "Spectrogram resolution: full (one row per analysis hop, colour per pixel across, like ffmpeg's showspectrum) or grid (the original 128×128 cells). Default full.",
        transform: SpectrogramResolution.option)
    var resolution: SpectrogramResolution?

    @Option(help: "Seconds of sound the full-resolution spectrogram shows, top to bottom, at any frame size (1–600; default 10).")
    var history: Double?

    @Option(
        help: "Frequency scale: log, linear, mel, bark, erb, notes (one band per semitone) or octave:N (N = 1, 2, 3, 6, 12, 24; IEC 61260 bands). Default log.",
        completion: Completions.scales, transform: FrequencyScale.option)
    var scale: FrequencyScale?

    @Option(help: "Band count of the continuous scales (16–1024; default 128).")
    var bands: Int?

    @Option(name: .customLong("freq-range"), help: "Frequency range LO:HI in Hz (default 20:20000).", transform: FrequencyRange.option)
    var freqRange: FrequencyRange?

    @Option(name: .customLong("fft-size"), help: "FFT length: a power of two 512–65536 (default 2048).")
    var fftSize: Int?

    @Option(
        help: "Window: hann, hamming, blackman, blackman-harris, flat-top, kaiser[:BETA] or rect (default hann).", completion: Completions.windows,
        transform: WindowKind.option)
    var window: WindowKind?

    @Option(help: "Overlap of successive FFTs, 0–0.95 (default: hop of min(FFT size, 2048) samples).")
    var overlap: Double?

    @Option(help: "Samples between analyses (instead of --overlap).")
    var hop: Int?

    @Option(help: "Frequency weighting: none, A, B, C, D or itu468 (default none).", completion: Completions.weightings, transform: Weighting.option)
    var weighting: Weighting?

    @Option(
        parsing: .unconditional,
        help:
            "Spectral tilt: auto (adaptive, per track), seed (the original music-mode curve), off, or a slope in dB per octave around 1 kHz. Default off (pink noise reads flat) for render, live and analyze; the level axis names any tilt.",
        transform: Tilt.option)
    var tilt: Tilt?

    @Flag(name: .customLong("no-tilt"), help: "Same as --tilt off.")
    var noTilt = false

    @Option(
        name: .customLong("db-range"), parsing: .unconditional, help: "Level range LO:HI in dB (e.g. -90:0, fixed) or auto (auto-level, default).",
        transform: LevelRange.option)
    var dbRange: LevelRange?

    @Option(
        help: "Display smoothing ATTACK:RELEASE time constants in ms (default: the original per-frame 0.35/0.12, ≈ 39:130 at 60 fps).",
        transform: SmoothingTimes.option)
    var smoothing: SmoothingTimes?

    @Option(name: .customLong("peak-hold"), help: "Seconds a peak marker holds before it falls (default 0).")
    var peakHold: Double?

    @Option(parsing: .unconditional, help: "Static gain added to every band (dB).")
    var gain: Float?

    /// The keys set on the command line (a value from there is not the config file's fault).
    var given: Set<String> {
        let set: [(String, Bool)] = [
            ("scale", scale != nil), ("bands", bands != nil), ("freq-range", freqRange != nil), ("fft-size", fftSize != nil),
            ("window", window != nil), ("overlap", overlap != nil), ("hop", hop != nil), ("weighting", weighting != nil),
            ("tilt", tilt != nil || noTilt), ("db-range", dbRange != nil), ("smoothing", smoothing != nil),
            ("peak-hold", peakHold != nil), ("gain", gain != nil), ("resolution", resolution != nil),
            ("history", history != nil),
        ]
        return Set(set.filter(\.1).map(\.0))
    }

    /// Merges the flags with `file` into `settings`: the analysis, the display smoothing at
    /// `settings.fps` and the spectrogram's resolution. `defaultTilt` is the tilt when
    /// neither sets one. A value the file set and that is wrong names the file and line.
    func apply(to settings: inout RenderSettings, file: Config, defaultTilt: Tilt = AnalysisConfig.defaultTilt) throws {
        try file.blaming(given: given) {
            settings.analysis = try config(file: file.analysis, defaultTilt: defaultTilt)
            settings.smoothing = try smoothing(fps: settings.fps, file: file.analysis)
            settings.fullResolutionSpectrogram = (try resolution ?? file.analysis.resolution?.get() ?? .full) == .full
            let seconds = try history ?? file.analysis.history?.get().value ?? RenderSettings.defaultHistorySeconds
            guard seconds.isFinite, (1...600).contains(seconds) else { throw ValidationError("--history must be 1…600 seconds") }
            settings.historySeconds = seconds
        }
    }

    private func config(file: AnalysisKeys, defaultTilt: Tilt) throws -> AnalysisConfig {
        var c = AnalysisConfig()
        let s = try scale ?? file.scale?.get() ?? .log
        c.scale = s
        if let b = try bands ?? file.bands?.get().value {
            guard (16...1024).contains(b) else { throw ValidationError("--bands must be 16…1024") }
            c.bands = b
        }
        if let r = try freqRange ?? file.freqRange?.get() { (c.lowHz, c.highHz) = (r.low, r.high) }
        if c.layout.count == 0 {
            throw ValidationError("--freq-range \(Int(c.lowHz)):\(Int(c.highHz)) holds no band of --scale \(s)")
        }
        if let n = try fftSize ?? file.fftSize?.get().value {
            guard (512...65536).contains(n), n & (n - 1) == 0 else { throw ValidationError("--fft-size must be a power of two 512…65536") }
            c.fftSize = n
        }
        if let w = try window ?? file.window?.get() { c.window = w }
        if overlap != nil && hop != nil { throw ValidationError("give --overlap or --hop, not both") }
        if let o = try overlap ?? (hop == nil ? file.overlap?.get().value : nil) {
            guard o >= 0 && o <= 0.95 else { throw ValidationError("--overlap must be 0…0.95") }
            c.hop = max(1, Int((Double(c.fftSize) * (1 - o)).rounded()))
        }
        if let h = try hop ?? (overlap == nil ? file.hop?.get().value : nil) {
            guard h >= 64 && h <= c.fftSize else { throw ValidationError("--hop must be 64…FFT size samples") }
            c.hop = h
        }
        if let w = try weighting ?? file.weighting?.get() { c.weighting = w }
        if noTilt && tilt != nil { throw ValidationError("give --tilt or --no-tilt, not both") }
        c.tilt = try noTilt ? .off : tilt ?? file.tilt?.get() ?? defaultTilt
        if let r = try dbRange ?? file.dbRange?.get() { c.dbRange = r.decibels }
        if let g = try gain ?? (file.gain?.get().value).map({ Float($0) }) {
            guard abs(g) <= 60 else { throw ValidationError("--gain must be −60…60 dB") }
            c.gainDB = g
        }
        return c
    }

    /// The display smoothing at `fps` video frames per second.
    private func smoothing(fps: Int, file: AnalysisKeys) throws -> Smoothing {
        // The seed's per-frame values at 60 fps, the same time constants at other rates.
        let ms = Smoothing.seedMilliseconds
        var result = fps == 60 ? Smoothing.seed : Smoothing(attackMS: ms.attack, releaseMS: ms.release, fps: fps)
        if let t = try smoothing ?? file.smoothing?.get() {
            result = Smoothing(attackMS: t.attackMS, releaseMS: t.releaseMS, fps: fps)
        }
        if let h = try peakHold ?? file.peakHold?.get().value {
            guard h >= 0 && h <= 60 else { throw ValidationError("--peak-hold must be 0…60 seconds") }
            result.holdFrames = Int32((h * Double(fps)).rounded())
        }
        return result
    }
}
