import SpecvizCore

#if canImport(Glibc)
import Glibc
#endif

/// Writes each frame as a PNG named by a printf-style pattern (`frames/%05d.png`).
///
/// Frames go to a hidden temporary folder beside them and move into place only in
/// `finish`, so an interrupted render leaves no frames, and a sequence written over an old
/// one (`overwrite`) replaces it only when complete: old frames past the new count are
/// removed then too, so old and new are never mixed. `cancel` removes the folder.
public final class PNGSequenceSink: FrameSink {
    public let pattern: String
    public let overwrite: Bool
    private let folder: String
    private var written: [String] = []
    private var folderMade = false
    private let removesLaterFrames: Bool

    /// - Parameter removesLaterFrames: with `overwrite`, frames of an older, longer sequence
    ///   past the last one written are removed (false when the sequence is one segment of a
    ///   render whose other segments write the same pattern).
    public init(pattern: String, overwrite: Bool = true, removesLaterFrames: Bool = true) throws {
        guard PNGSequenceSink.isPattern(pattern) else { throw MediaError("'\(pattern)' has no %d frame number") }
        let slash = pattern.lastIndex(of: "/")
        let dir = slash.map { $0 == pattern.startIndex ? "/" : String(pattern[..<$0]) } ?? "."
        guard !dir.contains("%") else { throw MediaError("'\(pattern)': the %d frame number must be in the file name, not a folder") }
        self.pattern = pattern
        self.overwrite = overwrite
        self.removesLaterFrames = removesLaterFrames
        try AtomicFile.checkWritable(PNGSequenceSink.path(pattern, 0))
        let name = String(pattern[(slash.map { pattern.index(after: $0) } ?? pattern.startIndex)...])
        folder = StaleTemporaries.folder(in: dir + "/", for: name)
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
        let width = min(Int(digits) ?? 0, 32)
        let number = String(index + 1)
        let padded = String(repeating: "0", count: max(0, width - number.count)) + number
        let tail = afterPercent.dropFirst(digits.count + 1)
        return String(pattern[..<r.lowerBound]) + padded + tail
    }

    private func temporary(_ final: String) -> String {
        folder + "/" + (final.lastIndex(of: "/").map { String(final[final.index(after: $0)...]) } ?? final)
    }

    public func write(_ frame: PixelBuffer, index: Int) throws {
        if !folderMade {
            TemporaryFiles.add(folder)
            guard mkdir(folder, 0o700) == 0 else {
                throw MediaError("cannot write '\(PNGSequenceSink.path(pattern, 0))': \(String(cString: strerror(errno)))")
            }
            folderMade = true
        }
        let p = PNGSequenceSink.path(pattern, index)
        try PNGFile.write(frame, to: temporary(p))
        written.append(p)
    }

    /// Moves the frames into place, then (with `overwrite`) removes old frames past them.
    public func finish() throws {
        if !overwrite {
            for p in written where AtomicFile.exists(p) {
                cancel()
                throw MediaError("'\(p)' exists (use -y to overwrite)")
            }
        }
        for p in written {
            do {
                try AtomicFile.commit(temporary(p), to: p, overwrite: overwrite)
            } catch {
                cancel()
                throw error
            }
        }
        if overwrite && removesLaterFrames {
            var k = written.count
            while k < Int(Int32.max) {
                let old = PNGSequenceSink.path(pattern, k)
                guard AtomicFile.exists(old) else { break }
                unlink(old)
                k += 1
            }
        }
        written.removeAll()
        removeFolder()
    }

    public func cancel() {
        written.removeAll()
        removeFolder()
    }

    private func removeFolder() {
        guard folderMade else { return }
        TemporaryFiles.removeTree(folder)
        TemporaryFiles.remove(folder)
        folderMade = false
    }
}
