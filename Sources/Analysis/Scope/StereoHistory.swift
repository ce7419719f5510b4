import SpecvizCore

/// The last samples of a stereo input's two channels, kept in step, for the vector scope
/// (goniometer): the left and right analyses push their channels as they read them, and
/// a frame takes the newest pairs both have delivered. Memory is fixed; nothing allocates
/// after construction.
public final class StereoHistory {
    /// Pairs kept (a little over a video frame at 48 kHz and 24 fps).
    public static let capacity = 4096
    private let left = OwnedBuffer<Float>(zeroed: StereoHistory.capacity)
    private let right = OwnedBuffer<Float>(zeroed: StereoHistory.capacity)
    /// Samples pushed so far per channel.
    public private(set) var leftCount = 0
    public private(set) var rightCount = 0

    public init() {}

    public func pushLeft(_ samples: UnsafeBufferPointer<Float>) { push(samples, into: left, count: &leftCount) }
    public func pushRight(_ samples: UnsafeBufferPointer<Float>) { push(samples, into: right, count: &rightCount) }

    private func push(_ samples: UnsafeBufferPointer<Float>, into ring: borrowing OwnedBuffer<Float>, count: inout Int) {
        for s in samples {
            ring[count % Self.capacity] = s
            count += 1
        }
    }

    /// The newest `n` (at most `capacity`) pairs both channels have, oldest first, as
    /// goniometer points: x = (L − R)/√2 (side), y = (L + R)/√2 (mid), scaled so the
    /// largest |x|,|y| is at most 1 (quiet sound is enlarged up to 16×). Replaces `points`
    /// (keeping its capacity).
    public func points(_ n: Int, into points: inout [SIMD2<Float>]) {
        points.removeAll(keepingCapacity: true)
        let end = min(leftCount, rightCount), count = min(n, end, Self.capacity)
        guard count > 1 else { return }
        var peak: Float = 0
        let r = Float(0.5).squareRoot()
        for i in (end - count)..<end {
            let l = left[i % Self.capacity], rr = right[i % Self.capacity]
            let p = SIMD2((l - rr) * r, (l + rr) * r)
            peak = max(peak, abs(p.x), abs(p.y))
            points.append(p)
        }
        let gain = peak > 0 ? min(16, 1 / peak) : 1
        for i in points.indices { points[i] *= gain }
    }
}
