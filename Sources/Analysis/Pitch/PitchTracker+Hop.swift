import CKernels
import SpecvizCore

#if canImport(Glibc)
import Glibc
#endif

/// The stages of one hop (`analyseHop`).
extension PitchTracker {
    /// A low note's first partial over the long window, measured on every hop while the
    /// latch holds it (hops without a detection included: the phase history stays whole)
    /// and the period estimate scatters by more than 5 cents (armed before it is used).
    func measureLowPartial(latched: Double?) -> Double? {
        if let l = latched, l < PitchTracker.longWindowLimit, samplesSeen >= longRing.count,
            rawScatter > PitchTracker.lowScatterThreshold / 4
        {
            return refineLow(estimate: l)
        }
        lowPartial.reset()
        return nil
    }

    /// Forgets the detections' scatter.
    func restartScatter() {
        previousRaw = nil
        previousStep = nil
        rawScatter = 0
        rawBend = 0
    }

    /// The latched note's loudest level so far (dBFS), nil when nothing is latched or the
    /// latch moved to another note since the last hop.
    func latchedNotePeak(_ latched: Double?) -> Double? {
        guard let l = latched, notePeakFrequency > 0, abs(12 * log2(l / notePeakFrequency)) <= 0.6 else { return nil }
        return notePeak
    }

    /// The latched note's loudest level so far, measured afresh on a new latch.
    func trackNotePeak(latched: Double?) {
        if let l = latched {
            if notePeakFrequency == 0 || abs(12 * log2(l / notePeakFrequency)) > 0.6 {
                notePeak = detector.level
                notePeakFrequency = l
            }
            notePeak = max(notePeak, detector.level)
        } else {
            notePeakFrequency = 0
        }
    }

    /// The latched note's first partial, probed at the latch on every hop while it holds
    /// (hops without a detection included, so a fading note's phase history stays whole),
    /// on the high-passed window once it is ready (a fixed filter shifts a steady partial's
    /// phase by a constant, so the phase advance is unchanged; the rumble under the note
    /// is gone). Public set, rumble: tuner-grade p95 6.45 → 5.44 ¢, median 0.94 → 0.78.
    /// Returns the partial and whether the note has faded.
    func measureFirstPartial(
        latched: Double?, window src: UnsafePointer<Float>, onHighPass hpReady: Bool
    ) -> (Double?, Bool) {
        guard let l = latched, l >= firstPartial.minimumFrequency else {
            firstPartial.reset()
            return (nil, false)
        }
        let faded = notePeak - detector.level > PitchTracker.fadedBy
        if partialOnHighPass != hpReady { firstPartial.reset(); partialOnHighPass = hpReady }
        let energy = hpReady ? spv_energy(src, Int32(windowSize)) : detector.windowEnergy
        let partial = firstPartial.refine(
            src, endSample: samplesSeen, estimate: l, energy: energy, lag: faded ? partialLag(l) : 1, shorter: true)
        return (partial, faded)
    }

    /// Below the first partial's range, half the second partial over the long window (it
    /// sits 1.5·B above the first: 0.26 ¢ for B = 1e-4), which takes over from a period
    /// estimate pulled sharp by the stretched upper partials of a low stiff string only when
    /// the two agree within `secondPartialTolerance`. While it is measured it also holds a
    /// fading note, in place of `lowHold`. Returns the partial's estimate of the note and
    /// whether it came from the second or the third partial.
    func measureUpperPartials(latched: Double?) -> (Double?, Bool, Bool) {
        guard let l = latched, l < firstPartial.minimumFrequency, samplesSeen >= longRing.count else {
            secondPartial.reset()
            thirdPartial.reset()
            return (nil, false, false)
        }
        var partial = refineLow(estimate: 2 * l, tracker: secondPartial).map { $0 / 2 }
        let fromSecond = partial != nil
        var fromThird = false
        // The third partial, measured on every hop (its phase history stays whole), takes
        // over when the second has faded.
        if 3 * l >= PitchTracker.rumbleCutoff {
            let third = refineLow(estimate: 3 * l, tracker: thirdPartial, minShare: PitchTracker.thirdPartialShare)
            if partial == nil, let f = third { partial = f / 3; fromThird = true }
        } else {
            thirdPartial.reset()
        }
        return (partial, fromSecond, fromThird)
    }

