import Foundation

extension StreamJoiner {
    /// Throws, naming the part, unless `parts` (path, stamp, whole video packets) are all
    /// the parts 1/N … N/N of one render, in order, each complete: a part without a stamp,
    /// of another source or other settings, repeated, missing, out of order or holding
    /// fewer frames than it was rendered with is refused before anything is written.
    static func checkSet(_ parts: [(path: String, stamp: SegmentStamp?, frames: Int)]) throws {
        var stamps: [SegmentStamp] = []
        for part in parts {
            guard let stamp = part.stamp else {
                throw MediaError("'\(part.path)' is not a part of a segmented render (no specviz segment tag; render it with --segment K/N)", path: part.path)
            }
            stamps.append(stamp)
        }
        let first = stamps[0], firstPath = parts[0].path
        for (part, stamp) in zip(parts, stamps).dropFirst() {
            if stamp.source != first.source {
                throw MediaError("'\(part.path)' was rendered from another source than '\(firstPath)'", path: part.path)
            }
            if stamp.settings != first.settings || stamp.count != first.count {
                throw MediaError(
                    "'\(part.path)' was rendered with other settings than '\(firstPath)' (\(stamp.count == first.count ? "options" : "\(stamp.count) parts, not \(first.count)"))",
                    path: part.path)
            }
        }
        var seen: [Int: String] = [:]
        for (part, stamp) in zip(parts, stamps) {
            if let other = seen[stamp.index] {
                throw MediaError("'\(part.path)' is segment \(stamp.index)/\(stamp.count) again (already given as '\(other)')", path: part.path)
            }
            seen[stamp.index] = part.path
        }
        for k in 1...first.count where seen[k] == nil {
            let before = seen.filter { $0.key < k }.max { $0.key < $1.key }?.value
            let after = seen.filter { $0.key > k }.min { $0.key < $1.key }?.value
            let place = before.map { "after '\($0)'" } ?? after.map { "before '\($0)'" } ?? ""
            throw MediaError("segment \(k)/\(first.count) is missing (\(place))")
        }
        for (i, (part, stamp)) in zip(parts, stamps).enumerated() where stamp.index != i + 1 {
            throw MediaError(
                "'\(part.path)' is segment \(stamp.index)/\(stamp.count) but segment \(i + 1)/\(stamp.count) goes here: give the parts in order",
                path: part.path)
        }
        var end = first.frames.lowerBound
        for (part, stamp) in zip(parts, stamps) {
            if stamp.frames.lowerBound != end {
                throw MediaError("'\(part.path)' does not start where the part before it ends (frame \(stamp.frames.lowerBound), not \(end))", path: part.path)
            }
            if part.frames != stamp.frames.count {
                throw MediaError(
                    "'\(part.path)' is truncated or damaged: it holds \(part.frames) of its \(stamp.frames.count) frames", path: part.path)
            }
            end = stamp.frames.upperBound
        }
    }
}
