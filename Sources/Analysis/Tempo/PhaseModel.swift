#if canImport(Glibc)
import Glibc
#endif

/// Whether a stretch of the offline beat grid sits half a beat off (issue 37): P(off the beat).
///
/// The programme's grid keeps one phase for as long as its envelope allows, so where the low and
/// mid bands are stronger half-way between the beats it sits on the off-beat: house whose bass and
/// loud hats fall on the "and"s, funk whose kicks are syncopated, two-step and drum & bass whose
/// kicks fall on "2-and" and "3-and". The inputs (`BeatAnalyzer.phaseInputs`) say where each band
/// falls on the stretch's beats against its half-beats: the kicks (and on how many half-beats and
/// beats), the broadband flux, the log spectrum's rise, the high, low and mid bands, and whether
/// alternate beats differ more than alternate half-beats (a backbeat), with the tempo.
///
/// A network with one hidden layer of tanh units and a logistic output, fitted on generated
/// development and training sets (never on a validation copy) by `eval/tempo/phase/fit_phase.py`,
/// which writes `PhaseModel+Weights.swift`. It replaces two rules: kicks far off the grid on most
/// half-beats (`kickShift`, `kickCover`), and, where the kicks do not mark the grid, the
/// broadband flux, the log rise and the high band all stronger half-way (`attackShift`). The
/// evidence combines in such ANDs, which a logistic regression on the same inputs could not
/// follow (96.8 % of stretches right, leave-one-set-out); the rules got 97.9 %, the network
/// 99.1 % (`eval/tempo/NOTES.md`, stage M). Each hidden unit's weights keep the sign of how
/// their input bears on the phase, and the output's are positive, so the network is monotone in
/// every input but the tempo: more kicks or more of any band on the beats never makes the
/// off-beat likelier, however far a real recording lies from the generated ones. A tempo segment
/// moves when the mean log-odds of its stretches say off the beat
/// (`BeatAnalyzer.onTheBeat`). The live phase keeps the rules.
enum PhaseModel {
    /// log(p ÷ (1 − p)), within ±`surest` so that no one stretch outweighs the rest of its segment.
    static func logOdds(_ p: Double) -> Double {
        max(-surest, min(surest, log(p / (1 - p))))
    }
    /// Largest log-odds a stretch counts with (P 0.99).
    static let surest = log(99.0)

    /// The prior, which the fit shares (`fit_phase.py`): kicks this far (log ratio, the second
    /// input) stronger on the grid's beats than half-way mark the beat, and P(off) is 0. No
    /// off-beat stretch of the fit's sets reads above 0.97 (of the on-beat ones, 55 % do); the
    /// network is fitted on the others. Without it, a click track's hats, whose noise reaches
    /// below 200 Hz, read as kicks on every half-beat, and the network followed them over kicks
    /// 3.3 times stronger on the beats.
    static let kicksMark = 1.0

    /// P(the stretch whose inputs are `x` is half a beat off).
    static func offBeat(_ x: [Double]) -> Double {
        precondition(x.count == mean.count, "phase model: \(x.count) inputs, weights for \(mean.count)")
        guard x[1] < kicksMark else { return 0 }
        var out = outputBias
        for (k, row) in hiddenWeights.enumerated() {
            var a = hiddenBias[k]
            for j in 0..<x.count { a += row[j] * (x[j] - mean[j]) / scale[j] }
            out += outputWeights[k] * tanh(a)
        }
        return 1 / (1 + exp(-out))
    }
}
