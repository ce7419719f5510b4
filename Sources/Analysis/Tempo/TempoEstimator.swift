#if canImport(Glibc)
import Glibc
#endif

/// One raw tempo estimate from the onset history (before display smoothing).
public struct TempoEstimate: Equatable, Sendable {
    /// Beat rate in beats per minute, folded into the display range 70–160.
    public var bpm: Double
    /// Mean normalised autocorrelation at the beat period and its multiples
    /// (0…1; the seed's "peak / zero-lag" generalised to a comb).
    public var confidence: Double
    /// How much the winning comb stands out from the median comb over the
    /// whole 70–160 BPM range (same units as `confidence`): ~0 without a beat.
    public var contrast: Double
    /// Kurtosis of the detrended onset signal (3 for Gaussian noise): high when the
    /// onset signal has clear peaks (note or drum onsets), low for the stationary
    /// flicker of a sustained sound.
    public var peakiness: Double
    /// Whether a weak estimate was confirmed by the two halves of the history on their
    /// own (set by `TempoTracker`; see `TempoDisplayFilter`).
    public var corroborated = false
}

/// Estimates the beat period of an onset-strength history
/// (SPEC §6; seed 000 Part 5 "Autocorrelation (every ~0.5s)" steps 5–12).
///
/// 1. detrend with a centred 2 s moving mean, half-wave rectify, normalise to zero
///    mean and unit variance;
/// 2. unbiased autocorrelation r(l)/r(0) for lags up to four beat periods at 70 BPM
///    (Scheirer 1998; Ellis 2007 "Beat tracking by dynamic programming");
/// 3. the improvement over the seed: every candidate tempo b in 70…160 BPM (0.25 BPM
///    grid) is scored by a comb over the autocorrelation at its period P and the
///    multiples 2P, 3P, 4P, read between lags with cubic (Catmull-Rom) interpolation.
///    The multiples give sub-frame resolution (a 0.3-frame error at 4P is 0.075 frames
///    at P), which a single-lag parabola on a ~43 Hz grid cannot reach, and they carry
///    the harmonic check of the seed: a candidate at half the beat period (double
///    tempo) only wins when the off-beat multiples are strong too. A mild log-Gaussian
///    prior centred on 120 BPM (Ellis 2007; Klapuri et al. 2006) breaks near-ties
///    between metrical levels;
/// 4. parabolic interpolation of the comb around the best grid point.
///
/// Allocates its scratch at construction; `estimate` allocates nothing.
final class TempoEstimator {
    /// Onset frames per second.
    let frameRate: Double
    /// Longest history (frames) that `estimate` accepts.
    let capacity: Int
    /// Lowest and highest displayed tempo (BPM), SPEC §6.
    static let displayMin = 70.0
    static let displayMax = 160.0
    /// Candidate beat rates searched (BPM), folded into the display range afterwards.
    static let minBPM = 60.0
    static let maxBPM = 200.0
    static let gridStep = 0.25
    /// Longest comb lag as a share of the history.
    static let lagShare = 2.0 / 3.0
    /// Comb maxima within this share of the best are metrical-level candidates.
    static let candidateShare: Float = 0.7
    static let maxCandidates = 6
    /// Phase salience a candidate needs, relative to the comb's winner, to replace it.
    static let overrideRatio: Float = 1.25
    /// Width of the log-Gaussian tempo prior (octaves).
    static let priorWidth = 1.5

    private let x: UnsafeMutablePointer<Float>
    private let xs: UnsafeMutablePointer<Float>
    private let prefix: UnsafeMutablePointer<Double>
    private let acf: UnsafeMutablePointer<Float>
    private let smoothed: UnsafeMutablePointer<Float>
    private let scores: UnsafeMutablePointer<Float>
    private let sorted: UnsafeMutablePointer<Float>
    private let prior: UnsafeMutablePointer<Float>
    private let gridCount: Int
    private let maxLag: Int

    init(frameRate: Double, capacity: Int) {
        self.frameRate = frameRate
        self.capacity = capacity
        gridCount = Int(((Self.maxBPM - Self.minBPM) / Self.gridStep).rounded()) + 1
        maxLag = max(4, Int(Double(capacity) * Self.lagShare))
        x = .allocate(capacity: capacity)
        xs = .allocate(capacity: capacity)
        prefix = .allocate(capacity: capacity + 1)
        acf = .allocate(capacity: maxLag + 1)
        smoothed = .allocate(capacity: maxLag + 1)
        scores = .allocate(capacity: gridCount)
        sorted = .allocate(capacity: gridCount)
        prior = .allocate(capacity: gridCount)
        for g in 0..<gridCount {
            let bpm = Self.minBPM + Double(g) * Self.gridStep
            let octaves = log2(bpm / 120)
            prior[g] = Float(exp(-0.5 * octaves * octaves / (Self.priorWidth * Self.priorWidth)))
        }
    }

