#if canImport(Glibc)
import Glibc
#endif

// The live beat's phase: `BeatAnalyzer.onTheBeat`'s evidence, read on the predicted beats of
// the history.
//
// The forward programme follows the low and mid bands, which in house with loud hats and an
// off-beat bass, or in funk with syncopated kicks, are stronger half-way between the beats: its
// marks then sit on the off-beat. The offline analysis of earlier builds moved such a grid by half
// a beat when the kicks fall between its beats, or, where the kicks mark neither, when the
// broadband flux, the log spectrum's rise and the high band all do (offline, `PhaseModel` reads
// that evidence now); the live audit keeps those rules. The same evidence, normalised the same way (local
// mean over ±0.5 s removed, over the deviation), is read here on the predicted beats since the
// last audit.
extension TempoTracker {
    /// Whether the predicted beats since `auditFrom` are on the off-beat by the offline rules
    /// (`BeatAnalyzer.kickShift`, `kickCover`, `attackShift`).
    ///
    /// With fewer than `phaseGridBeats` of them heard (whose ±0.5 s the history holds), the
    /// grid of the next beat `next` and `period` (onset frames) is read back over the history
    /// instead, from at least `startGridBeats` of its beats: right after the display starts,
    /// the level changes or the phase moves, the history already holds the bars the grid will
    /// fall on, and waiting for eight flashes of the off-beat cost them all (development sets,
    /// causal beat F: dev3 0.913 → 0.919, dev5 0.861 → 0.867). nil when neither grid has
    /// enough beats.
    func beatsOffTheBeat(next: Double, period: Double) -> Bool? {
        if let (span, beats) = auditedBeats(from: auditFrom) { return offTheBeat(span, beats) }
        guard let window = auditWindow() else { return nil }
        let beats = gridBack(next: next, period: period, over: window.beats)
        guard beats.count >= Self.startGridBeats else { return nil }
        return offTheBeat(window.span, beats)
    }

    /// The beats of the grid `next` − k·`period` (onset frames) within `range`, oldest first: the
    /// newest `vetoBeats` of them.
    func gridBack(next: Double, period: Double, over range: ClosedRange<Double>) -> [Double] {
        var beats: [Double] = []
        var f = next - ((next - range.upperBound) / period).rounded(.up) * period
        while f >= range.lowerBound && beats.count < Self.vetoBeats {
            beats.append(f)
            f -= period
        }
        return beats.reversed()
    }

    /// The least beats of the grid read back over the history that an audit decides on (half
    /// of `phaseGridBeats`: the history at the display's start holds about four).
    static let startGridBeats = 4

    /// Whether the beats at frames `beats` (within `span`) are on the off-beat by the offline rules.
    private func offTheBeat(_ span: ClosedRange<Int>, _ beats: [Double]) -> Bool {
        let kick = phaseRatio(span, beats) { self.kickAt($0) }
        if kick.ratio <= -BeatAnalyzer.kickShift { return kick.halfCover >= BeatAnalyzer.kickCover }
        guard kick.ratio < BeatAnalyzer.kickShift else { return false }
        let limits = BeatAnalyzer.attackShift
        return phaseRatio(span, beats) { self.broadRing[$0 % self.capacity] }.ratio <= limits.broad
            && phaseRatio(span, beats) { self.logRing[$0 % self.capacity] }.ratio <= limits.log
            && phaseRatio(span, beats) { self.highRing[$0 % self.capacity] }.ratio <= limits.high
    }

    /// Predicted beats an audit of the phase reads (8, as the offline decision's least).
    static let phaseGridBeats = 8

    /// Whether the beat grid `next` − k·`period` (onset frames) over the history since the beats
    /// took their period (`periodFrom`: a tempo change's old beats say nothing of the new) is on
    /// the beat clearly enough that the programme's jump of half a beat away from it is not taken
    /// (`predictBeat`):
    /// - its kicks fall on it as clearly as `beatsOffTheBeat` asks of kicks half-way to move it
    ///   (log ratio ≥ `BeatAnalyzer.kickShift`), or
    /// - the broadband flux, the log spectrum's rise and the high band all fall more on its beats
    ///   than half-way between them (each log ratio ≥ 0): `beatsOffTheBeat`'s attack evidence,
    ///   read the other way. Where the kicks mark neither phase, a syncopated passage or a
    ///   drum & bass break led the programme half a beat away for a few bars, and the audit,
    ///   which moves the beats only when all three say so, seldom brought them back
    ///   (development sets, causal beat F: dev5 0.867 → 0.879; every validation copy up or equal), or
    /// - its high band falls on its beats clearly (log ratio ≥ `hatsHold`): where the kicks are
    ///   syncopated (two-step garage, bossa) they mark neither phase, the broadband flux and the
    ///   log rise lean a little half-way, and only the hats keep the beat. Of the jumps of half a
    ///   beat the programme took on the development and training sets, 55 left a grid on the beat
    ///   (19 of them with the high band at 0.51–1.52, most late in two-step tracks, whose beats then
    ///   stayed on the off-beat to the end) and 24 a grid on the off-beat (one of them at 1.51).
    ///
    /// With `kicksOnly`, the kicks' test alone (a review's move, `applyReview`). false with fewer
    /// than `phaseGridBeats` beats there.
    func gridHoldsTheBeat(next: Double, period: Double, kicksOnly: Bool = false) -> Bool {
        guard let window = auditWindow() else { return false }
        let first = max(Double(periodFrom + 1), window.beats.lowerBound)
        guard first <= window.beats.upperBound else { return false }
        let beats = gridBack(next: next, period: period, over: first...window.beats.upperBound)
        guard beats.count >= Self.phaseGridBeats else { return false }
        let span = window.span
        if phaseRatio(span, beats, { self.kickAt($0) }).ratio >= BeatAnalyzer.kickShift { return true }
        if kicksOnly { return false }
        let high = phaseRatio(span, beats) { self.highRing[$0 % self.capacity] }.ratio
        if high >= Self.hatsHold { return true }
        return phaseRatio(span, beats) { self.broadRing[$0 % self.capacity] }.ratio >= 0
            && phaseRatio(span, beats) { self.logRing[$0 % self.capacity] }.ratio >= 0
            && high >= 0
    }
    /// Log ratio (beat ÷ half-beat) of the high band (~2.6–5 kHz) on a grid's beats at or above
    /// which the hats hold the grid against a jump of half a beat (`gridHoldsTheBeat`).
    static let hatsHold = 0.5

