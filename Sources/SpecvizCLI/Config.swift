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
/// The analysis keys of `AnalysisOptions.keys` ("scale", "fft-size", "db-range", …) and the
/// tuning system keys take the option's text; each is parsed once, when the file is read, by
/// its option's parse, and an error in it is reported (with the file and line) when the value
/// is used. "tilt" also takes true (an old config's tilted look: `auto`) or false (`off`, the default).
///
/// Command-line flags override these; `specviz live` and `render --live` write the mode and
/// overlays back when they end (as the seed's @AppStorage does). A broken file is a
/// `ConfigError` naming the file and the line, never a crash — also for an analysis key
/// found wrong only when used. Unknown keys are ignored (newer versions may add some) and
/// kept when the file is written back. With neither $XDG_CONFIG_HOME nor $HOME set there is
/// no config file: nothing is read or written.
struct Config: Equatable {
    var mode: VisualizationMode?
    var preset: TuningPreset?
    var reference: ReferencePitch?
    /// Tuning system keys (issue 19): as on the command line.
    var transpose: ConfigValue<Transposition>?
    var temperament: ConfigValue<Temperament>?
    var tonic: ConfigValue<Tonic>?
    var stretch: ConfigValue<TuningSystem.Stretch>?
    var offsets: ConfigValue<NoteOffsets>?
    var size: FrameSize?
    var fps: Int?
    var tilt: Bool?
    var tuner: Bool?
    var bpm: Bool?
    /// The analysis keys (`AnalysisOptions.keys`).
    var analysis = AnalysisKeys()
    /// Keys this version does not know, in file order: written back as they were read.
    var unknown: [Unknown] = []
    /// Where it was read from, and the line of each key (for errors found when a key is used).
    var path = ""
    var lines: [String: Int] = [:]

    struct Unknown: Equatable {
        var key: String
        var value: FlatJSON.Value
    }

    /// The config file's path from the environment; nil when neither $XDG_CONFIG_HOME nor
    /// $HOME says where it is.
    static var defaultPath: String? {
        let env = ProcessInfo.processInfo.environment
        if let x = env["SPECVIZ_CONFIG"], !x.isEmpty { return x }
        if let x = env["XDG_CONFIG_HOME"], !x.isEmpty { return x + "/specviz/config.json" }
        if let h = env["HOME"], !h.isEmpty { return h + "/.config/specviz/config.json" }
        return nil
    }

    /// Runs `body`; an option error about an analysis key this file set (and the command line
    /// did not) becomes a `ConfigError` naming the file and that key's line.
    func blaming<T>(given: Set<String>, _ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch let e as ValidationError {
            for (key, line) in lines.sorted(by: { $0.value < $1.value })
            where analysis.text(key) != nil && !given.contains(key) && Self.mentions(e.message, option: "--" + key) {
                throw ConfigError(path: path, line: line, "\"\(key)\": \(e.message)")
            }
            throw e
        }
    }

    /// True when `message` names `option` as a whole word ("--hop", not "--hop-size").
    static func mentions(_ message: String, option: String) -> Bool {
        var rest = message[...]
        while let r = rest.range(of: option) {
            let next = rest[r.upperBound...].first
            if next == nil || !(next!.isLetter || next! == "-") { return true }
            rest = rest[r.upperBound...]
        }
        return false
    }

    /// The largest config file read (bytes); a bigger one is an error, not read whole.
    static let maxBytes = 64 << 10

    /// Reads `path`; a missing file (or none) is an empty config.
    static func load(path: String? = defaultPath) throws -> Config {
        guard let path else { return Config() }
        switch InputChecks.readBounded(path, limit: maxBytes) {
        case .success(let data): return try parse(String(decoding: data, as: UTF8.self), path: path)
        case .failure(.system(ENOENT)), .failure(.system(ENOTDIR)): return Config()
        case .failure(.tooBig): throw ConfigError(path: path, line: 0, "is larger than \(maxBytes) bytes: a config file holds at most \(maxBytes)")
        case .failure(.system(let code)): throw ConfigError(path: path, line: 0, "cannot be read: \(String(cString: strerror(code)))")
        }
    }

