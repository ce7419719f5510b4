import SpecvizCore

#if canImport(Glibc)
import Glibc
#endif

// Beat tracking, step 3b: the grid's phase, on the beat or half a beat off.
//
// The smooth programme keeps one phase for as long as the envelope allows, so where its
// envelope (the low and mid bands) is stronger half-way between the beats, the grid sits on
// the off-beat for a whole segment. `PhaseModel` reads, per stretch of the grid, where the
// bands fall on its beats and half-beats; a tempo segment moves half a beat when its stretches,
// pooled, say it is likelier off the beat than on it.
extension BeatAnalyzer {
    /// Onset envelopes (normalised) that tell the phase where the kicks do not.
    struct PhaseEvidence {
        var kick: [Float], broad: [Float], log: [Float], high: [Float], low: [Float], mid: [Float]
    }

    /// The grid on the beat: `PhaseModel` reads stretches of `phaseStretch` beats and decides
    /// per tempo segment (a new tempo may come with a new phase); a segment of fewer than 8
    /// beats stays as it is.
    func onTheBeat(_ beats: [Int], evidence: PhaseEvidence, factor: Double, duration: Double) -> [Int] {
        var out: [Int] = []
        var from = 0
        let segs = segments(beats: beats, factor: factor, duration: duration)
        for (k, segment) in segs.enumerated() {
            var to = beats.count
            if k + 1 < segs.count { to = max(from, beats.firstIndex { frameTime($0) >= segment.end - 0.01 } ?? beats.count) }
            // The stretches' evidence pooled over the segment: the mean log-odds, each stretch
            // weighted by its beats. The whole segment moves when it is likelier off the beat
            // than on it, or none of it: a grid that changes phase mid-segment loses half its
            // beats whichever phase is right.
            var stretches: [(range: Range<Int>, odds: Double)] = []
            var a = from
            while a < to {
                var b = min(to, a + Self.phaseStretch)
                if to - b < Self.phaseStretch / 2 { b = to }
                if b - a >= 8 {
                    let stretch = Array(beats[a..<b])
                    let x = phaseInputs(stretch, evidence: evidence)
                    let p = PhaseModel.offBeat(x)
                    phaseReadings.append(PhaseReading(beats: stretch.map(frameTime), inputs: x, offBeat: p))
                    stretches.append((a..<b, PhaseModel.logOdds(p)))
                }
                a = b
            }
            let counted = stretches.reduce(0) { $0 + $1.range.count }
            let pooled = counted > 0 ? stretches.reduce(0) { $0 + $1.odds * Double($1.range.count) } / Double(counted) : -.infinity
            let piece = Array(beats[from..<to])
            out += pooled > 0 ? Self.halfBeatLater(piece, frames: evidence.kick.count) : piece
            from = to
        }
        out += beats[from...]
        return out
    }
    /// The phase model's inputs on a stretch of the grid: log₂(tempo ÷ 110); the kicks'
    /// beat-to-half-beat log ratio, their share of half-beats and of beats; the same log ratio
    /// of the broadband flux, the log rise, the high, low and mid bands; and for the mid and
    /// broadband how much more alternate beats differ than alternate half-beats (a backbeat).
    func phaseInputs(_ beats: [Int], evidence e: PhaseEvidence) -> [Double] {
        let seconds = frameTime(beats[beats.count - 1]) - frameTime(beats[0])
        let tempo = 60 * Double(beats.count - 1) / max(seconds, 1e-3)
        let kick = beatToHalfBeat(e.kick, beats: beats)
        let later = Self.halfBeatLater(beats, frames: e.kick.count)
        let kickOnBeats = later.count >= 2 ? beatToHalfBeat(e.kick, beats: later).halfCover : 0
        func ratio(_ o: [Float]) -> Double { beatToHalfBeat(o, beats: beats).ratio }
        func alternation(_ o: [Float], _ grid: [Int]) -> Double {
            var even: Float = 0, odd: Float = 0
            for (k, f) in grid.enumerated() { if k % 2 == 0 { even += strength(o, at: Double(f)) } else { odd += strength(o, at: Double(f)) } }
            let n = Float(grid.count)
            return Double(abs(even - odd) / n)
        }
        func backbeat(_ o: [Float]) -> Double {
            log((alternation(o, beats) + 0.1) / (alternation(o, later) + 0.1))
        }
        return [
            log2(tempo / 110), kick.ratio, kick.halfCover, kickOnBeats, ratio(e.broad), ratio(e.log), ratio(e.high),
            ratio(e.low), ratio(e.mid), backbeat(e.mid), backbeat(e.broad),
        ]
    }

    /// Beats per stretch the phase model reads (a longer segment is read in several).
    static let phaseStretch = 32

    /// Log ratios (beat ÷ half-beat) of the broadband flux, the log spectrum's rise and the high
    /// band at or under which the live phase moves the grid when its kicks do not mark it
    /// (`TempoTracker.beatsOffTheBeat`; the offline rule of earlier builds). On the development
    /// sets (dev, dev3, dev-ext: 204 grids of the programme) the six on the off-beat, all funk, read
    /// broadband −0.14 to −0.36, log rise −0.41 to −0.49 (one +0.01) and high band −0.29 to −0.93;
    /// of the grids on the beat whose kicks do not mark them, none reads all three this low.
    static let attackShift = (broad: -0.1, log: -0.3, high: -0.2)

    /// One phase decision of the offline grid: a stretch of the programme's beats (media
    /// times), `PhaseModel`'s inputs on it, and P(off the beat).
    public struct PhaseReading: Sendable {
        public var beats: [Double]
        public var inputs: [Double]
        public var offBeat: Double
    }

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
