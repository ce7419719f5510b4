/// The per-lag Pearson autocorrelation estimator (seed 000 Part 4; seed 004 §6):
/// the FIRST peak, scanning from short lags, that reaches 90% of the global maximum
/// (the global maximum itself tends to sit an octave low), refined by 3-point parabolic
/// interpolation; plus a harmonic-coherence score from r at 2L…5L.
/// Does not allocate.
public enum PearsonPeakSearch {
    /// Fraction of the global maximum the first accepted peak must reach.
    public static let peakFraction: Float = 0.90
    /// Minimum r for a result at all (seed 000: "confident" above 0.75).
    public static let minimumPeak: Float = 0.75

    /// The result: the refined lag (confidence = r at the peak) and harmonic coherence 0…1.
    public struct Result: Sendable, Equatable {
        public var estimate: LagEstimate
        /// Weighted mean of max(r, 0) at 2L, 3L, 4L, 5L (weights 4:3:2:1, lags that fit).
        public var coherence: Double
    }

    public static func search(_ a: LagAnalysis, minLag: Int, maxLag: Int) -> Result? {
        let r = a.pearson.base
        let hi = min(maxLag, a.maxLag - 1)
        // Skip the zero-lag lobe: start at the first local minimum of r.
        var start = 1
        while start < hi && r[start + 1] <= r[start] { start += 1 }
        start = max(start, minLag)
        guard start + 1 < hi else { return nil }
        var globalMax: Float = -1
        for t in start...hi where r[t] > globalMax { globalMax = r[t] }
        guard globalMax >= minimumPeak else { return nil }
        let bar = peakFraction * globalMax
        var t = start + 1
        while t < hi {
            if r[t] >= bar && r[t] >= r[t - 1] && r[t] >= r[t + 1] {
                return Result(estimate: refine(a, t), coherence: coherence(a, lag: t))
            }
            t += 1
        }
        return nil
    }

    /// Harmonic coherence at integer lag `lag`: weighted r at 2L…5L where they fit.
    public static func coherence(_ a: LagAnalysis, lag: Int) -> Double {
        var num = 0.0, den = 0.0
        for k in 2...5 {
            let t = k * lag
            guard t + 1 <= a.maxLag else { break }
            let w = Double(6 - k)
            // Peak within ±1 lag (the multiple of a fractional period).
            let v = max(a.pearson[t - 1], a.pearson[t], a.pearson[t + 1])
            num += w * Double(max(0, v))
            den += w
        }
        return den > 0 ? num / den : 0
    }

    static func refine(_ a: LagAnalysis, _ t: Int) -> LagEstimate {
        let y0 = Double(a.pearson[t - 1]), y1 = Double(a.pearson[t]), y2 = Double(a.pearson[t + 1])
        let den = y0 - 2 * y1 + y2
        var shift = 0.0
        if den < -1e-12 { shift = max(-1, min(1, 0.5 * (y0 - y2) / den)) }
        return LagEstimate(lag: Double(t) + shift, confidence: Double(y1))
    }
}