    deinit {
        x.deallocate(); xs.deallocate(); prefix.deallocate(); acf.deallocate(); smoothed.deallocate()
        scores.deallocate(); sorted.deallocate(); prior.deallocate()
    }

    /// Estimates the tempo of `onset[0..<count]` (oldest first). Returns nil when the
    /// signal is flat (no variance after detrending).
    func estimate(_ onset: UnsafePointer<Float>, count n: Int) -> TempoEstimate? {
        precondition(n <= capacity)
        guard n >= 16 else { return nil }
        // 1. Detrend: subtract the centred 2 s moving mean (prefix sums), rectify.
        prefix[0] = 0
        for i in 0..<n { prefix[i + 1] = prefix[i] + Double(onset[i]) }
        let halfWin = max(1, Int((frameRate).rounded()))
        var mean = 0.0, m2 = 0.0, m4 = 0.0
        for i in 0..<n {
            let lo = max(0, i - halfWin), hi = min(n, i + halfWin + 1)
            let d = Double(onset[i]) - (prefix[hi] - prefix[lo]) / Double(hi - lo)
            m2 += d * d
            m4 += d * d * d * d
            let v = Float(max(0, d))
            x[i] = v
            mean += Double(v)
        }
        let kurtosis = m2 > 0 ? m4 * Double(n) / (m2 * m2) : 0
        // Normalise to zero mean, unit variance.
        mean /= Double(n)
        var variance = 0.0
        for i in 0..<n {
            let d = Double(x[i]) - mean
            variance += d * d
        }
        variance /= Double(n)
        guard variance > 1e-12 else { return nil }
        let inv = Float(1 / variance.squareRoot()), m = Float(mean)
        for i in 0..<n { x[i] = (x[i] - m) * inv }

        // A [1 2 1]/4 low-passed copy for the phase-locked pulse trains.
        xs[0] = (3 * x[0] + x[1]) / 4
        for i in 1..<(n - 1) { xs[i] = (x[i - 1] + 2 * x[i] + x[i + 1]) / 4 }
        xs[n - 1] = (x[n - 2] + 3 * x[n - 1]) / 4

        // 2. Unbiased autocorrelation, normalised by the zero lag.
        let lags = min(maxLag, Int(Double(n) * Self.lagShare))
        for l in 0...lags {
            var s: Float = 0
            for i in 0..<(n - l) { s += x[i] * x[i + l] }
            acf[l] = s / Float(n - l)
        }
        let r0 = acf[0]
        guard r0 > 0 else { return nil }
        for l in 0...lags { acf[l] /= r0 }
        // Smooth with [1 4 6 4 1]/16 (= the ACF of the onset signal low-passed by
        // [1 2 1]/4): onset peaks are one frame wide, so the raw ACF is undersampled at
        // non-integer beat periods and a peak between two lags reads too low.
        smoothed[0] = (6 * acf[0] + 8 * acf[1] + 2 * acf[2]) / 16
        smoothed[1] = (4 * acf[0] + 7 * acf[1] + 4 * acf[2] + acf[3]) / 16
        for l in 2...(lags - 2) {
            smoothed[l] = (acf[l - 2] + 4 * acf[l - 1] + 6 * acf[l] + 4 * acf[l + 1] + acf[l + 2]) / 16
        }
        smoothed[lags - 1] = (acf[lags - 3] + 4 * acf[lags - 2] + 6 * acf[lags - 1] + 5 * acf[lags]) / 16
        smoothed[lags] = (acf[lags - 2] + 4 * acf[lags - 1] + 11 * acf[lags]) / 16
        let norm = smoothed[0]
        for l in 0...lags { acf[l] = smoothed[l] / norm }

        // 3. Comb score per candidate tempo, with the prior.
        var best = 0
        var bestScore = -Float.infinity
        for g in 0..<gridCount {
            let bpm = Self.minBPM + Double(g) * Self.gridStep
            let period = 60 * frameRate / bpm
            var sum: Float = 0, count: Float = 0
            var lag = period
            while lag <= Double(lags - 2) {
                sum += interpolatedACF(lag)
                count += 1
                lag += period
            }
            let comb = count > 0 ? sum / count : 0
            scores[g] = comb
            let weighted = comb * prior[g]
            if weighted > bestScore { bestScore = weighted; best = g }
        }
        // 3b. Metrical level: among the comb's strong local maxima, prefer the period
        // whose pulse train, at its best phase, lands on the strongest onsets
        // (Scheirer 1998's phase-locked comb resonators). The ACF alone cannot tell the
        // beat P from 1.5·P when eighth notes are dense (kick→hat and hat→kick lags
        // look alike); a pulse train at 1.5·P alternates beats and off-beats.
        let bestSalience = pulseSalience(period: 60 * frameRate / (Self.minBPM + Double(best) * Self.gridStep), count: n)
        var chosen = best
        var chosenSalience = Self.overrideRatio * max(bestSalience, 0.01)
        var candidates = 0
        for g in 0..<gridCount where candidates < Self.maxCandidates && g != best {
            let w = scores[g] * prior[g]
            guard w >= Self.candidateShare * bestScore else { continue }
            let left = g > 0 ? scores[g - 1] * prior[g - 1] : -Float.infinity
            let right = g < gridCount - 1 ? scores[g + 1] * prior[g + 1] : -Float.infinity
            guard w >= left && w > right else { continue }
            candidates += 1
            let period = 60 * frameRate / (Self.minBPM + Double(g) * Self.gridStep)
            let salience = pulseSalience(period: period, count: n)
            if salience > chosenSalience { chosenSalience = salience; chosen = g }
        }
        best = chosen
        // 4. Parabolic interpolation around the winning grid point.
        var offset = 0.0
        if best > 0 && best < gridCount - 1 {
            let a = Double(scores[best - 1]), b = Double(scores[best]), c = Double(scores[best + 1])
            let den = a - 2 * b + c
            if den < 0 { offset = max(-0.5, min(0.5, 0.5 * (a - c) / den)) }
        }
        var bpm = Self.minBPM + (Double(best) + offset) * Self.gridStep
        while bpm > Self.displayMax { bpm /= 2 }
        while bpm < Self.displayMin { bpm *= 2 }
        let peak = Double(scores[best])
        return TempoEstimate(bpm: bpm, confidence: max(0, min(1, peak)), contrast: peak - median(),
                             peakiness: kurtosis)
    }