    /// The most beats back a grid carried back over the history holds (`gridBack`: a slow drift
    /// moves an extrapolated grid).
    static let vetoBeats = 16

    /// The frames an audit reads (their local mean, ±0.5 s, heard; the kick's decay is read 5
    /// frames on) and the beat positions whose ±0.5 s and ±1 frame lie within them; nil while
    /// the history is too short.
    private func auditWindow() -> (span: ClosedRange<Int>, beats: ClosedRange<Double>)? {
        let half = Int((0.5 * frameRate).rounded())
        let newest = framesIn - 1 - max(half, 5), oldest = max(0, framesIn - capacity + 3)
        guard newest - oldest > 4 * half else { return nil }
        return (oldest...newest, Double(oldest + half + 1)...Double(newest - half - 1))
    }

    /// The frames an audit reads and the predicted beats since frame `first` within them; nil
    /// with fewer than `phaseGridBeats` beats.
    private func auditedBeats(from first: Int) -> (span: ClosedRange<Int>, beats: [Double])? {
        guard let window = auditWindow() else { return nil }
        var beats: [Double] = []
        forEachHeardBeat(from: first) { f in
            if window.beats.contains(f) { beats.append(f) }
        }
        guard beats.count >= Self.phaseGridBeats else { return nil }
        return (window.span, beats)
    }

    /// `BeatAnalyzer.beatToHalfBeat` of the envelope `value` over frames `span`, normalised as
    /// `BeatAnalyzer.normalised` does, at the frame positions `beats`.
    private func phaseRatio(_ span: ClosedRange<Int>, _ beats: [Double], _ value: (Int) -> Float)
        -> (ratio: Double, halfCover: Double)
    {
        let n = span.count, half = Int((0.5 * frameRate).rounded())
        let prefix = phaseScratch.base, out = phaseScratch.base + (n + 1)
        prefix[0] = 0
        for k in 0..<n { out[k] = value(span.lowerBound + k); prefix[k + 1] = prefix[k] + out[k] }
        var squares: Float = 0
        for k in 0..<n {
            let lo = max(0, k - half), hi = min(n, k + half + 1)
            let v = max(0, out[k] - (prefix[hi] - prefix[lo]) / Float(hi - lo))
            out[k] = v
            squares += v * v
        }
        let sd = max(1e-9, (squares / Float(n)).squareRoot())
        func strength(_ x: Double) -> Float {
            let c = Int(x.rounded()) - span.lowerBound
            var s: Float = 0
            for j in max(0, c - 1)...min(n - 1, c + 1) { s = max(s, out[j] / sd) }
            return s
        }
        return BeatAnalyzer.beatToHalfBeat(
            count: beats.count, atBeat: { strength(beats[$0]) }, atHalf: { strength((beats[$0] + beats[$0 + 1]) / 2) })
    }

    /// `PercussiveLow`'s kick at frame `i` (`updateKicks`); frame i + 5 must have been heard.
    @inline(__always)
    func kickAt(_ i: Int) -> Float { kickRing[i % capacity] }

    /// After frame n's quarters (`LowBandEnergy`) came in: the low band's level at the quarters
    /// whose four are now heard (the RMS over quarters j…j+3, a ~23 ms window, scaled so a
    /// full-scale sine reads 1), and the kick of frame n − 5, the largest of its four quarters'
    /// (as offline: the new energy over the ~35 ms before, 6 quarters, and the decay read
    /// 46–92 ms after, quarters 8…15).
    func updateKicks() {
        let n = framesIn, ring = 4 * capacity, scale = 1 / Float(hop / 2)
        for j in max(0, 4 * n - 3)...(4 * n) {
            var e: Float = 0
            for k in j...(j + 3) { e += lowQuarters[k % ring] }
            lowLevels[j % ring] = (e * scale).squareRoot()
        }
        let i = n - 5
        guard i >= 0 else { return }
        func level(_ j: Int) -> Float { j >= 0 ? lowLevels[j % ring] : 0 }
        var kick: Float = 0
        for j in (4 * i)..<(4 * i + 4) { kick = max(kick, PercussiveLow.kick(at: j, peak: 3, before: 6, horizon: 8, span: 8, level)) }
        kickRing[i % capacity] = kick
    }
}
