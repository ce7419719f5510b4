import SpecvizCore

#if canImport(Glibc)
import Glibc
#endif

// Causal beat prediction: the forward beat programme and the phase-locked next beat.
extension TempoTracker {
    /// Tightness of the forward beat programme (stiffer than `BeatAnalyzer`'s 100: with no
    /// look-ahead a single syncopated kick must not pull the phase; public set: F 0.815 at
    /// 100, 0.838 at 300 with `jumpFrames` 12).
    static let beatTightness: Float = 300
    /// Share of the phase error corrected per frame, and the error (in periods) beyond
    /// which the phase jumps after `jumpFrames` frames.
    static let phaseGain = 0.2
    static let phaseJump = 0.15
    static let jumpFrames = 12
    /// A jump also waits at least this share of a period. Two phases with about the same
    /// cumulative score take turns at the top: the one whose beat came last leads until the
    /// other's next beat, up to half a period later. Only a lead that outlasts that moves the
    /// beat (a 93 BPM funk groove jumped between its beats and off-beats every few beats:
    /// public set, causal beat F on funk 0.83 → 0.92).
    static let jumpPeriods = 0.6
    /// A jump within this share of a period of half a beat moves the beats to the off-beat; it
    /// is not taken while the kicks or the attacks mark the beats (`gridHoldsTheBeat`). A held
    /// bass or loud hats on the off-beat can outweigh the kicks in the programme's low and mid
    /// bands for a few bars (a house track's break); the programme's lead then moved the beats
    /// there until the off-beat audit moved them back (dev3: 8 of its 33 jumps of half a beat
    /// left beats that were right, all but two more than 15 s in).
    static let halfJump = 0.15
    /// Centre of onset frame n: (n + beatOffset) hops (a click shows in the frame that holds it).
    static let beatOffset = 0.5
    /// How far ahead of the audio heard a beat is announced (s): a display that hears its
    /// audio in blocks (the render feed's 2048-sample hops, ~46 ms) still knows each beat
    /// before the video frame that holds it.
    static let announceAhead = 0.1

    /// Beat prediction, once per onset frame. With a tempo on display of period P frames, the
    /// forward pass of Ellis's beat programme over the kick and snare onsets (normalised by
    /// the history's mean and deviation),
    /// C(n) = o(n) + max_d [C(n − d) − α·log²(d/P)], d in P/2…2P,
    /// is causal: the best C within the last period marks the newest beat. The next beat is
    /// scheduled one period after it; a phase-locked loop follows the marks gently and jumps
    /// when they stay off (not half a beat away from the kicks), and each beat is announced
    /// `announceAhead` before it is due (so a display flashes on it, not after it).
    func predictBeat() {
        let n = framesIn - 1
        let slot = n % capacity
        let frames = Float(min(framesIn, capacity))
        let norm = ProgrammeNorm(
            mean: beatSum / frames, sd: Self.deviation(beatSum, beatSumSquares, frames),
            logMean: logSum / frames, logSD: Self.deviation(logSum, logSumSquares, frames), log: logPhase)
        guard let shown = filter.display, !isSilent(frames: silenceFrames) else {
            nextBeatFrame = nil
            programmePeriod = 0
            scoreRing[slot] = programmeInput(n, norm)
            return
        }
        let period = 60 * frameRate / (shown.bpm * level)
        // A new period (the level or the tempo changed): the history's cumulative scores were
        // made with the old one, so the whole history is scored again with this one.
        let newPeriod = programmePeriod == 0 || abs(period / programmePeriod - 1) > Self.rescoreChange
        if programmePeriod != 0 && (rescoreProgramme || newPeriod) {
            let first = max(framesIn - capacity + 1, 0)
            for m in first..<n { scoreRing[m % capacity] = programmeStep(m, from: first, period: period, norm) }
        }
        if newPeriod { periodFrom = framesIn }
        programmePeriod = period
        rescoreProgramme = false
        scoreRing[slot] = programmeStep(n, from: 0, period: period, norm)
        // The newest beat: the best cumulative score within the last period.
        let span = max(1, Int(period.rounded()))
        guard n >= span else { return }
        var lastBeat = n, top = -Float.infinity
        for m in (n - span + 1)...n where scoreRing[m % capacity] > top { top = scoreRing[m % capacity]; lastBeat = m }
        var mark = Double(lastBeat) + halfShift * period
        if var next = nextBeatFrame {
            // Marks that have come to the beats' phase by themselves: the shift is dropped.
            if halfShift != 0 {
                let raw = Double(lastBeat), m = ((next - raw) / period).rounded()
                if abs(raw + m * period - next) <= Self.phaseJump * period { halfShift = 0; mark = raw }
            }
            let m = ((next - mark) / period).rounded()
            let error = mark + m * period - next
            if abs(error) > Self.phaseJump * period {
                phaseMisses += 1
                if Double(phaseMisses) >= max(Double(Self.jumpFrames), Self.jumpPeriods * period) {
                    // No jump of half a beat away from beats the kicks or the attacks mark, or
                    // that the last review placed.
                    let toOffBeat =
                        abs(abs(error) / period - 0.5) < Self.halfJump
                        && (reviewHolds || gridHoldsTheBeat(next: next, period: period))
                    if !toOffBeat { next = mark + m * period }
                    phaseMisses = 0
                }
            } else {
                phaseMisses = 0
                next += Self.phaseGain * error
            }
            nextBeatFrame = next
        } else {
            nextBeatFrame = mark + period
            phaseMisses = 0
        }
        // Announce the beats due within `announceAhead` of the audio heard, each where its
        // notes start (`attackLead`).
        let horizon = Double(framesIn) + Self.announceAhead * frameRate
        while var next = nextBeatFrame, next + Self.beatOffset + attackLead < horizon {
            let due = next + Self.beatOffset + attackLead
            let time = due * Double(hop) / Double(sampleRate)
            if due >= Double(framesIn) - 0.5,
                time - (predictedBeats.last ?? -1) > 0.5 * period / frameRate
            {
                announcedLeads[predictedBeats.count % Self.leadSlots] = attackLead
                predictedBeats.append(time)
            }
            next += period
            nextBeatFrame = next
        }
    }