    /// Phase salience of a pulse train with `period` (frames) over the normalised onset
    /// signal `x[0..<count]`: the best phase's mean onset value minus the mean over all
    /// phases. Pulses are counted back from the newest frame (linear interpolation).
    private func pulseSalience(period: Double, count n: Int) -> Float {
        let phases = max(1, Int(2 * period))
        let pulses = Int((Double(n - 2) - period) / period) + 1
        guard pulses >= 2 else { return 0 }
        var bestPhase = -Float.infinity, total: Float = 0
        for phase in 0..<phases {
            var sum: Float = 0
            for k in 0..<pulses {
                let position = Double(n - 2) - 0.5 * Double(phase) - Double(k) * period
                let i = Int(position)
                let t = Float(position - Double(i))
                sum += xs[i] + t * (xs[i + 1] - xs[i])
            }
            let mean = sum / Float(pulses)
            total += mean
            bestPhase = max(bestPhase, mean)
        }
        return bestPhase - total / Float(phases)
    }

    /// The autocorrelation between integer lags (Catmull-Rom cubic).
    @inline(__always)
    private func interpolatedACF(_ lag: Double) -> Float {
        let i = Int(lag)
        let t = Float(lag - Double(i))
        let p0 = acf[max(i - 1, 0)], p1 = acf[i], p2 = acf[i + 1], p3 = acf[i + 2]
        let a = -0.5 * p0 + 1.5 * p1 - 1.5 * p2 + 0.5 * p3
        let b = p0 - 2.5 * p1 + 2 * p2 - 0.5 * p3
        let c = -0.5 * p0 + 0.5 * p2
        return ((a * t + b) * t + c) * t + p1
    }

    /// Median of the comb scores (insertion sort on scratch; ~361 values).
    private func median() -> Double {
        for g in 0..<gridCount {
            let v = scores[g]
            var j = g
            while j > 0 && sorted[j - 1] > v { sorted[j] = sorted[j - 1]; j -= 1 }
            sorted[j] = v
        }
        return Double(sorted[gridCount / 2])
    }
}
