import SpecvizCore

#if canImport(Glibc)
import Glibc
#endif

/// One raw tempo estimate from the onset history (before display smoothing).
public struct TempoEstimate: Equatable, Sendable {
    /// Beat rate in beats per minute, in the display range (80–160 as estimated).
    public var bpm: Double
    /// Mean normalised autocorrelation at the beat period and its multiples
    /// (0…1; the seed's "peak / zero-lag" generalised to a comb).
    public var confidence: Double
    /// 1 − r(1)/r(0) of the onset signal: ~1 for sharp onsets (drums, plucks, bowed
    /// attacks), near 0 for a smooth periodic swell (beating partials of a held chord,
    /// a pad's tremolo), which is periodic but not a beat.
    public var sharpness: Double
    /// Kurtosis of the detrended onset signal (3 for Gaussian noise, 1.5 for a sine):
    /// onsets are peaks, so a beat scores well above 2; the smooth flicker of a held
    /// chord's interfering partials (a few sinusoids) scores about 2.
    public var peakiness: Double
    /// Highest smoothed autocorrelation at a single beat period of 60–200 BPM
    /// (no multiples): whether onsets recur at a beat rate at all, rather than once a
    /// bar (a pad changing chords on each downbeat).
    public var pulse: Double
    /// Whether a weak estimate was confirmed by the two halves of the history on their
    /// own (set by `TempoTracker`; see `TempoDisplayFilter`).
    public var corroborated = false
    /// Share of the history's spectral flux that is new energy (`SpectralNovelty.novel`
    /// over `flux`): notes and drums bring partials or an attack the preceding ~90 ms did
    /// not have; a held chord that swells and fades only raises partials it already had
    /// (~0). Set by `TempoTracker`; 1 (no constraint) when unmeasured.
    public var novelty = 1.0
    /// How much the pitch content moved from second to second over the history
    /// (`HarmonicMovement`): notes and chords that change (~0.05–0.2) against a held chord,
    /// however it swells (≤ ~0.07). Set by `TempoTracker`; 0 when unmeasured.
    public var movement = 0.0
    /// Whether it was read from the log spectrum's rise rather than the linear flux (the
    /// linear flux had no clear beat; `TempoTracker.update`).
    public var fromLogSpectrum = false
}

/// Estimates the beat period of an onset-strength history
/// (SPEC §6; seed 000 Part 5 "Autocorrelation (every ~0.5s)" steps 5–12).
///
/// 1. Detrend with a centred 2 s moving mean, half-wave rectify, normalise to zero mean
///    and unit variance.
/// 2. Unbiased autocorrelation r(l)/r(0) up to 2/3 of the history (Scheirer 1998;
///    Ellis 2007), smoothed with [1 4 6 4 1]/16 because onset peaks are one frame wide
///    and would otherwise fall between lags.
/// 3. Improvements over the seed's single-lag peak pick:
///    - a comb per candidate tempo: the mean of r at the period P and all its multiples
///      read with cubic interpolation; the multiples give sub-frame resolution
///      (0.3 frames at 8P is 0.04 frames at P), which a ~43 Hz lag grid cannot reach;
///    - octave families (the seed's harmonic check, generalised): each tempo b in
///      80–160 BPM is scored by the prior-weighted combs of b/2, b and 2b, so a uniform
///      eighth-note stream groups in twos, not threes (174 → 87, not 116);
///    - a log-Gaussian tempo prior centred on 120 BPM, 1.5 octaves wide (Ellis 2007;
///      Klapuri et al. 2006);
///    - phase-locked pulse trains (Scheirer's comb resonators) to arbitrate between
///      strong family maxima: a pulse train at 1.5 beats alternates beats and off-beats,
///      one at the beat lands on the accents.
/// 4. Parabolic interpolation of the family score around the winner.
///
/// Allocates its scratch at construction; `estimate` allocates nothing.
final class TempoEstimator {
    /// Onset frames per second.
    let frameRate: Double
    /// Longest history (frames) that `estimate` accepts.
    let capacity: Int
    /// One octave of candidate tempi (BPM); every octave family has one member here.
    static let minBPM = 80.0
    static let maxBPM = 160.0
    static let gridStep = 0.25
    /// At most this many multiples per comb (fast tempi would otherwise read dozens).
    static let maxMultiples: Float = 16
    /// Longest comb lag as a share of the history.
    static let lagShare = 2.0 / 3.0
    /// Family maxima within this share of the best are metrical-level candidates.
    static let candidateShare: Float = 0.7
    static let maxCandidates = 6
    /// Family score (share of the best's) a candidate at two thirds of the best's tempo needs
    /// before its phase salience may replace it.
    static let twoThirdsShare: Float = 0.95
    /// Phase salience a candidate needs, relative to the winner's, to replace it.
    static let overrideRatio: Float = 1.25
    /// Log-Gaussian tempo prior: centre (BPM) and width (octaves).
    static let priorCentre = 120.0
    static let priorWidth = 1.5

