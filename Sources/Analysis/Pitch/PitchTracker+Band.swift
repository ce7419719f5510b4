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
}