    /// The detection on the latched note, refined by the long window's partial (`low`) or
    /// the first partial (`partial`, within `tolerance` cents); tracks its scatter.
    func refineRaw(latched: Double?, low: Double?, partial: Double?, tolerance: Double) {
        guard var e = raw, let l = latched, abs(12 * log2(e.frequency / l)) < 0.6 else {
            if latched == nil { restartScatter() }
            return
        }
        // How much the period estimate scatters from hop to hop on the latched note (cents²),
        // and how much of that is bending rather than a smooth swing of the note itself.
        if let p = previousRaw {
            let d = 1200 * log2(e.frequency / p)
            rawScatter += (d * d / 2 - rawScatter) * 0.1
            if let q = previousStep { rawBend += ((d - q) * (d - q) / 6 - rawBend) * 0.1 }
            previousStep = d
        }
        previousRaw = e.frequency
        if let f = low, abs(1200 * log2(f / l)) < 50, rawScatter > PitchTracker.lowScatterThreshold,
            rawBend > PitchTracker.lowBendShare * rawScatter
        {
            // Where the period estimate scatters by more than 10 cents from hop to hop (a
            // 31 Hz note spans 1.3 periods of the window; rumble or noise under a bass
            // note), the long window's partial, probed at the latch, replaces it when it
            // agrees with the latch.
            e.frequency = f
            raw = e
        } else if let f = partial, abs(1200 * log2(f / e.frequency)) < tolerance {
            // Fine frequency from the first partial while latched on the same note (stiff
            // strings; a fading note whose period estimate drifts in noise).
            e.frequency = f
            raw = e
        }
    }

    /// Notes below this (Hz) are checked for dominating their band: where kicks, toms and
    /// bass lines share it.
    static let dominanceLimit = 150.0
    /// Cents between the period estimate and the note's upper partial from which the
    /// partial replaces it.
    static let unsureCents = 2.0
    /// Hops the upper partial's phase advance is taken over (a 1-hop advance scattered by
    /// ±20 cents on the demo's bass, four by ±7).
    static let upperLag = 4
    /// Least share of the window's energy the upper partial must carry to be compared.
    static let upperShare = 0.02
    /// Hz the checked partial lies above: clear of a kick's tail (45-60 Hz) by three bins of
    /// the 4096-point window. A C1's 2nd partial (65 Hz), a bin and a half from a 45 Hz tail,
    /// was pulled with the period estimate (+3..+19 cents while it read -40).
    static let checkAbove = 90.0
    /// Least share for the partial to replace the period estimate.
    static let replaceShare = 0.05

    /// A latched low note measured on its own upper partial where it does not dominate its
    /// band: the period estimate spans every sound in the window, so a kick's tail (a
    /// decaying 45 Hz sine under an in-tune A1 bass) pulls it by 10-30 cents, while the
    /// note's own 2nd (or 3rd) partial, above the kick and measured by its phase advance over
    /// four hops, stays on the note (the demo's bass: within 1.2 cents on average). Where
    /// the two disagree by more than `unsureCents`, the partial replaces the period
    /// estimate; where the partial is not measured (the first hops of a probe, a partial
    /// too weak under the other sounds) or its phase breaks (an attack), the detection is
    /// unsure.
    func checkDominance(latched: Double?, afterAttack: Bool) {
        if latched == nil { checkPending = false }
        guard var e = raw, e.frequency < PitchTracker.dominanceLimit, afterAttack || checkPending else {
            upperCheck.reset(); upperCheckLow.reset()
            return
        }
        guard let l = latched, abs(12 * log2(e.frequency / l)) < 0.6 else {
            // A new low note: unsure until its partial has been checked on the latch.
            upperCheck.reset(); upperCheckLow.reset()
            e.unsure = true
            raw = e
            return
        }
        let (p, k, share) = measureUpperCheck(latched: l)
        if let p {
            let d = abs(1200 * log2(k * e.frequency / p))
            if d > 50 {
                e.unsure = true // the partial's phase broke: an attack
            } else if d > PitchTracker.unsureCents {
                // Replaced by a strong partial; a weak one (noise under the note) only
                // says the period is not the note's alone. Past the attack, a partial under
                // a kick's tail only says the same.
                if afterAttack && share >= PitchTracker.replaceShare { e.frequency = p / k } else { e.unsure = true }
            }
            // Checked on until the period agrees with the partial: a kick's tail can outlast
            // `attackHops` under the detached notes that follow it.
            checkPending = d > PitchTracker.unsureCents
        } else {
            e.unsure = true // a fresh probe (an attack), or too weak under the other sounds
            checkPending = true
        }
        raw = e
    }

    /// The latched low note's lowest partial above the fundamental that the shortest window
    /// resolving its partials measures (two bins apart: under 43 Hz at 44.1 kHz a C1's leak
    /// into each other's probe in 2048 samples, and read 6-30 cents flat): the partial (Hz,
    /// nil while unmeasured), its number and its share of the window's energy.
    func measureUpperCheck(latched l: Double) -> (Double?, Double, Double) {
        let short = l >= 2 * Double(sampleRate) / Double(windowSize)
        let check = short ? upperCheck : upperCheckLow
        (short ? upperCheckLow : upperCheck).reset()
        let k = Double(max(2, Int((max(1.1 * check.minimumFrequency, PitchTracker.checkAbove) / l).rounded(.up))))
        let src = longRing.latest(check.size)
        let p = check.refine(
            src, endSample: samplesSeen, estimate: k * l, energy: spv_energy(src, Int32(check.size)),
            minShare: PitchTracker.upperShare, retune: 0.5, lag: PitchTracker.upperLag)
        return (p, k, check.share)
    }

