import Analysis
import ArgumentParser
import Tuning

/// One key of the config file: its text as written (kept to write the file back as it was)
/// and its value, parsed once when the file is read, by the same parse as its flag. A value
/// that does not parse is an error (naming the file and the key's line) only when it is
/// used: a flag over it is not the file's fault.
struct ConfigValue<Value>: Equatable {
    var text: String
    var line: Int
    var parsed: Result<Value, ConfigError>

    /// Parses `text` with `parse`; its message becomes a `ConfigError` naming `path`, `line`
    /// and `key`.
    init(_ text: String, key: String, path: String, line: Int, _ parse: (String) throws -> Value) {
        self.text = text
        self.line = line
        do {
            parsed = .success(try parse(text))
        } catch let e as ValidationError {
            parsed = .failure(ConfigError(path: path, line: line, "\"\(key)\": \(e.message)"))
        } catch {
            parsed = .failure(ConfigError(path: path, line: line, "\"\(key)\": \(error)"))
        }
    }

    /// The value, or the error naming the file and line.
    func get() throws -> Value { try parsed.get() }

    /// Two keys are the same when written the same (the parse follows from the text).
    static func == (a: ConfigValue, b: ConfigValue) -> Bool { a.text == b.text && a.line == b.line }
}

/// The config file's analysis keys (`AnalysisOptions.keys`), each parsed once.
struct AnalysisKeys: Equatable {
    var scale: ConfigValue<FrequencyScale>?
    var bands: ConfigValue<WholeNumber>?
    var freqRange: ConfigValue<FrequencyRange>?
    var fftSize: ConfigValue<WholeNumber>?
    var window: ConfigValue<WindowKind>?
    var overlap: ConfigValue<FiniteNumber>?
    var hop: ConfigValue<WholeNumber>?
    var weighting: ConfigValue<Weighting>?
    var tilt: ConfigValue<Tilt>?
    var dbRange: ConfigValue<LevelRange>?
    var smoothing: ConfigValue<SmoothingTimes>?
    var peakHold: ConfigValue<FiniteNumber>?
    var gain: ConfigValue<FiniteNumber>?
    var resolution: ConfigValue<SpectrogramResolution>?
    var history: ConfigValue<FiniteNumber>?

    /// Sets `key` (one of `AnalysisOptions.keys`) from its text.
    mutating func set(_ key: String, _ text: String, path: String, line: Int) {
        func value<T>(_ parse: @escaping (String) throws -> T) -> ConfigValue<T> {
            ConfigValue(text, key: key, path: path, line: line, parse)
        }
        switch key {
        case "scale": scale = value(FrequencyScale.init(parsing:))
        case "bands": bands = value { try WholeNumber(parsing: $0, key: key) }
        case "freq-range": freqRange = value(FrequencyRange.init(parsing:))
        case "fft-size": fftSize = value { try WholeNumber(parsing: $0, key: key) }
        case "window": window = value(WindowKind.init(parsing:))
        case "overlap": overlap = value { try FiniteNumber(parsing: $0, key: key) }
        case "hop": hop = value { try WholeNumber(parsing: $0, key: key) }
        case "weighting": weighting = value(Weighting.init(parsing:))
        case "tilt": tilt = value(Tilt.init(parsing:))
        case "db-range": dbRange = value(LevelRange.init(parsing:))
        case "smoothing": smoothing = value(SmoothingTimes.init(parsing:))
        case "peak-hold": peakHold = value { try FiniteNumber(parsing: $0, key: key) }
        case "gain": gain = value { try FiniteNumber(parsing: $0, key: key) }
        case "resolution": resolution = value(SpectrogramResolution.init(parsing:))
        case "history": history = value { try FiniteNumber(parsing: $0, key: key) }
        default: preconditionFailure("not an analysis key: \(key)")
        }
    }

    /// The text of `key` as written, nil when the file does not set it.
    func text(_ key: String) -> String? {
        switch key {
        case "scale": return scale?.text
        case "bands": return bands?.text
        case "freq-range": return freqRange?.text
        case "fft-size": return fftSize?.text
        case "window": return window?.text
        case "overlap": return overlap?.text
        case "hop": return hop?.text
        case "weighting": return weighting?.text
        case "tilt": return tilt?.text
        case "db-range": return dbRange?.text
        case "smoothing": return smoothing?.text
        case "peak-hold": return peakHold?.text
        case "gain": return gain?.text
        case "resolution": return resolution?.text
        case "history": return history?.text
        default: return nil
        }
    }
}
