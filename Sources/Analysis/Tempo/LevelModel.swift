#if canImport(Glibc)
import Glibc
#endif

/// The metrical level of an offline beat grid as probabilities (issue 37): is the beat a
/// listener taps half, once or twice the folded (80–160 BPM) beat?
///
/// A multinomial logistic regression on the grid's features: the folded tempo (log₂ of
/// tempo ÷ 110 BPM) and, on the broadband, low-band (< 200 Hz) and mid-band (200 Hz – 3 kHz)
/// envelopes, how much sounds half-way between the beats, a third and a quarter of the way,
/// and how alike alternate beats are (`GridFeatures`); each feature also times the log tempo,
/// so that "something half-way" can mean one thing at 85 BPM and another at 150.
/// P(level k) = softmax(W_k · x + b_k), with priors that rule out a tapped beat slower than 55
/// or faster than 184 BPM, half a beat whose alternate beats are alike, and twice a beat with
/// nothing between its beats. The weights are fitted on generated development and
/// training sets (never on a validation copy) by `eval/tempo/level/fit_level.py`, which writes
/// `LevelModel+Weights.swift`; the fit, its data and its cross-validation are in
/// `eval/tempo/NOTES.md` (stage K).
///
/// It replaces the level rules of earlier builds (`levelRule` with `halfBeatsSubdivide`: two
/// thresholds on the folded tempo, five on the band features): on 1150 generated development
/// and training tracks the rules chose the annotated level for 94.3 %, the model, fitted each
/// time without the set it is tested on, for 99.0 %. The live level (`TempoTracker.updateLevel`)
/// filters the readings of a second fit of the same inputs (`Fit.live`), made on the grids the
/// live view reads twice a second: the predicted beats of an 8 s history, which may be a few
/// beats long, straddle a tempo change or fall on the off-beat.
public enum LevelModel {
    /// The levels, in the order of the probabilities: ½, 1 and 2 × the folded beat.
    public static let factors: [Double] = [0.5, 1, 2]

    /// Which weights: fitted on whole tracks' grids (offline) or on live 8 s histories.
    enum Fit { case track, live }

    /// The model's inputs for a grid at `tempo` BPM (folded) with these band features.
    static func features(tempo: Double, broad b: GridFeatures, low l: GridFeatures, mid m: GridFeatures) -> [Double] {
        var x: [Double] = []
        features(into: &x, tempo: tempo, broad: b, low: l, mid: m)
        return x
    }

    /// `features` written into `x` (no allocation when `x` has the capacity): the log tempo,
    /// then half-way, alternation, third-way and quarter-way for each band, then each of those
    /// times the log tempo.
    static func features(into x: inout [Double], tempo: Double, broad b: GridFeatures, low l: GridFeatures, mid m: GridFeatures) {
        let lt = log2(max(tempo, 1) / 110)
        x.removeAll(keepingCapacity: true)
        x.append(lt)
        func add(_ g: GridFeatures, _ scale: Double) {
            x.append(scale * g.mid)
            x.append(scale * g.alternation)
            x.append(scale * g.triplet)
            x.append(scale * g.quarter)
        }
        for scale in 0..<2 {
            let s = scale == 0 ? 1 : lt
            add(b, s)
            add(l, s)
            add(m, s)
        }
    }

    /// The priors, which the fit shares (`fit_level.py`):
    /// - tempo: half the folded beat only from a folded `halfFrom` BPM (a tapped beat of at
    ///   least 55), twice it only up to `doubleUpTo` (at most 184). The generated sets' tempi lie
    ///   within 58–181 BPM, so the fit has no evidence beyond, where a regression extrapolates: a
    ///   metronome at 100 BPM with a kick on each bar read as 50, plucks at 100 as 200;
    /// - evidence: half only when alternate beats differ in some band (an alternation below
    ///   `alike`; a slower beat is heard in its accents), twice only when something sounds
    ///   half-way between the beats in some band (at least `somethingBetween`; a faster beat is
    ///   heard in its notes). Every generated track at half or twice its folded beat meets these
    ///   (alternation at most 0.69; half-way at least 0.57); a bare pulse meets neither.
    /// Leave-one-set-out: 97.7 % without the priors, 98.9 % with the tempo prior, 99.0 % with both.
    static let halfFrom = 110.0
    static let doubleUpTo = 92.0
    /// The slowest and fastest tapped beat the tempo prior allows (BPM).
    static let slowestBeat = halfFrom / 2, fastestBeat = 2 * doubleUpTo
    static let alike = 0.8
    static let somethingBetween = 0.4
    /// Positions in `features` of the bands' half-way and alternation features.
    private static let mids = (1, 5, 9), alternations = (2, 6, 10)

    /// P(½), P(1), P(2) for the inputs `x` (`features`; its first is log₂(tempo ÷ 110)).
    static func probabilities(_ x: [Double], fit: Fit = .track) -> [Double] {
        let p = posterior(x, fit: fit)
        return [p[0], p[1], p[2]]
    }

    /// `probabilities` as a vector (no allocation).
    static func posterior(_ x: [Double], fit: Fit) -> SIMD3<Double> {
        let (w, bias) = fit == .track ? (weights, bias) : (liveWeights, liveBias)
        precondition(x.count == inputs && w[0].count == inputs, "level model: \(x.count) inputs, weights for \(w[0].count)")
        let folded = 110 * exp2(x[0])
        var scores = SIMD3<Double>(bias[0], bias[1], bias[2])
        for k in 0..<3 {
            for j in 0..<inputs { scores[k] += w[k][j] * x[j] }
        }
        if folded < halfFrom || (x[alternations.0] >= alike && x[alternations.1] >= alike && x[alternations.2] >= alike) {
            scores[0] = -.infinity
        }
        if folded > doubleUpTo || (x[mids.0] < somethingBetween && x[mids.1] < somethingBetween && x[mids.2] < somethingBetween) {
            scores[2] = -.infinity
        }
        let top = max(scores[0], scores[1], scores[2])
        let e = SIMD3(exp(scores[0] - top), exp(scores[1] - top), exp(scores[2] - top))
        return e / (e[0] + e[1] + e[2])
    }

    /// Index of the largest of `p`; the folded level (1) unless another is strictly larger, so
    /// that probabilities that are not numbers keep the folded beat.
    static func likeliest(_ p: [Double]) -> Int {
        p.indices.reduce(1) { p[$1] > p[$0] ? $1 : $0 }
    }

    /// Number of inputs the weights take.
    static var inputs: Int { weights.first?.count ?? 0 }
}