    private let x: OwnedBuffer<Float>
    private let xs: OwnedBuffer<Float>
    private let prefix: OwnedBuffer<Double>
    private let acf: OwnedBuffer<Float>
    private let smoothed: OwnedBuffer<Float>
    private let scores: OwnedBuffer<Float>
    /// Prior of b/2, b and 2b for each grid tempo b.
    private let prior: OwnedBuffer<Float>
    private let gridCount: Int
    /// The lags of the combs of b/2, b and 2b for each grid tempo b (`maxMultiples` a row),
    /// and how many each has at the longest history: `gridComb` reads them instead of
    /// stepping through them again on every estimate.
    private let combLags: OwnedBuffer<Double>
    private let combCounts: OwnedBuffer<Int>
    /// Each comb lag's whole frames, as `interpolatedACF` splits it, and the interpolation's
    /// weights of acf[i − 1 … i + 2] at its fraction (`cubicWeights`).
    private let combIndices: OwnedBuffer<Int>
    private let combWeights: OwnedBuffer<SIMD4<Float>>
    private let maxLag: Int
    private var lags = 0
    private var peakiness = 0.0

    init(frameRate: Double, capacity: Int) {
        self.frameRate = frameRate
        self.capacity = capacity
        gridCount = Int(((Self.maxBPM - Self.minBPM) / Self.gridStep).rounded())
        maxLag = max(8, Int(Double(capacity) * Self.lagShare))
        x = OwnedBuffer(zeroed: capacity)
        xs = OwnedBuffer(zeroed: capacity)
        prefix = OwnedBuffer(zeroed: capacity + 1)
        acf = OwnedBuffer(zeroed: maxLag + 1)
        smoothed = OwnedBuffer(zeroed: maxLag + 1)
        scores = OwnedBuffer(zeroed: gridCount)
        prior = OwnedBuffer(zeroed: 3 * gridCount)
        combLags = OwnedBuffer(zeroed: 3 * gridCount * Int(Self.maxMultiples))
        combCounts = OwnedBuffer(zeroed: 3 * gridCount)
        combIndices = OwnedBuffer(zeroed: 3 * gridCount * Int(Self.maxMultiples))
        combWeights = OwnedBuffer(count: 3 * gridCount * Int(Self.maxMultiples), repeating: SIMD4())
        for g in 0..<gridCount {
            let bpm = Self.minBPM + Double(g) * Self.gridStep
            for (f, member) in [bpm / 2, bpm, bpm * 2].enumerated() {
                prior[3 * g + f] = Self.priorWeight(member)
                // The comb's lags, as `comb` steps through them, up to the longest history's.
                let period = 60 * frameRate / member, row = (3 * g + f) * Int(Self.maxMultiples)
                var lag = period, count = 0
                while period >= 1, lag <= Double(maxLag - 2), count < Int(Self.maxMultiples) {
                    combLags[row + count] = lag
                    combIndices[row + count] = Int(lag)
                    combWeights[row + count] = Self.cubicWeights(Float(lag - Double(Int(lag))))
                    count += 1
                    lag += period
                }
                combCounts[3 * g + f] = count
            }
        }
    }