    /// What to show: a note whose period the detector no longer finds (a decaying tail
    /// under noise) while its first partial still holds at the latch, phase-coherent from
    /// hop to hop, keeps the display (the `--raw` estimate stays the detector's).
    func heldByPartial(latched: Double?, partial measured: Double?) -> PitchEstimate? {
        var shown = raw
        var partial = measured
        // Below `firstPartial`'s range, the long window's partial, once the note has faded by
        // `lowHoldAfter` (an 8192-point probe per hop): it only holds the display,
        // at the latched frequency (it scatters more than the period estimate it would
        // replace; public set, rumble tuner-grade p95 5.44 ¢ holding at the latch, 5.57 at
        // the partial).
        var holdOnly = false
        if partial == nil, let l = latched, l < firstPartial.minimumFrequency, samplesSeen >= longRing.count,
            notePeak - detector.level > PitchTracker.lowHoldAfter
        {
            partial = refineLow(estimate: l, tracker: lowHold)
            holdOnly = true
        } else {
            lowHold.reset()
        }
        if let l = latched, let f = partial, abs(1200 * log2(f / l)) < PitchTracker.sustainTolerance {
            partialRun += 1
            if raw == nil, partialRun >= 2 {
                // (At the latch on a low note in the hops after an attack, where nothing
                // checks the partial: a kick louder than a sustained A1 pulled its held
                // partial 14-17 cents flat.)
                shown = PitchEstimate(
                    frequency: holdOnly || unsettledLowNote(l) ? l : f,
                    confidence: min(1, (holdOnly ? lowHold : firstPartial).share), source: .partial)
            }
        } else {
            partialRun = 0
        }
        return shown
    }

    /// A reading lower than the shown note: is the shown note still heard? Its harmonics
    /// (2nd–8th) that are not harmonics of the reading say so. A fading note whose tail the
    /// detector reads as hum or rumble keeps some; a new, lower note sung after it (a fifth
    /// down, legato, quieter) has none of them: D4's 3rd, 5th and 7th are no partials of G3.
    /// True (heard) when there is nothing to tell.
    func shownHeard(under reading: PitchEstimate?, window: UnsafePointer<Float>) -> Bool {
        // Only a clear reading within `newNoteDrop` dB of the shown note's peak can be a new
        // note: what a tail fades into (hum, rumble, a subharmonic of the hum) lies further
        // down, or is not clearly periodic.
        guard let s = tuner.reading?.frequency, let r = reading, 12 * log2(r.frequency / s) <= -0.6,
            r.confidence >= TunerDisplay.clearConfidence, !r.unsure,
            let peak = latchedNotePeak(tuner.latchedFrequency), detector.level >= peak - PitchTracker.newNoteDrop
        else { return true }
        let e = r.frequency
        let mask = detector.harmonicsPresent(in: window, f0: s)
        for h in 2...8 where mask & (1 << h) != 0 {
            let ratio = Double(h) * s / e
            if abs(ratio / ratio.rounded() - 1) > 0.03 { return true }
        }
        return false
    }

    /// A reading at the 2nd, 3rd or 4th harmonic of the shown note: does the shown note
    /// still sound? Its own harmonics that the new reading cannot explain say so.
    func shownStillSounds(_ shown: PitchEstimate?, window: UnsafePointer<Float>) -> Bool {
        guard let s = tuner.reading?.frequency, let e = shown else { return false }
        let interval = 12 * log2(e.frequency / s)
        guard let k = (2...4).first(where: { abs(interval - 12 * log2(Double($0))) < 0.6 }) else { return false }
        let mask = detector.harmonicsPresent(in: window, f0: s)
        var orphans = 0
        for h in 2...8 where h % k != 0 && mask & (1 << h) != 0 { orphans += 1 }
        return orphans >= PitchTracker.stillSoundingHarmonics
    }

    /// Retunes the streaming high-pass to 0.6 × the (new) latched f0; hysteresis of a
    /// semitone. (At half of it, rumble at the note's octave and twelfth below came through:
    /// the public set's rumble condition went from 96.9 to 98.5 % RPA at 0.6, nothing else
    /// moved.)
    func retuneHighPass() {
        let target = tuner.latchedFrequency.map { 0.6 * $0 } ?? 0
        if target < 20 {
            if highPass.cutoff != 0 { highPass.setCutoff(0, sampleRate: Double(sampleRate)); hpAge = 0 }
        } else if highPass.cutoff == 0 || abs(12 * log2(target / highPass.cutoff)) > 1 {
            highPass.setCutoff(target, sampleRate: Double(sampleRate)); hpAge = 0
        }
        hpAge += 1
    }
}
