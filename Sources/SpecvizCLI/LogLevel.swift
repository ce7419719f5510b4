import ArgumentParser
import Foundation

/// How much specviz says on stderr (issue 40 item 11), as ffmpeg's `-loglevel`: `quiet`
/// nothing, `error` errors only, `warning` errors and warnings, `info` (the default) also
/// notes, progress bars and summaries. Global: `--log-level LEVEL` may stand anywhere before
/// `--` (`specviz --log-level error render …` or after the command's other options); it is
/// taken out of the arguments before they are parsed, and it is set once, before any command
/// runs.
enum LogLevel: Int, Comparable, CaseIterable, Sendable {
    case quiet, error, warning, info

    static func < (a: LogLevel, b: LogLevel) -> Bool { a.rawValue < b.rawValue }

    var name: String { ["quiet", "error", "warning", "info"][rawValue] }

    /// The level in effect.
    nonisolated(unsafe) static var current = LogLevel.info

    /// True when a message of `level` is shown.
    static func shows(_ level: LogLevel) -> Bool { level <= current }

    /// `arguments` without `--log-level X` / `--log-level=X` (before `--`), and the last
    /// level given; an unknown level is a usage error.
    static func extract(_ arguments: [String]) throws -> (arguments: [String], level: LogLevel?) {
        var out: [String] = []
        var level: LogLevel?
        var i = 0
        while i < arguments.count {
            let a = arguments[i]
            if a == "--" {
                out += arguments[i...]
                break
            }
            var value: String?
            if a == "--log-level" {
                guard i + 1 < arguments.count else { throw ValidationError("--log-level needs a level: quiet, error, warning or info") }
                value = arguments[i + 1]
                i += 1
            } else if a.hasPrefix("--log-level=") {
                value = String(a.dropFirst("--log-level=".count))
            }
            if let value {
                guard let l = allCases.first(where: { $0.name == value.lowercased() }) else {
                    throw ValidationError("unknown --log-level '\(value)' (quiet, error, warning, info)")
                }
                level = l
            } else {
                out.append(a)
            }
            i += 1
        }
        return (out, level)
    }
}