    /// Estimates the tempo of `onset[0..<count]` (oldest first). Returns nil when the
    /// history is too short or flat.
    func estimate(_ onset: UnsafePointer<Float>, count n: Int) -> TempoEstimate? {
        precondition(n <= capacity)
        guard n >= 24, prepare(onset, count: n) else { return nil }
        let sharpness = Double(1 - acf[1])
        smoothACF()

        // 3. Octave-family score per candidate; remember the best.
        var best = 0
        for g in 0..<gridCount {
            scores[g] = gridComb(3 * g) * prior[3 * g] + gridComb(3 * g + 1) * prior[3 * g + 1] + gridComb(3 * g + 2) * prior[3 * g + 2]
            if scores[g] > scores[best] { best = g }
        }
        // Metrical level among strong family maxima: phase-locked pulse salience.
        let bestScore = scores[best]
        var chosen = best
        var chosenSalience = Self.overrideRatio * max(pulseSalience(bpm: bpm(at: best), count: n), 0.01)
        var candidates = 0
        for g in 0..<gridCount where candidates < Self.maxCandidates && g != best {
            let s = scores[g]
            guard s >= Self.candidateShare * bestScore,
                s >= scores[(g + gridCount - 1) % gridCount], s > scores[(g + 1) % gridCount]
            else { continue }
            candidates += 1
            // Two thirds of the best: the dotted-quarter pulse of a 3-3-2 clave (bossa),
            // which lands on its accents better than the beat does. It takes over only with
            // a family score close to the best's.
            if abs(bpm(at: g) / bpm(at: best) - 2.0 / 3.0) < 0.015 && s < Self.twoThirdsShare * bestScore { continue }
            let salience = pulseSalience(bpm: bpm(at: g), count: n)
            if salience > chosenSalience { chosenSalience = salience; chosen = g }
        }
        // 4. Parabolic interpolation (the grid wraps: 80 BPM is 160 BPM's family).
        let a = Double(scores[(chosen + gridCount - 1) % gridCount]), b = Double(scores[chosen])
        let c = Double(scores[(chosen + 1) % gridCount])
        let den = a - 2 * b + c
        let offset = den < 0 ? max(-0.5, min(0.5, 0.5 * (a - c) / den)) : 0
        var tempo = bpm(at: chosen) + offset * Self.gridStep
        if tempo < Self.minBPM { tempo *= 2 }
        if tempo >= Self.maxBPM { tempo /= 2 }
        let confidence = max(comb(tempo), comb(tempo / 2), comb(tempo * 2))
        var pulse: Float = 0
        let shortest = Int(60 * frameRate / 200), longest = min(lags, Int((60 * frameRate / 60).rounded(.up)))
        if shortest < longest { for l in shortest...longest { pulse = max(pulse, acf[l]) } }
        return TempoEstimate(
            bpm: tempo, confidence: Double(max(0, min(1, confidence))), sharpness: sharpness,
            peakiness: peakiness, pulse: Double(pulse))
    }

    @inline(__always)
    private func bpm(at g: Int) -> Double { Self.minBPM + Double(g) * Self.gridStep }

    /// Step 1 and the raw autocorrelation of step 2. False when the signal is flat.
    private func prepare(_ onset: UnsafePointer<Float>, count n: Int) -> Bool {
        prefix[0] = 0
        for i in 0..<n { prefix[i + 1] = prefix[i] + Double(onset[i]) }
        let halfWindow = max(1, Int(frameRate.rounded())) // 2 s centred window
        var mean = 0.0, m2 = 0.0, m4 = 0.0
        for i in 0..<n {
            let lo = max(0, i - halfWindow), hi = min(n, i + halfWindow + 1)
            let d = Double(onset[i]) - (prefix[hi] - prefix[lo]) / Double(hi - lo)
            m2 += d * d
            m4 += d * d * d * d
            let v = Float(max(0, d))
            x[i] = v
            mean += Double(v)
        }
        peakiness = m2 > 0 ? m4 * Double(n) / (m2 * m2) : 0
        mean /= Double(n)
        var variance = 0.0
        for i in 0..<n { let d = Double(x[i]) - mean; variance += d * d }
        variance /= Double(n)
        guard variance > 1e-12 else { return false }
        let inv = Float(1 / variance.squareRoot()), m = Float(mean)
        for i in 0..<n { x[i] = (x[i] - m) * inv }
        // A [1 2 1]/4 low-passed copy for the pulse trains.
        xs[0] = (3 * x[0] + x[1]) / 4
        for i in 1..<(n - 1) { xs[i] = (x[i - 1] + 2 * x[i] + x[i + 1]) / 4 }
        xs[n - 1] = (x[n - 2] + 3 * x[n - 1]) / 4

        lags = min(maxLag, Int(Double(n) * Self.lagShare))
        autocorrelate(count: n)
        let r0 = acf[0]
        guard r0 > 0 else { return false }
        for l in 0...lags { acf[l] /= r0 }
        return true
    }

    /// The raw autocorrelation `acf[l] = Σ_i x[i]·x[i+l] / (n − l)` for l = 0…`lags`. Eight
    /// lags at a time, one per SIMD lane: each lane adds its products in the order of i, as
    /// one lag alone would, so the sums are the scalar loop's to the bit (the loop is bound
    /// by the latency of its additions, not by their number).
    private func autocorrelate(count n: Int) {
        let x = self.x.base
        var l = 0
        while l + 7 <= lags {
            // Every lane has its products up to i = n − l − 8; then each lane its own tail.
            let common = n - l - 7
            var s = SIMD8<Float>()
            for i in 0..<common {
                let y = UnsafeRawPointer(x + i + l).loadUnaligned(as: SIMD8<Float>.self)
                s += SIMD8(repeating: x[i]) * y
            }
            for j in 0..<8 {
                var t = s[j]
                for i in common..<(n - l - j) { t += x[i] * x[i + l + j] }
                acf[l + j] = t / Float(n - l - j)
            }
            l += 8
        }
        while l <= lags {
            var t: Float = 0
            for i in 0..<(n - l) { t += x[i] * x[i + l] }
            acf[l] = t / Float(n - l)
            l += 1
        }
    }

