import SpecvizCore

// Beat tracking, step 3b: the grid's phase, on the beat or half a beat off.
//
// The smooth programme keeps one phase for as long as the envelope allows, so where its
// envelope (the low and mid bands) is stronger half-way between the beats, the grid sits on
// the off-beat for a whole segment. Two kinds of evidence move it:
// - the kicks (`kicksOnTheBeat`): a percussive low onset that falls between the beats, on most
//   of them (house whose off-beat hats and bass outweigh the kick);
// - where the kicks do not mark the grid, the attacks of everything else: the broadband flux,
//   the log spectrum's rise and the flux above ~2.6 kHz (hats, cymbals, the snare's rattle)
//   all stronger half-way between its beats. Funk's kicks and bass fall on syncopated
//   eighths and sixteenths as often as on the beat; its backbeat snare and accented hats
//   tell the beat.
extension BeatAnalyzer {
    /// Onset envelopes (normalised) that tell the phase where the kicks do not.
    struct PhaseEvidence {
        var kick: [Float], broad: [Float], log: [Float], high: [Float]
    }

    /// The grid on the beat: the kicks decide per tempo segment (a new tempo may come with a
    /// new phase) in stretches of `kickStretch` beats, then the attacks per segment.
    func onTheBeat(_ beats: [Int], evidence: PhaseEvidence, factor: Double, duration: Double) -> [Int] {
        var out: [Int] = []
        var from = 0
        let segs = segments(beats: beats, factor: factor, duration: duration)
        for (k, segment) in segs.enumerated() {
            var to = beats.count
            if k + 1 < segs.count { to = max(from, beats.firstIndex { frameTime($0) >= segment.end - 0.01 } ?? beats.count) }
            var piece: [Int] = []
            var a = from
            while a < to {
                var b = min(to, a + Self.kickStretch)
                if to - b < Self.kickStretch / 2 { b = to }
                piece += kicksOnTheBeat(Array(beats[a..<b]), kick: evidence.kick)
                a = b
            }
            out += attacksOnTheBeat(piece, evidence: evidence)
            from = to
        }
        out += beats[from...]
        return out
    }
    /// Beats per stretch of the kicks' decision.
    static let kickStretch = 32

    /// The grid moved half a beat when its kicks do not mark it (their beat-to-half-beat log
    /// ratio under `kickShift`) and the broadband flux, the log spectrum's rise and the high
    /// band's flux are all stronger half-way between its beats.
    func attacksOnTheBeat(_ beats: [Int], evidence e: PhaseEvidence) -> [Int] {
        guard beats.count >= 8, beatToHalfBeat(e.kick, beats: beats).ratio < Self.kickShift else { return beats }
        guard beatToHalfBeat(e.broad, beats: beats).ratio <= Self.attackShift.broad,
            beatToHalfBeat(e.log, beats: beats).ratio <= Self.attackShift.log,
            beatToHalfBeat(e.high, beats: beats).ratio <= Self.attackShift.high
        else { return beats }
        return Self.halfBeatLater(beats, frames: e.kick.count)
    }
    /// Log ratios (beat ÷ half-beat) at or under which the attacks move the grid. On the
    /// development sets (dev, dev3, dev-ext: 204 grids of the programme) the six on the
    /// off-beat, all funk, read broadband −0.14 to −0.36, log rise −0.41 to −0.49 (one
    /// +0.01) and high band −0.29 to −0.93; of the grids on the beat whose kicks do not mark
    /// them, none reads all three this low (a breakbeat's high band: +0.60; a bossa's log
    /// rise: −0.28). House and techno grids on the beat read as low, but their kicks mark them.
    static let attackShift = (broad: -0.1, log: -0.3, high: -0.2)

    /// Flux of the band levels from band 20 of `OnsetStrength.bandCount` up (~2.6–5 kHz).
    func highFlux() -> [Float] {
        let bands = OnsetStrength.bandCount
        var out = [Float](repeating: 0, count: envelope.count)
        guard envelope.count > 1, spectra.count >= envelope.count * bands else { return out }
        for j in 1..<envelope.count {
            var s: Float = 0
            for q in Self.highBand..<bands { s += max(0, spectra[j * bands + q] - spectra[(j - 1) * bands + q]) }
            out[j] = s
        }
        return out
    }
    /// First band of the high band's flux.
    static let highBand = 20
}
