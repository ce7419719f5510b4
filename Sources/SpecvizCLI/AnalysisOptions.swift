import Analysis
import ArgumentParser
import Geometry
import Specviz

/// The spectrum analysis options, shared by `render`, `live` and `analyze` (issue 16).
/// Flags override the config file's keys of the same name ("scale", "bands",
/// "freq-range", "fft-size", "window", "overlap", "hop", "weighting", "tilt",
/// "db-range", "smoothing", "peak-hold", "gain"), which override the defaults.
struct AnalysisOptions: ParsableArguments {
    /// The config-file keys these options read.
    static let keys = [
        "scale", "bands", "freq-range", "fft-size", "window", "overlap", "hop", "weighting", "tilt",
        "db-range", "smoothing", "peak-hold", "gain", "resolution",
    ]

    @Option(
        help:
            "Spectrogram resolution: full (one row per analysis hop, colour per pixel across, like ffmpeg's showspectrum) or grid (the original 128×128 cells). Default full."
    )
    var resolution: String?

    @Option(
        help: "Frequency scale: log, linear, mel, bark, erb, notes (one band per semitone) or octave:N (N = 1, 2, 3, 6, 12, 24; IEC 61260 bands). Default log.")
    var scale: String?

    @Option(help: "Band count of the continuous scales (16–1024; default 128).")
    var bands: Int?

    @Option(name: .customLong("freq-range"), help: "Frequency range LO:HI in Hz (default 20:20000).")
    var freqRange: String?

    @Option(name: .customLong("fft-size"), help: "FFT length: a power of two 512–65536 (default 2048).")
    var fftSize: Int?

    @Option(help: "Window: hann, hamming, blackman, blackman-harris, flat-top, kaiser[:BETA] or rect (default hann).")
    var window: String?

    @Option(help: "Overlap of successive FFTs, 0–0.95 (default: hop of min(FFT size, 2048) samples).")
    var overlap: Double?

    @Option(help: "Samples between analyses (instead of --overlap).")
    var hop: Int?

    @Option(help: "Frequency weighting: none, A, B, C, D or itu468 (default none).")
    var weighting: String?

    @Option(
        parsing: .unconditional,
        help:
            "Spectral tilt: auto (adaptive, per track), seed (the original music-mode curve), off, or a slope in dB per octave around 1 kHz. Default auto for files, off for `live`."
    )
    var tilt: String?

    @Flag(name: .customLong("no-tilt"), help: "Same as --tilt off.")
    var noTilt = false

    @Option(name: .customLong("db-range"), parsing: .unconditional, help: "Level range LO:HI in dB (e.g. -90:0, fixed) or auto (auto-level, default).")
    var dbRange: String?

    @Option(help: "Display smoothing ATTACK:RELEASE time constants in ms (default: the original per-frame 0.35/0.12, ≈ 39:130 at 60 fps).")
    var smoothing: String?

    @Option(name: .customLong("peak-hold"), help: "Seconds a peak marker holds before it falls (default 0).")
    var peakHold: Double?

    @Option(parsing: .unconditional, help: "Static gain added to every band (dB).")
    var gain: Float?

    /// The analysis configuration. `defaultTilt` is the tilt when neither a flag nor the
    /// config file sets one.
    func config(defaultTilt: Tilt = AnalysisConfig.defaultTilt) throws -> AnalysisConfig {
        let file = try Config.load()
        return try file.blaming(given: given) { try config(file: file, defaultTilt: defaultTilt) }
    }

    /// The keys set on the command line (a value from there is not the config file's fault).
    var given: Set<String> {
        let set: [(String, Bool)] = [
            ("scale", scale != nil), ("bands", bands != nil), ("freq-range", freqRange != nil), ("fft-size", fftSize != nil),
            ("window", window != nil), ("overlap", overlap != nil), ("hop", hop != nil), ("weighting", weighting != nil),
            ("tilt", tilt != nil || noTilt), ("db-range", dbRange != nil), ("smoothing", smoothing != nil),
            ("peak-hold", peakHold != nil), ("gain", gain != nil), ("resolution", resolution != nil),
        ]
        return Set(set.filter(\.1).map(\.0))
    }

