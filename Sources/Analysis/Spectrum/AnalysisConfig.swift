/// Every choice of the spectrum analysis (`--scale`, `--bands`, `--freq-range`,
/// `--fft-size`, `--window`, `--overlap`/`--hop`, `--weighting`, `--tilt`, `--db-range`,
/// `--gain`). The defaults are the seed's analysis (Hann, 2048, hop 2048, 128 log bands
/// 20 Hz–20 kHz, auto-level) with no tilt (`AnalysisConfig.defaultTilt`).
public struct AnalysisConfig: Sendable, Equatable {
    public var scale: FrequencyScale = .log
    /// Band count of the continuous scales (16…1024).
    public var bands = 128
    public var lowHz = 20.0
    public var highHz = 20_000.0
    /// FFT length (samples, power of two 512…65536).
    public var fftSize = 2048
    public var window: WindowKind = .hann
    /// Samples between analyses; nil: min(fftSize, 2048) (the seed's 2048 at the default size).
    public var hop: Int? = nil
    public var weighting: Weighting = .none
    public var tilt: Tilt = AnalysisConfig.defaultTilt
    /// Fixed display range (dB), or nil for the seed's auto-level.
    public var dbRange: ClosedRange<Float>? = nil
    /// Static gain added to every band (dB).
    public var gainDB: Float = 0

    /// The one default of render, live and analyze: no tilt, so the bands read band power
    /// in dBFS and pink noise (equal power per octave) reads flat on the log bands, as it
    /// sounds (issue 39; docs/ANALYSIS.md). `auto`, `seed` and slopes stay a choice, and
    /// the level axis names them.
    public static let defaultTilt: Tilt = .off

    public init() {}

    /// The seed's analysis exactly: music mode (seed tilt) or mic mode (no tilt).
    public static func seed(musicMode: Bool, gainDB: Float = 0) -> AnalysisConfig {
        var c = AnalysisConfig()
        c.tilt = musicMode ? .seed : .seedUntilted
        c.gainDB = gainDB
        return c
    }

    /// Samples between analyses.
    public var hopSize: Int { hop ?? min(fftSize, 2048) }

    /// The display bands this configuration draws.
    public var layout: BandLayout {
        scale == .log && bands == 128 && lowHz == 20 && highHz == 20_000
            ? .standard : BandLayout(scale: scale, bands: bands, lowHz: lowHz, highHz: highHz)
    }
}

/// The spectral tilt (`--tilt`), added to the band levels in dB.
public enum Tilt: Sendable, Equatable, CustomStringConvertible {
    /// The seed's music-mode curve, +5·(octaves above 200 Hz)^1.4 dB, on the seed's band
    /// levels (mean dB of the bins in a band: a spectral density).
    case seed
    /// The seed's band levels with no tilt (the seed's mic mode).
    case seedUntilted
    /// A slow per-track adaptive tilt: fits a line (dB per octave) to the long-term average
    /// band power and removes `autoFraction` of it, pivoting at 1 kHz.
    case auto
    /// A fixed slope in dB per octave, pivoting at 1 kHz (0: off).
    case slope(Double)

    public static let off = Tilt.slope(0)

    /// Parses `seed|auto|off|DB_PER_OCTAVE`.
    public init?(parsing text: String) {
        switch text.lowercased() {
        case "seed": self = .seed
        case "auto": self = .auto
        case "off", "none", "0": self = .off
        default:
            guard let v = Double(text.hasSuffix("db") ? String(text.dropLast(2)) : text), v.isFinite, abs(v) <= 24 else { return nil }
            self = .slope(v)
        }
    }

    public var description: String {
        switch self {
        case .seed: return "seed"
        case .seedUntilted: return "seed (untilted)"
        case .auto: return "auto"
        case .slope(let v): return v == 0 ? "off" : "\(v)"
        }
    }

    /// True for the seed's level measure (mean dB of bins); the others draw band power.
    public var usesSeedLevels: Bool { self == .seed || self == .seedUntilted }
}