    /// Parses the text of a config file; errors name `path` and the line.
    static func parse(_ text: String, path: String) throws -> Config {
        var parser = FlatJSON(text: text)
        let fields: [FlatJSON.Field]
        do { fields = try parser.parseObject() } catch let e as FlatJSON.Failure {
            throw ConfigError(path: path, line: e.line, e.message)
        }
        var c = Config()
        c.path = path
        for f in fields {
            c.lines[f.key] = f.line
            func fail(_ what: String) -> ConfigError { ConfigError(path: path, line: f.line, "\"\(f.key)\" must be \(what)") }
            /// A key's text, parsed by its option's parse (an error in it is reported when used).
            func text<T>(_ v: String, _ parse: (String) throws -> T) -> ConfigValue<T> {
                ConfigValue(v, key: f.key, path: path, line: f.line, parse)
            }
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
                // An old config's true asked for the tilted look: the adaptive tilt (the default
                // until issue 39); false, none.
                case .bool(let b): c.tilt = b; c.analysis.set("tilt", b ? "auto" : "off", path: path, line: f.line)
                case .string(let s): c.analysis.set("tilt", s, path: path, line: f.line)
                case .number(let v): c.analysis.set("tilt", String(v), path: path, line: f.line)
                default: throw fail("auto, seed, off, a number of dB per octave, or true/false")
                }
            case "transpose":
                switch f.value {
                case .string(let v): c.transpose = text(v, Transposition.init(parsing:))
                case .number(let v) where v == v.rounded() && abs(v) <= 24: c.transpose = text(String(Int(v)), Transposition.init(parsing:))
                default: throw fail("Bb, Eb, F, A, G, D, C or a whole number of semitones −24…24")
                }
            case "temperament":
                guard case .string(let v) = f.value else { throw fail("a temperament name or a .scl file") }
                c.temperament = text(v, Temperament.init(parsing:))
            case "stretch":
                switch f.value {
                case .string(let v): c.stretch = text(v, TuningSystem.Stretch.init(parsing:))
                case .number(let v): c.stretch = text(String(v), TuningSystem.Stretch.init(parsing:))
                default: throw fail("piano or a number of cents per octave −50…50")
                }
            case "offsets":
                guard case .string(let v) = f.value else { throw fail("NOTE:CENTS pairs like \"E2:-2,B3:+1.5\"") }
                c.offsets = text(v, NoteOffsets.init(parsing:))
            case "tonic":
                guard case .string(let v) = f.value else { throw fail("a note name like C or Eb") }
                c.tonic = text(v, Tonic.init(parsing:))
            case "tuner": guard case .bool(let b) = f.value else { throw fail("true or false") }; c.tuner = b
            case "bpm": guard case .bool(let b) = f.value else { throw fail("true or false") }; c.bpm = b
            case _ where AnalysisOptions.keys.contains(f.key):
                switch f.value {
                case .string(let s): c.analysis.set(f.key, s, path: path, line: f.line)
                case .number(let v):
                    c.analysis.set(f.key, v == v.rounded() && abs(v) < 1e15 ? String(Int(v)) : String(v), path: path, line: f.line)
                default: throw fail("a string or a number")
                }
            default: c.unknown.append(Unknown(key: f.key, value: f.value))
            }
        }
        return c
    }

    /// The file's text: keys in a fixed order, one per line.
    var json: String {
        var lines: [String] = []
        func quote(_ s: String) -> String {
            var out = "\""
            for u in s.unicodeScalars {
                switch u {
                case "\"": out += "\\\""
                case "\\": out += "\\\\"
                case _ where u.value < 0x20 || u.value == 0x7F:
                    out += "\\u" + String(repeating: "0", count: 4 - String(u.value, radix: 16).count) + String(u.value, radix: 16)
                default: out.unicodeScalars.append(u)
                }
            }
            return out + "\""
        }
        if let mode { lines.append("\"mode\": \(quote(mode.rawValue))") }
        if let preset { lines.append("\"preset\": \(quote(preset.id))") }
        if let reference = reference?.hertz { lines.append("\"reference\": \(reference == reference.rounded() ? String(Int(reference)) : String(reference))") }
        if let transpose { lines.append("\"transpose\": \(quote(transpose.text))") }
        if let temperament { lines.append("\"temperament\": \(quote(temperament.text))") }
        if let tonic { lines.append("\"tonic\": \(quote(tonic.text))") }
        if let stretch { lines.append("\"stretch\": \(quote(stretch.text))") }
        if let offsets { lines.append("\"offsets\": \(quote(offsets.text))") }
        if let size { lines.append("\"size\": \(quote(size.description))") }
        if let fps { lines.append("\"fps\": \(fps)") }
        if let t = analysis.text("tilt"), tilt != false { lines.append("\"tilt\": \(quote(t))") } else if let tilt { lines.append("\"tilt\": \(tilt)") }
        if let tuner { lines.append("\"tuner\": \(tuner)") }
        if let bpm { lines.append("\"bpm\": \(bpm)") }
        for key in AnalysisOptions.keys where key != "tilt" {
            if let v = analysis.text(key) { lines.append("\(quote(key)): \(quote(v))") }
        }
        for u in unknown {
            switch u.value {
            case .string(let s): lines.append("\(quote(u.key)): \(quote(s))")
            case .number(let v): lines.append("\(quote(u.key)): \(v == v.rounded() && abs(v) < 1e15 ? String(Int(v)) : String(v))")
            case .bool(let b): lines.append("\(quote(u.key)): \(b)")
            case .null: lines.append("\(quote(u.key)): null")
            }
        }
        return "{\n  " + lines.joined(separator: ",\n  ") + "\n}\n"
    }

    /// Writes atomically (temporary file, then rename), creating the folder; with no config
    /// path (neither $XDG_CONFIG_HOME nor $HOME set) writes nothing.
    func save(path: String? = defaultPath) throws {
        guard let path else { return }
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