    private func config(file: Config, defaultTilt: Tilt) throws -> AnalysisConfig {
        var c = AnalysisConfig()
        let scaleText = scale ?? file.analysis["scale"] ?? "log"
        guard let s = FrequencyScale(parsing: scaleText) else {
            throw ValidationError("unknown --scale '\(scaleText)' (log, linear, mel, bark, erb, notes, octave:N with N = 1, 2, 3, 6, 12, 24)")
        }
        c.scale = s
        if let b = try bands ?? file.analysis["bands"].map({ try Self.int($0, "bands") }) {
            guard (16...1024).contains(b) else { throw ValidationError("--bands must be 16…1024") }
            c.bands = b
        }
        if let r = freqRange ?? file.analysis["freq-range"] {
            guard let (lo, hi) = Self.pair(r), lo >= 1, hi > lo * 1.05, hi <= 96_000 else {
                throw ValidationError("--freq-range must be LO:HI in Hz with 1 ≤ LO < HI ≤ 96000, e.g. 20:20000")
            }
            c.lowHz = lo; c.highHz = hi
        }
        if c.layout.count == 0 {
            throw ValidationError("--freq-range \(Int(c.lowHz)):\(Int(c.highHz)) holds no band of --scale \(s)")
        }
        if let n = try fftSize ?? file.analysis["fft-size"].map({ try Self.int($0, "fft-size") }) {
            guard (512...65536).contains(n), n & (n - 1) == 0 else { throw ValidationError("--fft-size must be a power of two 512…65536") }
            c.fftSize = n
        }
        if let w = window ?? file.analysis["window"] {
            guard let k = WindowKind(parsing: w) else {
                throw ValidationError("unknown --window '\(w)' (hann, hamming, blackman, blackman-harris, flat-top, kaiser[:BETA], rect)")
            }
            c.window = k
        }
        if overlap != nil && hop != nil { throw ValidationError("give --overlap or --hop, not both") }
        if let o = try overlap ?? (hop == nil ? file.analysis["overlap"].map({ try Self.number($0, "overlap") }) : nil) {
            guard o >= 0 && o <= 0.95 else { throw ValidationError("--overlap must be 0…0.95") }
            c.hop = max(1, Int((Double(c.fftSize) * (1 - o)).rounded()))
        }
        if let h = try hop ?? (overlap == nil ? file.analysis["hop"].map({ try Self.int($0, "hop") }) : nil) {
            guard h >= 64 && h <= c.fftSize else { throw ValidationError("--hop must be 64…FFT size samples") }
            c.hop = h
        }
        if let w = weighting ?? file.analysis["weighting"] {
            guard let k = Weighting(parsing: w) else { throw ValidationError("unknown --weighting '\(w)' (none, A, B, C, D, itu468)") }
            c.weighting = k
        }
        if noTilt && tilt != nil { throw ValidationError("give --tilt or --no-tilt, not both") }
        if noTilt {
            c.tilt = .off
        } else if let t = tilt ?? file.analysis["tilt"] {
            guard let k = Tilt(parsing: t) else { throw ValidationError("unknown --tilt '\(t)' (auto, seed, off, or dB per octave −24…24)") }
            c.tilt = k
        } else {
            c.tilt = defaultTilt
        }
        if let r = dbRange ?? file.analysis["db-range"], r.lowercased() != "auto" {
            guard let (lo, hi) = Self.pair(r), hi > lo, hi - lo >= 6, lo >= -240, hi <= 60 else {
                throw ValidationError("--db-range must be auto or LO:HI in dB (−240…60, at least 6 dB apart), e.g. -90:0")
            }
            c.dbRange = Float(lo)...Float(hi)
        }
        if let g = try gain ?? file.analysis["gain"].map({ try Self.number($0, "gain") }).map(Float.init) {
            guard abs(g) <= 60 else { throw ValidationError("--gain must be −60…60 dB") }
            c.gainDB = g
        }
        return c
    }

    /// The display smoothing at `fps` video frames per second.
    func smoothing(fps: Int) throws -> Smoothing {
        let file = try Config.load()
        return try file.blaming(given: given) { try smoothing(fps: fps, file: file) }
    }

    private func smoothing(fps: Int, file: Config) throws -> Smoothing {
        // The seed's per-frame values at 60 fps, the same time constants at other rates.
        let ms = Smoothing.seedMilliseconds
        var result = fps == 60 ? Smoothing.seed : Smoothing(attackMS: ms.attack, releaseMS: ms.release, fps: fps)
        if let text = smoothing ?? file.analysis["smoothing"] {
            guard let (a, r) = Self.pair(text), a >= 0, r >= 0, a <= 60_000, r <= 60_000 else {
                throw ValidationError("--smoothing must be ATTACK:RELEASE in ms (0…60000), e.g. 40:130")
            }
            result = Smoothing(attackMS: a, releaseMS: r, fps: fps)
        }
        if let h = try peakHold ?? file.analysis["peak-hold"].map({ try Self.number($0, "peak-hold") }) {
            guard h >= 0 && h <= 60 else { throw ValidationError("--peak-hold must be 0…60 seconds") }
            result.holdFrames = Int32((h * Double(fps)).rounded())
        }
        return result
    }

    /// Applies the options to render settings (analysis and smoothing).
    func apply(to settings: inout RenderSettings, defaultTilt: Tilt = AnalysisConfig.defaultTilt) throws {
        settings.analysis = try config(defaultTilt: defaultTilt)
        settings.smoothing = try smoothing(fps: settings.fps)
        let file = try Config.load()
        let res = resolution ?? file.analysis["resolution"] ?? "full"
        try file.blaming(given: given) {
            switch res.lowercased() {
            case "full": settings.fullResolutionSpectrogram = true
            case "grid", "seed": settings.fullResolutionSpectrogram = false
            default: throw ValidationError("unknown --resolution '\(res)' (full, grid)")
            }
        }
    }

    /// "A:B" as two numbers (a leading minus allowed on both).
    static func pair(_ text: String) -> (Double, Double)? {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 2, let a = Double(parts[0]), let b = Double(parts[1]), a.isFinite, b.isFinite else { return nil }
        return (a, b)
    }

    static func int(_ text: String, _ key: String) throws -> Int {
        guard let v = Int(text) else { throw ValidationError("--\(key) must be a whole number (got '\(text)')") }
        return v
    }

    static func number(_ text: String, _ key: String) throws -> Double {
        guard let v = Double(text), v.isFinite else { throw ValidationError("--\(key) must be a number (got '\(text)')") }
        return v
    }
}