    /// How the programme's inputs are normalised, and whether the log rise joins them.
    struct ProgrammeNorm {
        var mean: Float, sd: Float, logMean: Float, logSD: Float, log: Bool
    }

    /// The deviation of `frames` values from their sum and sum of squares (at least 1e-6).
    static func deviation(_ sum: Float, _ squares: Float, _ frames: Float) -> Float {
        let mean = sum / frames
        return max(1e-6, (max(0, squares / frames - mean * mean)).squareRoot())
    }

    /// The programme's input at frame `m`: the kick and snare onsets over the history's mean,
    /// in deviations; while the log spectrum carries the display (`logPhase`), plus its rise
    /// measured the same way (quiet plucks under a loud chord: the bands' onsets are the chord's).
    @inline(__always)
    private func programmeInput(_ m: Int, _ norm: ProgrammeNorm) -> Float {
        let o = max(0, beatRing[m % capacity] - norm.mean) / norm.sd
        return norm.log ? o + max(0, logRing[m % capacity] - norm.logMean) / norm.logSD : o
    }

    /// The forward programme's score at frame `m` (predecessors from frame `first` on).
    private func programmeStep(_ m: Int, from first: Int, period: Double, _ norm: ProgrammeNorm) -> Float {
        let logP = Float(log(period))
        let o = programmeInput(m, norm)
        let dMin = max(1, Int((0.5 * period).rounded())), dMax = min(m - first, min(capacity - 1, Int((2 * period).rounded())))
        var best: Float = 0
        if dMin <= dMax {
            for d in dMin...dMax {
                let e = logTable[d] - logP
                best = max(best, scoreRing[(m - d) % capacity] - Self.beatTightness * e * e)
            }
        }
        return o + best
    }
    /// Relative change of the period beyond which the programme is scored again.
    static let rescoreChange = 0.1

    /// Calls `body` with the onset frame of each of the last 64 predicted beats that lies in
    /// the history (and at or after frame `first`), oldest first: the programme's frame, the
    /// announced time less the `attackLead` it was announced with.
    func forEachHeardBeat(from first: Int = 0, _ body: (Double) -> Void) {
        let oldest = Double(max(framesIn - capacity + 2, first)), newest = Double(framesIn - 2)
        for k in max(0, predictedBeats.count - Self.leadSlots)..<predictedBeats.count {
            let f = predictedBeats[k] * Double(sampleRate) / Double(hop) - Self.beatOffset - announcedLeads[k % Self.leadSlots]
            if f >= oldest, f <= newest { body(f) }
        }
    }

    /// `BeatAnalyzer.attackLead` on the heard beats of the history: how far (onset frames, ≤ 0)
    /// the log spectrum's rise leads the programme's marks on average, once per tempo update;
    /// 0 with fewer than 8 beats heard.
    func updateAttackLead() {
        let reach = Self.attackReach, oldest = max(0, framesIn - capacity + 1)
        heardScratch.removeAll(keepingCapacity: true)
        forEachHeardBeat { f in
            let j = Int(f.rounded())
            if j - reach >= oldest, j + 2 < framesIn { heardScratch.append(j) }
        }
        attackLead = BeatAnalyzer.attackLead(heardScratch, reach: reach) { logRing[$0 % capacity] } ?? 0
    }
    /// Onset frames (~70 ms) before a beat that `updateAttackLead` looks for its log rise.
    static let attackReach = 3
}
