#if canImport(Glibc)
import Glibc
#endif

/// Offline local tempo and pulse evidence of an onset envelope (issue 37): whether there is
/// a beat at all, and where, decided on the whole track rather than on what a live display
/// showed.
///
/// 1. Windows of `window` seconds every `step` seconds: the octave-family comb scores of
///    `TempoEstimator` over its grid of folded tempi (80–160 BPM), i.e. how strongly the
///    window's onsets recur at each beat period and its multiples.
/// 2. The null model: the same window with its frames shuffled (a fixed permutation). Its
///    best score is what onsets without a period reach by chance through the search over
///    every tempo; the window's evidence is its own best score less the shuffled one's.
/// 3. The tempo path: Viterbi over the grid, window to window, maximising the summed scores
///    less `drift` × the relative change of tempo between windows (changes beyond
///    `maxChange` a step are not allowed): a tempo that drifts (rubato of ±8 %) is followed,
///    a score that jumps between unrelated tempi is not.
struct PulsePath {
    /// Window length and step (s).
    static let window = 8.0
    static let step = 1.0
    /// Cost of a relative tempo change of 1 (in family-score units) between windows.
    static let drift: Float = 4
    /// Largest relative tempo change between consecutive windows.
    static let maxChange = 0.04

    /// Envelope frame of each window's centre.
    private(set) var centres: [Double] = []
    /// Folded tempo (BPM, 80–160) of each window on the path.
    private(set) var bpm: [Double] = []
    /// Each window's best family score less its shuffled copy's.
    private(set) var evidence: [Double] = []
    /// Each window's weight: its mean onset strength over the `loudShare` quantile of the
    /// windows' (at most 1), so that near-silent stretches, whose faint flux the per-window
    /// normalisation would blow up, count for little.
    private(set) var weight: [Double] = []
    /// Quantile of the window strengths that counts as full weight.
    static let loudShare = 0.9
    /// Least weighted mean evidence of a pulse: between the beat-less tracks of the dev and
    /// dev-ext tempo sets (at most 0.17: a pad's slow modulation, a piano chord's reverb tail)
    /// and their pulse tracks (at least 0.26: drumless orchestral).
    static let minEvidence = 0.2

    /// The weighted mean of the windows' evidence.
    var meanEvidence: Double {
        let total = weight.reduce(0, +)
        guard total > 0 else { return 0 }
        return zip(weight, evidence).reduce(0) { $0 + $1.0 * $1.1 } / total
    }
    /// The last frame of the first window whose own evidence reaches `minEvidence`.
    var firstPulse: Int? {
        guard let k = evidence.firstIndex(where: { $0 >= Self.minEvidence }) else { return nil }
        return Int(centres[k] + centres[0])
    }
    /// Whether the track has a pulse at all.
    var hasPulse: Bool { meanEvidence >= Self.minEvidence }

    init(_ envelope: [Float], frameRate: Double) {
        let o = envelope
        let n = min(o.count, Int((Self.window * frameRate).rounded()))
        guard n >= 48 else { return }
        let hop = max(1, Int((Self.step * frameRate).rounded()))
        let estimator = TempoEstimator(frameRate: frameRate, capacity: n)
        let grid = estimator.gridSize
        var permutation = Array(0..<n)
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        for i in stride(from: n - 1, to: 0, by: -1) {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            permutation.swapAt(i, Int((state >> 33) % UInt64(i + 1)))
        }
        var shuffled = [Float](repeating: 0, count: n)
        var scores: [Float] = []
        o.withUnsafeBufferPointer { buffer in
            guard let all = buffer.baseAddress else { return }
            var start = 0
            while true {
                let s = min(start, o.count - n)
                let base = all + s
                var top: Float = 0
                var strength: Float = 0
                for i in 0..<n { strength += base[i] }
                weight.append(Double(strength) / Double(n))
                if estimator.estimate(base, count: n) != nil {
                    for g in 0..<grid { let v = estimator.familyScore(g); scores.append(v); top = max(top, v) }
                } else {
                    scores.append(contentsOf: repeatElement(0, count: grid))
                }
                for i in 0..<n { shuffled[i] = base[permutation[i]] }
                var chance: Float = 0
                shuffled.withUnsafeBufferPointer { p in
                    if estimator.estimate(p.baseAddress!, count: n) != nil {
                        for g in 0..<grid { chance = max(chance, estimator.familyScore(g)) }
                    }
                }
                centres.append(Double(s) + Double(n) / 2)
                evidence.append(Double(top - chance))
                if s + n >= o.count { break }
                start += hop
            }
        }
        bpm = Self.viterbi(scores, grid: grid)
        let sorted = weight.sorted()
        let reference = sorted[min(sorted.count - 1, Int(Self.loudShare * Double(sorted.count)))]
        weight = weight.map { reference > 0 ? min(1, $0 / reference) : 0 }
    }

    /// The path's tempi (BPM) through `scores` (one row of `grid` per window).
    private static func viterbi(_ scores: [Float], grid: Int) -> [Double] {
        let windows = scores.count / grid
        guard windows > 0 else { return [] }
        func tempo(_ g: Int) -> Double { TempoEstimator.minBPM + Double(g) * TempoEstimator.gridStep }
        var value = Array(scores[0..<grid])
        var next = [Float](repeating: 0, count: grid)
        var back = [Int32](repeating: 0, count: windows * grid)
        for w in 1..<max(1, windows) {
            for g in 0..<grid {
                let reach = Int((maxChange * tempo(g) / TempoEstimator.gridStep).rounded())
                var top = -Float.infinity, from = g
                for d in -reach...reach {
                    // The grid wraps: 80 BPM is 160 BPM's octave family.
                    let h = ((g + d) % grid + grid) % grid
                    let v = value[h] - drift * Float(abs(Double(d)) * TempoEstimator.gridStep / tempo(g))
                    if v > top { top = v; from = h }
                }
                next[g] = top + scores[w * grid + g]
                back[w * grid + g] = Int32(from)
            }
            swap(&value, &next)
        }
        var g = 0
        for h in 1..<grid where value[h] > value[g] { g = h }
        var path = [Double](repeating: 0, count: windows)
        for w in stride(from: windows - 1, through: 0, by: -1) {
            path[w] = tempo(g)
            g = Int(back[w * grid + g])
        }
        return path
    }

    /// The path's tempo at envelope frame `j` (linear between window centres).
    func tempo(atFrame j: Int) -> Double {
        guard let first = centres.first else { return 120 }
        let x = Double(j)
        if x <= first { return bpm[0] }
        for k in 1..<centres.count where x <= centres[k] {
            let a = bpm[k - 1], b = bpm[k]
            // Across the wrap (80 ↔ 160) no interpolation: the nearer window's tempo.
            if abs(a - b) > 20 { return x - centres[k - 1] < centres[k] - x ? a : b }
            return a + (b - a) * (x - centres[k - 1]) / (centres[k] - centres[k - 1])
        }
        return bpm[bpm.count - 1]
    }
}
