import CKernels
import SpecvizCore

#if canImport(Glibc)
import Glibc
#endif

/// Whether a low note dominates its band: its own fundamental measured against its period
/// estimate.
extension PitchTracker {
    /// A latched low note whose own fundamental disagrees with its reading is unsure on
    /// every hop, attack or not: something else sounds in its band. A kick's tail as loud as
    /// a sustained bass raises the level (broadband or below 150 Hz alike) by only 2-3 dB,
    /// so it is no attack, yet it pulled an E1's period 27 cents sharp. The reading is sure
    /// again once the two agree. Only notes under `checkAbove`: above it a kick's tail lies
    /// clear of the fundamental's bin (and under rumble the check only cost accuracy:
    /// public set, 80-200 Hz tuner-grade p95 3.0 -> 3.7 cents). The fundamental is
    /// measured on every hop while the note is latched (its phase history stays whole), and
    /// judged only once its window and phase history lie past the last attack: a note's
    /// onset restarts its phase, which the window mixes with the note before it.
    func checkFundamental(latched: Double?) {
        guard let l = latched, l < PitchTracker.checkAbove, samplesSeen >= longRing.count else {
            fundamentalCheck.reset(); fundamentalCheckLow.reset()
            fundamentalRun = PitchTracker.upperLag
            return
        }
        if hopCount == lastAttack {
            // A fresh phase history from the attack on: a note's onset restarts its phase.
            fundamentalCheck.reset(); fundamentalCheckLow.reset()
            fundamentalRun = PitchTracker.upperLag
        }
        let short = l >= fundamentalCheck.minimumFrequency
        let check = short ? fundamentalCheck : fundamentalCheckLow
        (short ? fundamentalCheckLow : fundamentalCheck).reset()
        let src = longRing.latest(check.size)
        let p = check.refine(
            src, endSample: samplesSeen, estimate: l, energy: spv_energy(src, Int32(check.size)), retune: 0.5,
            lag: PitchTracker.upperLag)
        let settled = hopCount - lastAttack >= check.size / hopSize + PitchTracker.upperLag
        if !settled {
            // Within the attack's window and phase history the phase straddles the onset
            // (a short note's window holds the notes before it): only a fundamental another
            // note away counts (a kick's tail read an octave under the note, its checked 2nd
            // partial the note itself), measured where the window is shorter than a short
            // note, and cleared only by agreeing on as many hops as the phase advance spans
            // (a kick's sweep crosses the reading).
            guard short else { fundamentalRun = PitchTracker.upperLag; return }
            guard let p, var e = raw, abs(12 * log2(e.frequency / l)) < 0.6 else { return }
            fundamentalRun = abs(1200 * log2(p / e.frequency)) <= PitchTracker.otherNoteCents ? fundamentalRun + 1 : 0
            if fundamentalRun < PitchTracker.upperLag { e.unsure = true; raw = e }
            return
        }
        guard var e = raw, e.frequency < PitchTracker.dominanceLimit else { return }
        guard abs(12 * log2(e.frequency / l)) < 0.6 else {
            // Another low note while the latched one's band is not its own: the same sound
            // (a kick's tail read as a note near the bass).
            if fundamentalRun < PitchTracker.upperLag { e.unsure = true; raw = e }
            return
        }
        if let p {
            let agrees = abs(1200 * log2(p / e.frequency)) <= PitchTracker.fundamentalCents
            // Sure again after agreeing on as many hops as the phase advance spans: a single
            // agreement under a kick's tail is the two pulled alike.
            fundamentalRun = agrees ? fundamentalRun + 1 : 0
            if fundamentalRun < PitchTracker.upperLag { e.unsure = true }
        } else if check.share >= FirstPartialTracker.minShare || fundamentalRun < PitchTracker.upperLag {
            // A fresh probe on a strong fundamental (not yet checked), or a fundamental too
            // weak to tell after one that disagreed (the band is not yet shown to be the note's).
            e.unsure = true
        }
        raw = e
    }

