import SpecvizCore

/// Frame-time statistics of a live run: frames shown and dropped, and histograms of frame
/// wall-clock and thread-CPU times in 0.1 ms buckets up to 1 s, so percentiles cost no
/// allocation per frame.
public struct LiveStats: Sendable {
    public var shown = 0
    public var dropped = 0
    /// Histogram of frame times: bucket i holds times in [i, i+1) × 0.1 ms; the last is ≥ 1 s.
    public private(set) var buckets = [Int](repeating: 0, count: 10_001)
    /// The same for the thread's CPU time per frame.
    public private(set) var cpuBuckets = [Int](repeating: 0, count: 10_001)
    public private(set) var totalSeconds = 0.0
    public private(set) var maxSeconds = 0.0

    public init() {}

    /// Counts one shown frame that took `frameSeconds` to build and rasterise.
    public mutating func record(frameSeconds: Double, cpuSeconds: Double = 0) {
        cpuBuckets[max(min(Int(cpuSeconds * 10_000), cpuBuckets.count - 1), 0)] += 1
        shown += 1
        totalSeconds += frameSeconds
        maxSeconds = max(maxSeconds, frameSeconds)
        let i = min(Int(frameSeconds * 10_000), buckets.count - 1)
        buckets[max(i, 0)] += 1
    }

    /// The frame time (s) below which the fraction `p` (0…1) of frames fall (bucket upper edge).
    public func percentile(_ p: Double) -> Double { Self.percentile(p, of: buckets, count: shown, max: maxSeconds) }

    /// The thread-CPU time (s) per frame below which the fraction `p` of frames fall.
    public func cpuPercentile(_ p: Double) -> Double { Self.percentile(p, of: cpuBuckets, count: shown, max: 1) }

    static func percentile(_ p: Double, of buckets: [Int], count shown: Int, max maxSeconds: Double) -> Double {
        guard shown > 0 else { return 0 }
        let rank = max(1, Int((p * Double(shown)).rounded(.up)))
        var seen = 0
        for (i, n) in buckets.enumerated() {
            seen += n
            if seen >= rank { return Double(i + 1) / 10_000 }
        }
        return maxSeconds
    }

    /// Mean frame time (s).
    public var mean: Double { shown > 0 ? totalSeconds / Double(shown) : 0 }
}
