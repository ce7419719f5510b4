import Analysis
import ArgumentParser
import Foundation

/// `render --beats-from FILE`: the beats, bar positions, tempo segments and metre that
/// `specviz tempo IN --json` wrote, read back as the render's whole-track beat analysis (the
/// fields the overlay and the flash use). Read whole, up to 64 MB (an 8-hour track's JSON is
/// about 20 MB).
enum BeatFile {
    static let limit = 64 << 20

    static func read(_ path: String) throws -> BeatAnalysis {
        let data: Data
        switch InputChecks.readBounded(path, limit: limit) {
        case .success(let d): data = d
        case .failure(.tooBig): throw ValidationError("--beats-from '\(path)' is over \(limit >> 20) MB: not a tempo --json file")
        case .failure(.system(let code)): throw CLIError.cannotRead(what: "cannot read --beats-from", path: path, errno: code)
        }
        guard let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
            let analysis = parse(object)
        else {
            throw ValidationError("--beats-from '\(path)' is not the JSON of `specviz tempo --json` (beats, segments, meter)")
        }
        return analysis
    }

    /// The analysis in `object`, nil when a field is missing or of the wrong kind, a time is
    /// not finite, or the beats go backwards.
    static func parse(_ object: [String: Any]) -> BeatAnalysis? {
        guard let rows = object["beats"] as? [[Any]], let segmentRows = object["segments"] as? [[String: Any]] else { return nil }
        var analysis = BeatAnalysis()
        var last = -Double.infinity
        for row in rows {
            guard row.count == 2, let time = (row[0] as? NSNumber)?.doubleValue, time.isFinite, time >= last else { return nil }
            let position = (row[1] as? NSNumber)?.intValue
            if position == nil && !(row[1] is NSNull) { return nil }
            analysis.beats.append(Beat(time: time, position: position))
            last = time
        }
        for row in segmentRows {
            guard let start = (row["start"] as? NSNumber)?.doubleValue, let end = (row["end"] as? NSNumber)?.doubleValue,
                let bpm = (row["bpm"] as? NSNumber)?.doubleValue, start.isFinite, end.isFinite, bpm.isFinite, bpm > 0
            else { return nil }
            analysis.segments.append(TempoSegment(start: start, end: end, bpm: bpm))
        }
        switch object["meter"] {
        case let meter as String:
            // "3/4", "4/4", or "12/8" for four beats of three.
            let parts = meter.split(separator: "/").compactMap { Int($0) }
            guard parts.count == 2, parts[0] > 0 else { return nil }
            analysis.compound = parts[1] == 8
            analysis.beatsPerBar = analysis.compound ? parts[0] / 3 : parts[0]
        case is NSNull, nil: break
        default: return nil
        }
        return analysis
    }
}