    /// Smooths the ACF with [1 4 6 4 1]/16 (even extension at lag 0, clamped at the end)
    /// and renormalises it to r(0) = 1.
    private func smoothACF() {
        @inline(__always) func at(_ l: Int) -> Float { acf[min(abs(l), lags)] }
        for l in 0...lags {
            smoothed[l] = (at(l - 2) + 4 * at(l - 1) + 6 * at(l) + 4 * at(l + 1) + at(l + 2)) / 16
        }
        let norm = smoothed[0]
        for l in 0...lags { acf[l] = smoothed[l] / norm }
    }

    /// Mean smoothed ACF at every multiple of the period of `bpm` within the lag range
    /// (0 when even one period does not fit).
    private func comb(_ bpm: Double) -> Float {
        let period = 60 * frameRate / bpm
        let limit = Double(lags - 2)
        guard period >= 1, period <= limit else { return 0 }
        var sum: Float = 0, count: Float = 0
        var lag = period
        while lag <= limit && count < Self.maxMultiples {
            sum += interpolatedACF(lag)
            count += 1
            lag += period
        }
        return sum / count
    }

    /// `comb` of member `f` (0, 1, 2: b/2, b, 2b) of grid tempo g, for `row` = 3g + f: the
    /// same lags, each read as four acf values times its weights, precomputed (the sum in
    /// another order: equal to `comb` within rounding).
    private func gridComb(_ row: Int) -> Float {
        let start = row * Int(Self.maxMultiples), limit = Double(lags - 2)
        let lags = combLags.base + start, count = combCounts[row]
        var k = 0
        while k < count && lags[k] <= limit { k += 1 }
        guard k > 0 else { return 0 }
        // A lag ≤ lags − 2 that is ≥ 1 reads acf[i − 1 … i + 2] unclamped.
        let index = combIndices.base + start, weights = combWeights.base + start, r = UnsafeRawPointer(acf.base)
        var sum = SIMD4<Float>()
        for j in 0..<k {
            sum += r.loadUnaligned(fromByteOffset: (index[j] - 1) * MemoryLayout<Float>.stride, as: SIMD4<Float>.self) * weights[j]
        }
        return sum.sum() / Float(k)
    }

    /// The log-Gaussian tempo prior at `bpm`.
    private static func priorWeight(_ bpm: Double) -> Float {
        let octaves = log2(bpm / priorCentre) / priorWidth
        return Float(exp(-0.5 * octaves * octaves))
    }

    /// Phase salience of a pulse train at `bpm` over the normalised, low-passed onset
    /// signal: the best phase's mean onset value minus the mean over all phases (half-
    /// frame phase steps, pulses counted back from the newest frame).
    private func pulseSalience(bpm: Double, count n: Int) -> Float {
        let period = 60 * frameRate / bpm
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

    /// The ACF between integer lags (Catmull-Rom cubic).
    @inline(__always)
    private func interpolatedACF(_ lag: Double) -> Float {
        let i = Int(lag)
        let t = Float(lag - Double(i))
        return Self.cubic(acf[max(i - 1, 0)], acf[i], acf[i + 1], acf[min(i + 2, lags)], t)
    }

    /// Catmull-Rom interpolation between `p1` (t = 0) and `p2` (t = 1).
    @inline(__always)
    private static func cubic(_ p0: Float, _ p1: Float, _ p2: Float, _ p3: Float, _ t: Float) -> Float {
        (SIMD4(p0, p1, p2, p3) * cubicWeights(t)).sum()
    }

    /// The weights of p0 … p3 in `cubic` at `t`.
    static func cubicWeights(_ t: Float) -> SIMD4<Float> {
        let t2 = t * t, t3 = t2 * t
        return SIMD4(
            -0.5 * t3 + t2 - 0.5 * t, 1.5 * t3 - 2.5 * t2 + 1,
            -1.5 * t3 + 2 * t2 + 0.5 * t, 0.5 * t3 - 0.5 * t2)
    }
}
