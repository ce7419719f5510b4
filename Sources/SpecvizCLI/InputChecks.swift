import ArgumentParser
import Foundation
import MediaIO
import SpecvizCore
import Tuning

/// Opening an input file and checking names and numbers from the command line (issue 14).
enum InputChecks {
    /// Opens `path` (`-` is standard input) under the input policy; damaged samples are
    /// reported once on stderr as a warning (unless `quiet`).
    static func openDecoder(_ path: String, allowPlaylists: Bool, quiet: Bool = false, channels: ChannelChoice = .mix) throws -> AudioDecoder {
        let decoder = try AudioDecoder(path: path, policy: InputPolicy(allowPlaylists: allowPlaylists))
        decoder.channelChoice = channels
        if !quiet { decoder.onReplacedSamples = { warn($0) } }
        return decoder
    }

    static func warn(_ line: String) {
        StandardError.write(Data("specviz: warning: \(line)\n".utf8), level: .warning)
    }

    static func note(_ line: String) {
        StandardError.write(Data("specviz: note: \(line)\n".utf8), level: .info)
    }

    /// Throws unless `value` is finite and in `range` (NaN, ±inf and 1e300 are refused).
    static func number(_ value: Double?, _ option: String, in range: ClosedRange<Double>, unit: String = "") throws {
        guard let value else { return }
        guard value.isFinite, range.contains(value) else {
            throw ValidationError("\(option) must be a number from \(format(range.lowerBound)) to \(format(range.upperBound))\(unit) (got \(value))")
        }
    }

    static func format(_ x: Double) -> String { String(format: "%g", x) }

    /// The bytes of a small text file (a Scala file, a list), reading at most `limit` + 1
    /// bytes: a bigger file, or an endless one such as /dev/zero, is an error, never read whole.
    static func readSmallFile(_ path: String, limit: Int, what: String) throws -> Data {
        let shown = path.escapingControlCharacters
        switch readBounded(path, limit: limit) {
        case .success(let data): return data
        case .failure(.tooBig): throw ValidationError("\(what) '\(shown)' is larger than \(limit >> 10) KB")
        case .failure(.system(let code)): throw CLIError.cannotRead(what: what, path: shown, errno: code)
        }
    }

    enum ReadFailure: Error {
        case tooBig
        case system(Int32)
    }

    /// At most `limit` bytes of `path`: reads `limit` + 1 and fails when they are there.
    static func readBounded(_ path: String, limit: Int) -> Result<Data, ReadFailure> {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return .failure(.system(errno)) }
        defer { close(fd) }
        var data = Data(count: limit + 1)
        var got = 0
        while got <= limit {
            let n = data.withUnsafeMutableBytes { read(fd, $0.baseAddress! + got, limit + 1 - got) }
            if n < 0 && errno == EINTR { continue }
            if n < 0 { return .failure(.system(errno)) }
            if n == 0 { break }
            got += n
        }
        return got > limit ? .failure(.tooBig) : .success(data.prefix(got))
    }

    /// The longest title or artist line drawn (characters); a longer one is cut, with a note.
    static let maxLineCharacters = 256

    /// `text` cut to `maxLineCharacters`, with a note on stderr when it was longer.
    static func capped(_ text: String?, _ what: String) -> String? {
        guard let text else { return nil }
        var end = text.startIndex
        guard text.formIndex(&end, offsetBy: maxLineCharacters, limitedBy: text.endIndex), end != text.endIndex else { return text }
        note("the \(what) has more than \(maxLineCharacters) characters: only its first \(maxLineCharacters) are drawn")
        return String(text[..<end])
    }

    /// Throws when `output` is one of `inputs`: the same file by device and inode, or the
    /// same link-free path (a file not written yet), whatever the spelling or links.
    static func distinct(_ output: String, from inputs: [String]) throws {
        let keys = OutputKeys(output)
        for input in inputs where input != "-" && !input.hasPrefix("pipe:") {
            if keys.matches(input) {
                throw ValidationError("'\(output)' is the input '\(input)': write the output to another file")
            }
        }
    }

    /// "unknown preset 'x'" with the closest preset ids, by edit distance.
    static func unknownPreset(_ name: String) -> String {
        "unknown preset '\(name)'" + suggestions(name, among: TuningPreset.all.map(\.id)) + " (see `specviz presets`)"
    }

    /// ", did you mean a, b?" for the candidates within a small edit distance (or sharing a prefix).
    static func suggestions(_ name: String, among candidates: [String]) -> String {
        let n = name.lowercased()
        // A candidate's distance is to the whole name or to its start ("gutiar" is close to
        // "guitar-standard" through "guitar").
        let scored = candidates.map { c -> (String, Int) in
            let l = c.lowercased()
            return (c, min(editDistance(n, l), editDistance(n, String(l.prefix(n.count))) + 1))
        }
        let limit = max(2, n.count / 3)
        let close = scored.filter { $0.1 <= limit || (n.count >= 3 && $0.0.lowercased().hasPrefix(n)) }
            .enumerated().sorted { ($0.element.1, $0.offset) < ($1.element.1, $1.offset) }.map(\.element) // ties: list order
            .prefix(3).map(\.0)
        return close.isEmpty ? "" : ", did you mean " + close.joined(separator: ", ") + "?"
    }

    /// Edit distance with insert, delete, substitute and swapping two neighbours (a typing
    /// slip: "gutiar") costing 1 each (optimal string alignment).
    static func editDistance(_ a: String, _ b: String) -> Int {
        let a = Array(a), b = Array(b)
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        var d = [[Int]](repeating: [Int](repeating: 0, count: b.count + 1), count: a.count + 1)
        for i in 0...a.count { d[i][0] = i }
        for j in 0...b.count { d[0][j] = j }
        for i in 1...a.count {
            for j in 1...b.count {
                d[i][j] = min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] { d[i][j] = min(d[i][j], d[i - 2][j - 2] + 1) }
            }
        }
        return d[a.count][b.count]
    }

    /// x264's presets, fastest first.

    /// Output extensions `render -o` writes.
    static let videoExtensions = ["mp4", "mkv", "mov", "webm", "gif"]
}
