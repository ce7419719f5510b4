#if canImport(Glibc)
import Glibc
#endif

/// A period found in the lag domain.
public struct LagEstimate: Sendable, Equatable {
    /// Period in samples, with sub-sample precision.
    public var lag: Double
    /// Estimator confidence 0…1 (YIN: 1 − CMND; autocorrelation: Pearson r at the peak).
    public var confidence: Double
    /// Frequency in Hz for a sample rate.
    public func frequency(sampleRate: Double) -> Double { sampleRate / lag }
}

/// YIN's period search on a `LagAnalysis` (de Cheveigné & Kawahara 2002; seed 004 §6):
/// the first lag whose CMND dips below the absolute threshold (0.15) and is a local minimum;
/// else the global minimum if it is below the relaxed threshold (0.40); refined by 3-point
/// parabolic interpolation of the exact difference function. When the display is latched,
/// `searchNear` looks only within a semitone of the latched lag, with threshold 0.25.
/// Does not allocate.
public enum YinSearch {
    /// Absolute threshold on CMND for the first-dip search.
    public static let threshold: Float = 0.15
    /// Threshold for the global-minimum rescue.
    public static let relaxedThreshold: Float = 0.40
    /// Threshold within the latched window (seed 004: 0.25; 0.35 tracks decays through noise).
    public static let latchedThreshold: Float = 0.35

    /// Standard search over lags `minLag…maxLag`. The octave check (see
    /// `LagAnalysis.periodMultiple`) runs on `octaveCheck` (a window of the same size) when
    /// given, else on `a` itself.
    public static func search(
        _ a: LagAnalysis, minLag: Int, maxLag: Int,
        octaveCheck: UnsafePointer<Float>? = nil
    ) -> LagEstimate? {
        let c = a.cmnd.base
        var t = max(minLag, 2)
        let hi = min(maxLag, a.maxLag - 1)
        guard t < hi else { return nil }
        var best = t
        while t <= hi {
            if c[t] < threshold {
                while t + 1 <= hi && c[t + 1] < c[t] { t += 1 }
                // Octave check: a weak fundamental leaves a first dip at T/2 or T/3.
                let k =
                    octaveCheck.map {
                        LagAnalysis.periodMultiple(in: $0, size: a.size, lag: t, maxLag: a.maxLag)
                    } ?? a.periodMultiple(of: t)
                if k > 1 {
                    var t2 = k * t
                    for u in max(t2 - 2, 1)...min(t2 + 2, a.maxLag - 1) where c[u] < c[t2] { t2 = u }
                    if t2 < a.maxLag - 1 { return refine(a, t2) }
                } else if let x = octaveCheck {
                    let d = LagAnalysis.periodDivisor(in: x, size: a.size, lag: t, minLag: minLag, maxLag: a.maxLag)
                    if d > 1 {
                        var t2 = Int((Double(t) / Double(d)).rounded())
                        for u in max(t2 - 2, 2)...min(t2 + 2, a.maxLag - 1) where c[u] < c[t2] { t2 = u }
                        return refine(a, t2)
                    }
                }
                return refine(a, t)
            }
            if c[t] < c[best] { best = t }
            t += 1
        }
        guard c[best] < relaxedThreshold, best > minLag, best < hi else { return nil }
        // The global minimum gets the same reverse check as a first dip: rumble raises the
        // CMND at every lag, and its minimum can fall on 2T or 3T; on the rumble-free window
        // T is then as periodic, and the shorter period wins.
        // Divisors up to 9 (a minimum as far out as 9T), repeated (12T goes to 4T, then T).
        if let x = octaveCheck {
            for _ in 0..<3 {
                let d = LagAnalysis.periodDivisor(
                    in: x, size: a.size, lag: best, minLag: minLag, maxLag: a.maxLag,
                    maxDivisor: 9)
                guard d > 1 else { break }
                var t2 = Int((Double(best) / Double(d)).rounded())
                for u in max(t2 - 2, 2)...min(t2 + 2, a.maxLag - 1) where c[u] < c[t2] { t2 = u }
                best = t2
            }
        }
        return refine(a, best)
    }

    /// Latched search: the CMND minimum within ±`semitones` of `expectedLag`, accepted
    /// below `latchedThreshold`.
    public static func searchNear(
        _ a: LagAnalysis, expectedLag: Double, semitones: Double = 1,
        minLag: Int, maxLag: Int, threshold: Float = latchedThreshold
    ) -> LagEstimate? {
        let ratio = pow2(semitones / 12)
        let lo = max(minLag, max(2, Int((expectedLag / ratio).rounded(.down))))
        let hi = min(maxLag, min(a.maxLag - 1, Int((expectedLag * ratio).rounded(.up))))
        guard lo < hi else { return nil }
        let c = a.cmnd.base
        var best = lo
        for t in lo...hi where c[t] < c[best] { best = t }
        guard c[best] < threshold, best > lo, best < hi else { return nil }
        return refine(a, best)
    }

    /// Parabolic interpolation of the exact difference function around integer lag `t`;
    /// confidence is 1 − CMND(t).
    static func refine(_ a: LagAnalysis, _ t: Int) -> LagEstimate {
        let conf = Double(max(0, min(1, 1 - a.cmnd[t])))
        guard t > 1, t + 1 <= a.maxLag else { return LagEstimate(lag: Double(t), confidence: conf) }
        let y0 = a.exactDifference(t - 1), y1 = a.exactDifference(t), y2 = a.exactDifference(t + 1)
        let den = y0 - 2 * y1 + y2
        var shift = 0.0
        if den > 1e-30 { shift = max(-1, min(1, 0.5 * (y0 - y2) / den)) }
        return LagEstimate(lag: Double(t) + shift, confidence: conf)
    }

    @inline(__always) static func pow2(_ x: Double) -> Double { exp2(x) }
}
