import SpecvizCore

#if canImport(Glibc)
import Glibc
#endif

// Beat tracking, step 2b: a pulse the live display never showed, heard over the whole track.
//
// The display starts only on strong evidence (`TempoDisplayFilter`), as it must live: a wrong
// tempo on screen is worse than none. Bowed strings and other legato music whose notes swell in
// rarely give one estimate that strong, so the display stays blank and the track got no beats,
// although the raw estimates agree on its tempo update after update (on the generated string
// orchestras, the confidence-weighted mode of the raw estimates is within 4 % of the true tempo on
// 15 of 16 chorale and arco tracks). Offline, the whole track can be weighed. Beat-less audio
// (held, beating, swelling or decaying chords) also holds periodicities the estimator locks onto,
// so agreement alone is no sign of a pulse; what sets played notes apart is that the pitch content
// moves (`TempoEstimate.movement`), over onsets spread through the track rather than one attack
// fading (`TempoEstimate.peakiness`), and new energy keeps coming (`TempoEstimate.novelty`).
// On the development and training copies (eval/tempo/NOTES.md, stages Q and R) none of the 130
// beat-less files passes the three tests below, and 51 of the 54 string tracks do (three whose
// estimates scatter over tempi).
extension BeatAnalyzer {
    /// The tempo of a pulse the display never showed, or nil: from 3 s on, the raw estimates'
    /// median `movement` is at least `heardMovement` (or at least `heardMovementSpread` where their
    /// median `peakiness` is at most `heardPeakiness`), their median `novelty` at least
    /// `heardNovelty`, and their confidence-weighted mode (±`heardReach` in log tempo) holds at
    /// least `heardShare` of their confidence. `bpm` is the weighted mean within the mode (the
    /// folded level, as the display's); `start` the first estimate's time.
    static func heardPulse(_ updates: [TempoUpdate]) -> (start: Double, bpm: Double)? {
        let raw = updates.compactMap { u in u.raw.map { (time: u.time, estimate: $0) } }.filter { $0.time >= heardFrom }
        guard raw.count >= heardEstimates else { return nil }
        func median(_ v: [Double]) -> Double { v.sorted()[v.count / 2] }
        let movement = median(raw.map(\.estimate.movement))
        guard movement >= heardMovement || (movement >= heardMovementSpread && median(raw.map(\.estimate.peakiness)) <= heardPeakiness),
            median(raw.map(\.estimate.novelty)) >= heardNovelty
        else { return nil }
        // The mode: for each estimate, the confidence of all within ±heardReach of it (a window
        // sliding over the estimates sorted by log tempo).
        let sorted = raw.map { (log: log($0.estimate.bpm), weight: $0.estimate.confidence) }.sorted { $0.log < $1.log }
        let total = sorted.reduce(0) { $0 + $1.weight }
        guard total > 0 else { return nil }
        var lo = 0, hi = 0, inside = 0.0
        var best = (weight: 0.0, lo: 0, hi: 0)
        for k in sorted.indices {
            while hi < sorted.count && sorted[hi].log < sorted[k].log + heardReach { inside += sorted[hi].weight; hi += 1 }
            while sorted[lo].log <= sorted[k].log - heardReach { inside -= sorted[lo].weight; lo += 1 }
            if inside > best.weight { best = (inside, lo, hi) }
        }
        guard best.weight >= heardShare * total else { return nil }
        let mode = sorted[best.lo..<best.hi]
        let mean = mode.reduce(0) { $0 + $1.log * $1.weight } / mode.reduce(0) { $0 + $1.weight }
        return (raw[0].time, exp(mean))
    }
    /// Seconds of audio before the first estimate `heardPulse` reads (the estimator's warm-up).
    static let heardFrom = 3.0
    /// Fewest raw estimates (~6 s) `heardPulse` decides on.
    static let heardEstimates = 12
    /// Least median harmonic movement: beat-less files read at most 0.058 (a piano chord decaying
    /// in reverb, whose partials fade at different rates), string tracks at least 0.038.
    static let heardMovement = 0.05
    /// Least median harmonic movement where the onsets are spread over the track: median
    /// `peakiness` (the onset signal's kurtosis) at most `heardPeakiness`. The beat-less files that
    /// move by 0.02 or more are one attack fading (a struck chord in reverb: kurtosis 6.9–18.7, the
    /// attack dominates the onset signal); those whose onset signal is spread (kurtosis at most
    /// 6) move by at most 0.019. Legato lines whose harmony moves slowly read
    /// 0.038–0.046 with kurtosis 2.7–3.8 (two string tracks of the training copies, a real
    /// development recording with a pulse that got no beats).
    static let heardMovementSpread = 0.03
    /// Largest median kurtosis of the onset signal (`TempoEstimate.peakiness`) for
    /// `heardMovementSpread` (3 for noise-like onsets; the string tracks of the development and
    /// training copies read 2.4–11.2, median 3.3, the pizzicato ones highest).
    static let heardPeakiness = 5.0
    /// Least median new energy: the beat-less files that move read at most 0.001 (the decaying
    /// chord) or move at most 0.042; string tracks read at least 0.008.
    static let heardNovelty = 0.006
    /// Half-width of the mode in log tempo (±4 %).
    static let heardReach = 0.04
    /// Least share of the estimates' confidence within the mode.
    static let heardShare = 0.4

    /// Tempo candidates for `heardPulse`'s tempo `bpm`: each raw estimate within ±`rubatoReach` (log)
    /// of it, smoothed by the median of itself and its four agreeing neighbours, as a run of its
    /// own, so that the beat programme follows the rubato the estimates follow; the mode alone
    /// where none agrees.
    func heardRuns(near bpm: Double, from start: Double) -> [(start: Double, end: Double, bpm: Double)] {
        let near = updates.compactMap { u in u.raw.map { (time: u.time, bpm: $0.bpm) } }
            .filter { $0.time >= Self.heardFrom && abs(log($0.bpm / bpm)) < Self.rubatoReach }
        guard !near.isEmpty else { return [(start, tracker.time, bpm)] }
        return near.indices.map { k in
            let around = near[max(0, k - 2)...min(near.count - 1, k + 2)].map(\.bpm).sorted()
            return (near[k].time - Self.heardSpan, near[k].time, around[around.count / 2])
        }
    }
    /// Largest distance (log tempo, ±10 %) of a raw estimate from the mode that follows it.
    static let rubatoReach = 0.1
    /// Seconds before its update that one raw estimate's run spans.
    static let heardSpan = 0.5
}
