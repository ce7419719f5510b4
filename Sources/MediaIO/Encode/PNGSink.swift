import SpecvizCore
#if canImport(Glibc)
import Glibc
#endif

/// Writes each frame as a PNG named by a printf-style pattern (`frames/%05d.png`).
/// Each file appears atomically; `cancel` removes the files already written.
public final class PNGSequenceSink: FrameSink {
    public let pattern: String
    private var written: [String] = []

    public init(pattern: String) throws {
        guard PNGSequenceSink.isPattern(pattern) else { throw MediaError("'\(pattern)' has no %d frame number") }
        self.pattern = pattern
        try AtomicFile.checkWritable(PNGSequenceSink.path(pattern, 0))
    }

    /// True for `name%05d.png`, `%d`, `%3d` …
    public static func isPattern(_ path: String) -> Bool {
        guard let r = path.range(of: "%") else { return false }
        let rest = path[r.upperBound...].drop { $0.isNumber }
        return rest.first == "d"
    }

    /// The path of frame `index` (numbered from 1 like ffmpeg's image2 muxer).
    public static func path(_ pattern: String, _ index: Int) -> String {
        let r = pattern.range(of: "%")!
        let afterPercent = pattern[r.upperBound...]
        let digits = afterPercent.prefix { $0.isNumber }
        let width = Int(digits) ?? 0
        let number = String(index + 1)
        let padded = String(repeating: "0", count: max(0, width - number.count)) + number
        let tail = afterPercent.dropFirst(digits.count + 1)
        return String(pattern[..<r.lowerBound]) + padded + tail
    }

    public func write(_ frame: PixelBuffer, index: Int) throws {
        let p = PNGSequenceSink.path(pattern, index)
        try PNGFile.write(frame, to: p)
        written.append(p)
    }

    public func finish() throws {}

    public func cancel() {
        for p in written { unlink(p) }
        written.removeAll()
    }
}