    /// Cents off the reading from which a fundamental measured across an attack is another
    /// note's: half a semitone.
    static let otherNoteCents = 50.0
    /// Cents by which the latched note's fundamental may disagree with its period estimate.
    static let fundamentalCents = 3.0

    /// A latched low note's reading is sure only on its steady part. Until the fundamental
    /// check judges (its window and phase history past the last attack: the first 140-230
    /// ms of a note), nothing else vouches for the reading, and a kick landing in a short
    /// note pulls it: the kick's falling sweep crosses the note's fundamental and its checked
    /// partial alike, so the period estimate and the partial agree on a pitch 10-30 cents
    /// off for a hop or two, and the readings around it jump by as much or drift. So there
    /// the reading is unsure unless the note's last `steadyHops` detections agree within
    /// `steadyCents` divided by the periods of the note in the analysis window (the period
    /// estimate scatters inversely with them; a hop without a detection on the note starts
    /// the count afresh), and unless the hop before was sure too: a single sure hop between
    /// unsure ones is a pull crossing the note's pitch (the demo's G1 read 12 cents flat on
    /// one hop). Only from `fundamentalCheck`'s range (43 Hz) up: below it the window holds
    /// under two periods, and a clean C1's detections scatter by more than a kick pulls them.
    func checkSteady(latched: Double?) {
        let passedBefore = steadyPassed
        steadyPassed = false
        guard let l = latched, l < PitchTracker.checkAbove, l >= fundamentalCheck.minimumFrequency, var e = raw else {
            clearSteady()
            return
        }
        guard abs(12 * log2(e.frequency / l)) < 0.6 else {
            // Off the note (a partial's replacement crossed by a kick's sweep read a G1 45
            // cents sharp): unsure while nothing checks it.
            clearSteady()
            if unsettledLowNote(l) && e.frequency < PitchTracker.checkAbove { e.unsure = true; raw = e }
            return
        }
        steadyReadings[steadyIndex] = e.frequency
        steadyIndex = (steadyIndex + 1) % steadyReadings.count
        guard unsettledLowNote(l) else {
            steadyPassed = !e.unsure
            return
        }
        var lo = Double.infinity, hi = 0.0
        for f in steadyReadings { lo = min(lo, f); hi = max(hi, f) }
        let periods = l * Double(windowSize) / Double(sampleRate)
        if lo <= 0 || 1200 * log2(hi / lo) > PitchTracker.steadyCents / periods {
            e.unsure = true
        }
        steadyPassed = !e.unsure
        if !passedBefore { e.unsure = true }
        raw = e
    }

    /// Whether `latched` is a low note (from `fundamentalCheck`'s range to `checkAbove`) whose
    /// fundamental is not yet measured past the last attack.
    func unsettledLowNote(_ latched: Double) -> Bool {
        latched >= fundamentalCheck.minimumFrequency && latched < PitchTracker.checkAbove
            && hopCount - lastAttack < fundamentalCheck.size / hopSize + PitchTracker.upperLag
    }

    /// Forgets the detections `checkSteady` compares.
    func clearSteady() {
        for i in steadyReadings.indices { steadyReadings[i] = 0 }
        steadyIndex = 0
        steadyPassed = false
    }

    /// Detections on a low note (a ring) that must agree within `steadyCents` divided by the
    /// note's periods in the analysis window (10 cents at A1) while they are its only check.
    /// KickSet, detached notes under kicks (main: 42 confident readings 8-15 cents off): 3
    /// hops within 28 cents let 8 through (an A1 drifting as a kick's sweep crosses it), 4
    /// within 30 let 7; 4 within 26, none. With the hop before required sure too, 609 of
    /// main's 698 confident hops in those notes remain; within 16 cents, the pad's low
    /// notes (which scatter by 10 cents from hop to hop) lost a third of theirs and let 3
    /// through.
    static let steadyHops = 4
    static let steadyCents = 26.0
}
