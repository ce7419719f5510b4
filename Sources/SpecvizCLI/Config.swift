import ArgumentParser
import Foundation
import Geometry
import SpecvizCore
import Tuning

/// Persistent defaults (SPEC §8): `$XDG_CONFIG_HOME/specviz/config.json` (or
/// `~/.config/specviz/config.json`). A flat JSON object; every key is optional:
///
///     {"mode": "curve", "preset": "guitar-standard", "reference": 442, "size": "1280x720",
///      "fps": 60, "tilt": true, "tuner": false, "bpm": true}
///
/// The analysis keys of `AnalysisOptions.keys` ("scale", "fft-size", "db-range", …) hold the
/// option's text and are checked when used; "tilt" also takes true (the default) or false (off).
///
/// Command-line flags override these; `specviz live` and `render --live` write the mode and
/// overlays back when they end (as the seed's @AppStorage does). A broken file is a
/// `ConfigError` naming the file and the line, never a crash. Unknown keys are ignored
/// (newer versions may add some).
struct Config: Equatable {
    var mode: VisualizationMode?
    var preset: TuningPreset?
    var reference: ReferencePitch?
    /// Tuning system keys (issue 19): as on the command line, checked when used.
    var transpose: String?
    var temperament: String?
    var tonic: String?
    var stretch: String?
    var offsets: String?
    var size: FrameSize?
    var fps: Int?
    var tilt: Bool?
    var tuner: Bool?
    var bpm: Bool?
    /// The analysis keys (`AnalysisOptions.keys`) as text, checked when used.
    var analysis: [String: String] = [:]

