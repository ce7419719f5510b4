import Analysis
import ArgumentParser

// The analysis options' values (issue 38): each parsed once, from the flag's text
// (`@Option(transform:)`) or the config file's key (`Config`), by the same function, with
// the same one-line message naming the option. What depends on other options (a hop longer
// than the FFT, a range holding no band) is checked where they are merged.

extension FrequencyScale: OptionValue {
    static let noun = "scale"
    init(parsing text: String) throws {
        guard let s = FrequencyScale(parsing: text) else {
            throw ValidationError("unknown --scale '\(text)' (log, linear, mel, bark, erb, notes, octave:N with N = 1, 2, 3, 6, 12, 24)")
        }
        self = s
    }
}

extension WindowKind: OptionValue {
    static let noun = "window"
    init(parsing text: String) throws {
        guard let k = WindowKind(parsing: text) else {
            throw ValidationError("unknown --window '\(text)' (hann, hamming, blackman, blackman-harris, flat-top, kaiser[:BETA], rect)")
        }
        self = k
    }
}

extension Weighting: OptionValue {
    static let noun = "weighting"
    init(parsing text: String) throws {
        guard let k = Weighting(parsing: text) else { throw ValidationError("unknown --weighting '\(text)' (none, A, B, C, D, itu468)") }
        self = k
    }
}

extension Tilt: OptionValue {
    static let noun = "tilt"
    init(parsing text: String) throws {
        guard let k = Tilt(parsing: text) else { throw ValidationError("unknown --tilt '\(text)' (auto, seed, off, or dB per octave −24…24)") }
        self = k
    }
}

/// `--freq-range LO:HI` (Hz): 1 ≤ LO, HI > 1.05 LO, HI ≤ 96000.
struct FrequencyRange: OptionValue, Equatable {
    static let noun = "frequency range"
    var low: Double
    var high: Double
    init(parsing text: String) throws {
        guard let (lo, hi) = numberPair(text), lo >= 1, hi > lo * 1.05, hi <= 96_000 else {
            throw ValidationError("--freq-range must be LO:HI in Hz with 1 ≤ LO < HI ≤ 96000, e.g. 20:20000")
        }
        (low, high) = (lo, hi)
    }
}

/// `--db-range`: `auto` (auto-level) or a fixed LO:HI in dB (−240…60, at least 6 dB apart).
enum LevelRange: OptionValue, Equatable {
    case auto
    case fixed(ClosedRange<Float>)
    static let noun = "level range"
    init(parsing text: String) throws {
        if text.lowercased() == "auto" { self = .auto; return }
        guard let (lo, hi) = numberPair(text), hi > lo, hi - lo >= 6, lo >= -240, hi <= 60 else {
            throw ValidationError("--db-range must be auto or LO:HI in dB (−240…60, at least 6 dB apart), e.g. -90:0")
        }
        self = .fixed(Float(lo)...Float(hi))
    }
    /// The analysis's fixed range, nil for auto-level.
    var decibels: ClosedRange<Float>? {
        if case .fixed(let r) = self { return r }
        return nil
    }
}

/// `--smoothing ATTACK:RELEASE`: the display's time constants in ms (0…60000 each).
struct SmoothingTimes: OptionValue, Equatable {
    static let noun = "smoothing"
    var attackMS: Double
    var releaseMS: Double
    init(parsing text: String) throws {
        guard let (a, r) = numberPair(text), a >= 0, r >= 0, a <= 60_000, r <= 60_000 else {
            throw ValidationError("--smoothing must be ATTACK:RELEASE in ms (0…60000), e.g. 40:130")
        }
        (attackMS, releaseMS) = (a, r)
    }
}

/// `--resolution`: the spectrogram's `full` resolution (a row per hop) or the original `grid`.
enum SpectrogramResolution: String, OptionValue, Equatable {
    case full, grid
    static let noun = "resolution"
    init(parsing text: String) throws {
        switch text.lowercased() {
        case "full": self = .full
        case "grid", "seed": self = .grid
        default: throw ValidationError("unknown --resolution '\(text)' (full, grid)")
        }
    }
}

/// A whole-number key of the config file ("bands", "fft-size", "hop").
struct WholeNumber: Equatable {
    var value: Int
    init(parsing text: String, key: String) throws {
        guard let v = Int(text) else { throw ValidationError("--\(key) must be a whole number (got '\(text)')") }
        value = v
    }
}

/// A number key of the config file ("overlap", "peak-hold", "gain").
struct FiniteNumber: Equatable {
    var value: Double
    init(parsing text: String, key: String) throws {
        guard let v = Double(text), v.isFinite else { throw ValidationError("--\(key) must be a number (got '\(text)')") }
        value = v
    }
}

/// "A:B" as two finite numbers (a leading minus allowed on both).
func numberPair(_ text: String) -> (Double, Double)? {
    let parts = text.split(separator: ":", omittingEmptySubsequences: false)
    guard parts.count == 2, let a = Double(parts[0]), let b = Double(parts[1]), a.isFinite, b.isFinite else { return nil }
    return (a, b)
}
