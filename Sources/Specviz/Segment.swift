import Foundation

/// The K-th of N equal time segments of a render (`--segment K/N`), 1-based.
///
/// Segments split the frames, not the seconds: with F frames in the render, segment K
/// holds frames [⌊(K−1)·F/N⌋, ⌊K·F/N⌋), so segments are frame-aligned, cover every frame
/// once and differ in length by at most one frame. Each is encoded as its own file, so
/// each starts on a keyframe; `RenderJob` steps (without rasterising) every frame before
/// the segment, so its frames are exactly those of a single pass.
public struct Segment: Equatable, Sendable, CustomStringConvertible {
    /// 1-based index and count.
    public let index: Int
    public let count: Int

    public init?(index: Int, count: Int) {
        guard count >= 1, index >= 1, index <= count else { return nil }
        self.index = index
        self.count = count
    }

    /// Parses `K/N` (e.g. `2/4`).
    public init?(parsing text: String) {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2,
            let k = Int(parts[0].trimmingCharacters(in: .whitespaces)),
            let n = Int(parts[1].trimmingCharacters(in: .whitespaces))
        else { return nil }
        self.init(index: k, count: n)
    }

    public var description: String { "\(index)/\(count)" }

    /// The frames of this segment, as indices relative to the render's first frame,
    /// among `total` frames.
    public func frames(of total: Int) -> Range<Int> {
        let lower = (index - 1) * total / count
        let upper = index * total / count
        return lower..<upper
    }

    /// The time span [from, to) in seconds of this segment of a render of [start, end)
    /// seconds at `fps`, with the frame range it holds (absolute frame indices from 0).
    /// Frame times are whole frames, so a render of the span starts exactly on its frame.
    public func span(start: Double, end: Double, fps: Int) -> (from: Double, to: Double, frames: Range<Int>) {
        let first = Int((start * Double(fps)).rounded())
        let total = max(0, Int((Double(fps) * (end - start) - 1e-6).rounded(.up)))
        let local = frames(of: total)
        let frames = (first + local.lowerBound)..<(first + local.upperBound)
        return (Double(frames.lowerBound) / Double(fps), Double(frames.upperBound) / Double(fps), frames)
    }
}