    /// The config file's path from the environment.
    static var defaultPath: String {
        let env = ProcessInfo.processInfo.environment
        if let x = env["SPECVIZ_CONFIG"], !x.isEmpty { return x }
        let base = env["XDG_CONFIG_HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? ((env["HOME"] ?? "") + "/.config")
        return base + "/specviz/config.json"
    }

    /// The largest config file read (bytes); a bigger one is an error, not read whole.
    static let maxBytes = 64 << 10

    /// Reads `path`; a missing file is an empty config.
    static func load(path: String = defaultPath) throws -> Config {
        if let size = (try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? Int, size > maxBytes {
            throw ConfigError(path: path, line: 0, "is \(size) bytes; a config file holds at most \(maxBytes)")
        }
        guard let data = FileManager.default.contents(atPath: path) else {
            if FileManager.default.fileExists(atPath: path) { throw ConfigError(path: path, line: 1, "cannot be read") }
            return Config()
        }
        return try parse(String(decoding: data, as: UTF8.self), path: path)
    }

    /// Parses the text of a config file; errors name `path` and the line.
    static func parse(_ text: String, path: String) throws -> Config {
        var parser = FlatJSON(text: text)
        let fields: [FlatJSON.Field]
        do { fields = try parser.parseObject() } catch let e as FlatJSON.Failure {
            throw ConfigError(path: path, line: e.line, e.message)
        }
        var c = Config()
        for f in fields {
            func fail(_ what: String) -> ConfigError { ConfigError(path: path, line: f.line, "\"\(f.key)\" must be \(what)") }
            /// A string key parsed by its option's type, with the type's message.
            func value<T: OptionValue>(_: T.Type) throws -> T {
                guard case .string(let s) = f.value else { throw fail("a string") }
                do { return try T(parsing: s) } catch let e as ValidationError {
                    throw ConfigError(path: path, line: f.line, "\"\(f.key)\": \(e.message)")
                }
            }
            switch f.key {
            case "mode": c.mode = try value(VisualizationMode.self)
            case "preset": c.preset = try value(TuningPreset.self)
            case "size": c.size = try value(FrameSize.self)
            case "reference":
                guard case .number(let v) = f.value, let r = ReferencePitch(v) else {
                    throw fail("a number of Hz in \(Int(ReferencePitch.range.lowerBound))…\(Int(ReferencePitch.range.upperBound))")
                }
                c.reference = r
            case "fps":
                guard case .number(let v) = f.value, v == v.rounded(), (1...240).contains(v) else { throw fail("a whole number 1…240") }
                c.fps = Int(v)
            case "tilt":
                switch f.value {
                case .bool(let b): c.tilt = b; if !b { c.analysis["tilt"] = "off" }
                case .string(let s): c.analysis["tilt"] = s
                case .number(let v): c.analysis["tilt"] = String(v)
                default: throw fail("auto, seed, off, a number of dB per octave, or true/false")
                }
            case "transpose":
                switch f.value {
                case .string(let v) where TuningSystem.transposition(v) != nil: c.transpose = v
                case .number(let v) where v == v.rounded() && abs(v) <= 24: c.transpose = String(Int(v))
                default: throw fail("Bb, Eb, F, A, G, D, C or a whole number of semitones −24…24")
                }
            case "temperament":
                guard case .string(let v) = f.value, Temperament.named(v) != nil || v.lowercased().hasSuffix(".scl") else {
                    throw fail("a temperament name or a .scl file")
                }
                c.temperament = v
            case "stretch":
                switch f.value {
                case .string(let v) where TuningSystem.Stretch(parsing: v) != nil: c.stretch = v
                case .number(let v) where TuningSystem.Stretch(parsing: String(v)) != nil: c.stretch = String(v)
                default: throw fail("piano or a number of cents per octave −50…50")
                }
            case "offsets":
                guard case .string(let v) = f.value, TuningSystem.offsets(parsing: v) != nil else {
                    throw fail("NOTE:CENTS pairs like \"E2:-2,B3:+1.5\"")
                }
                c.offsets = v
            case "tonic":
                guard case .string(let v) = f.value, TuningSystem.tonic(v) != nil else { throw fail("a note name like C or Eb") }
                c.tonic = v
            case "tuner": guard case .bool(let b) = f.value else { throw fail("true or false") }; c.tuner = b
            case "bpm": guard case .bool(let b) = f.value else { throw fail("true or false") }; c.bpm = b
            case _ where AnalysisOptions.keys.contains(f.key):
                switch f.value {
                case .string(let s): c.analysis[f.key] = s
                case .number(let v): c.analysis[f.key] = v == v.rounded() && abs(v) < 1e15 ? String(Int(v)) : String(v)
                default: throw fail("a string or a number")
                }
            default: break
            }
        }
        return c
    }

    /// The file's text: keys in a fixed order, one per line.
    var json: String {
        var lines: [String] = []
        func quote(_ s: String) -> String {
            "\"" + s.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") + "\""
        }
        if let mode { lines.append("\"mode\": \(quote(mode.rawValue))") }
        if let preset { lines.append("\"preset\": \(quote(preset.id))") }
        if let reference = reference?.hertz { lines.append("\"reference\": \(reference == reference.rounded() ? String(Int(reference)) : String(reference))") }
        if let transpose { lines.append("\"transpose\": \(quote(transpose))") }
        if let temperament { lines.append("\"temperament\": \(quote(temperament))") }
        if let tonic { lines.append("\"tonic\": \(quote(tonic))") }
        if let stretch { lines.append("\"stretch\": \(quote(stretch))") }
        if let offsets { lines.append("\"offsets\": \(quote(offsets))") }
        if let size { lines.append("\"size\": \(quote(size.description))") }
        if let fps { lines.append("\"fps\": \(fps)") }
        if let t = analysis["tilt"], tilt != false { lines.append("\"tilt\": \(quote(t))") } else if let tilt { lines.append("\"tilt\": \(tilt)") }
        if let tuner { lines.append("\"tuner\": \(tuner)") }
        if let bpm { lines.append("\"bpm\": \(bpm)") }
        for key in AnalysisOptions.keys where key != "tilt" {
            if let v = analysis[key] { lines.append("\(quote(key)): \(quote(v))") }
        }
        return "{\n  " + lines.joined(separator: ",\n  ") + "\n}\n"
    }

    /// Writes atomically (temporary file, then rename), creating the folder.
    func save(path: String = defaultPath) throws {
        let folder = (path as NSString).deletingLastPathComponent
        do {
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        } catch {
            throw ConfigError(path: path, line: 0, "cannot create its folder")
        }
        try writeAtomically(Array(json.utf8), to: path)
    }
}

/// A config file that cannot be used: names the file and the line.
struct ConfigError: UserFacingError, Equatable {
    var path: String
    var line: Int
    var message: String
    init(path: String, line: Int, _ message: String) {
        self.path = path
        self.line = line
        self.message = message
    }
    var description: String {
        line > 0 ? "config file '\(path)', line \(line): \(message)" : "config file '\(path)': \(message)"
    }
}
