import CKernels
import SpecvizCore
import Tuning

#if canImport(Glibc)
import Glibc
#endif

/// The tuner: a 2048-sample ring buffer analysed every 512 samples by the hybrid detector,
/// feeding the latching display (SPEC §5; seed 004 §6 signal flow).
///
/// Feed audio in chunks of any size with `process`; after each hop `raw` holds the
/// detector's estimate and `display` what the tuner shows (nil = `---`). `time` is the
/// media time (seconds) of the end of the last analysed hop: the moment the reading would
/// appear if the audio played in real time (causal, no look-ahead).
/// All storage is allocated at construction; `process` does not allocate.
public final class PitchTracker {
    /// Samples per second (Hz).
    public let sampleRate: Int
    /// Analysis window (samples) and hop (samples).
    public let windowSize: Int, hopSize: Int
    public let detector: HybridPitchDetector
    let firstPartial: FirstPartialTracker
    /// The first partial of low notes (below `longWindowLimit`) over `longSize` samples: a
    /// 31 Hz note spans 1.3 periods of the window and its period estimate wanders by several
    /// cents, in rumble by tens (`firstPartial` does not reach below 4 bins of the window).
    let lowPartial: FirstPartialTracker
    /// The same measurement on every hop while a note below `firstPartial`'s range is
    /// latched, for holding the display only (`lowPartial` is armed by the scatter and
    /// refines the reading).
    let lowHold: FirstPartialTracker
    /// The second partial of notes below `firstPartial`'s range, over `longSize` samples:
    /// its half refines the period estimate of a low stiff string (within
    /// `secondPartialTolerance`).
    let secondPartial: FirstPartialTracker
    /// The third partial of notes from `rumbleCutoff` / 3 up to `firstPartial`'s range, over
    /// `longSize` samples: its third takes over when the second partial has faded away.
    let thirdPartial: FirstPartialTracker
    /// An upper partial (the 2nd, or the first at or above `firstPartial`'s range) of a
    /// latched low note, from hop to hop: the check that the note dominates its band
    /// (`checkDominance`).
    let upperCheck: FirstPartialTracker
    /// The same over two analysis windows, for notes whose partials one window does not
    /// resolve.
    let upperCheckLow: FirstPartialTracker
    /// The latched low note's fundamental over two analysis windows: the check that nothing
    /// else sounds in its band (`checkFundamental`).
    let fundamentalCheck: FirstPartialTracker
    /// The same over four analysis windows, for notes under its range.
    let fundamentalCheckLow: FirstPartialTracker
    /// The input: the newest `longSize` samples (the analysis window is its last
    /// `windowSize`).
    var longRing: MirroredRing
    /// `samplesSeen` when the long window's Σx² was last measured (-1 = never), and that Σx².
    var longWindowAt = -1
    var longEnergy = 0.0
    /// The last detection on the latched note (Hz), the step to it from the one before
    /// (cents), the hop-to-hop variance of the detections there (cents², smoothed over
    /// about ten hops), and the variance of their second differences over 6 (`rawBend`;
    /// for independent errors the same as their variance).
    var previousRaw: Double?, previousStep: Double?
    var rawScatter = 0.0, rawBend = 0.0
    /// Share of `rawScatter` that `rawBend` must reach for the scatter to be the estimate's,
    /// not the note moving: a 5–6 Hz vibrato of ±60 cents steps by up to 24 cents a hop
    /// (`rawScatter` up to 150) but bends by under 12 (`rawBend` a tenth of it), where the
    /// errors of a bass note's period in rumble bend about as much as they step (60–90 %).
    /// The long window's partial, an average over 0.19 s, flattened a sung low note's
    /// vibrato by half (eval/melody dev, raw 97.7 → 98.0 %).
    static let lowBendShare = 0.4
    /// Variance (cents²) of the period estimate above which a low note's long-window partial
    /// replaces it: a standard deviation of 10 cents. Below it (a clean or reverberant low
    /// note) the period estimate is the better one: the long window's phase wanders by a few
    /// cents under reverberation. Public pitch set, notes under 80 Hz: tuner-grade p95 8.2 →
    /// 5.9 ¢ (rumble 8.7 → 7.6, hum 4.2 → 3.8, pink 10 dB 5.0 → 4.8; reverb 3.2 → 3.3).
    static let lowScatterThreshold = 100.0
    /// Notes below this (Hz) may use the long window's partial. Up to 86 Hz nothing else
    /// measures the partial; to 200 Hz it is the steadier of the two where the period
    /// estimate scatters (public set, rumble p95 6.90 → 6.45 ¢ from 86 to 200; to 300 Hz
    /// nothing more, and the 200–600 Hz notes a little worse).
    static let longWindowLimit = 200.0
    /// The first partial replaces the period estimate when the two agree within this many
    /// cents; on a note that has faded by `fadedBy`, within `fadedTolerance` (its period
    /// estimate wanders by 20–40 cents before it fails; public set, rumble tuner-grade p95
    /// 5.77 ¢ at 20, 5.30 at 35, 5.38 at 50).
    static let partialTolerance = 20.0, fadedTolerance = 35.0
    /// Cents within which half the second partial replaces a low note's period estimate. The
    /// period estimate of a stiff string below 86 Hz reads 2–8 ¢ sharp; a larger
    /// disagreement is the long window's partial drifting (a tuba's attack, reverberation).
    /// Public pitch set: tuner-grade p95 in every condition but rumble 0.04–1.1 ¢ lower
    /// (missing fundamental 4.72 → 3.61, clean 2.87 → 2.79), rumble 5.32 → 5.33; at 10 ¢
    /// reverberation and hum got worse.
    static let secondPartialTolerance = 6.0
    /// Where a low note's second partial is too weak to measure (its share of the long
    /// window's energy under 8 %), a third of its third partial, measured down to this share
    /// and replacing the period estimate within `thirdPartialTolerance` cents; only for notes
    /// whose third partial lies above the rumble band (`rumbleCutoff`, so from 50 Hz). A struck
    /// piano C2's second partial fades within a second while its third holds at 15-20 %; in
    /// rumble its period estimate, left to the stretched upper partials, read 7-10 cents
    /// sharp for the rest of the note, the third partial 1-2. Public pitch set, tuner-grade
    /// p95: rumble 5.33 -> 4.59 cents, clean 2.79 -> 2.55, pink noise at 10 dB 3.56 -> 3.18,
    /// missing fundamental 3.61 -> 3.52, reverberation 3.18 -> 3.05, and lower or equal in the
    /// others. Tolerance 6 ¢: rumble 4.94; 15: 4.62. Share 0.08: rumble 5.14. From 40 Hz
    /// instead of 50 (basses of 40.8 and 46.7 Hz, whose third partial is still in the bass
    /// band): clean 3.04, missing fundamental 4.87.
    static let thirdPartialShare = 0.04, thirdPartialTolerance = 10.0
    /// A latched note this many dB under its peak is fading (struck, plucked or released):
    /// its first partial's phase advance is taken over as many hops as stay unambiguous
    /// (`partialLag`), not one. Not before: over several hops the partial is an average,
    /// which lags a sung or bowed vibrato. Public set at 6, 10, 15 dB: rumble tuner-grade
    /// p95 5.35, 5.44, 5.56 ¢; voice p95 (all frames) 17.02, 16.79, 16.73 (16.73 before).
    static let fadedBy = 10.0
    /// A first partial within this many cents of the latch on two hops in a row holds the
    /// display when the detector finds no period. Public set: RPA in pink noise at 10 dB
    /// 95.8 → 97.8 % (98.7 with the long window's partial below 94 Hz), in rumble 98.2 →
    /// 98.7, all 98.9 → 99.4; nothing shown on the noise-only files; 8 ¢ lost the rumble
    /// gain, 25 ¢ the same as 15.
    static let sustainTolerance = 15.0
    /// dB a note under 94 Hz must have faded before its long-window partial is measured for
    /// holding (at 6 the public set gains as much as with it measured throughout, at 10 dB
    /// the history is too short where it is needed: pink 10 dB RPA 98.7 against 98.4 %;
    /// the 32 s demo's `tune` 0.194 s against 0.205 measured throughout).
    static let lowHoldAfter = 6.0
    /// A reading at the 2nd, 3rd or 4th harmonic of the shown note, with no onset, holds the
    /// shown note while at least this many of its harmonics 2…8 that the reading cannot
    /// explain are present. Public set, missing f0: RPA 97.6 → 99.0 % (a bass C3 read G4 for
    /// the last 45 % of its tail); at 2, the bow noise at a cello's onset held a wrong
    /// latch longer (rumble 98.7 → 98.6 %).
    static let stillSoundingHarmonics = 3
    /// A lower reading this far under the shown note's peak (dB) is a tail's, never a new
    /// note's (`shownHeard`): the public pitch set's hum and rumble sit 15 dB and more down.
    static let newNoteDrop = 12.0
    /// Length of the low-note window (samples): four analysis windows.
    public var longSize: Int { longRing.count }
    public private(set) var tuner: TunerDisplay
    /// The input through `highPass`.
    var hpRing: MirroredRing
    var highPass = StreamingHighPass()
    /// The input through a fixed 150 Hz high-pass (the detector's rumble-free retry).
    var fixedRing: MirroredRing
    var fixedHighPass = StreamingHighPass()
    /// Cutoff of the fixed high-pass (Hz).
    public static let rumbleCutoff = 150.0
    /// Hops since the high-pass cutoff last changed (its window is clean after a full window).
    var hpAge = 0
    var filled = 0
    var sinceHop = 0
    var samplesSeen = 0
    var tail = TailGate()
    /// Whether `firstPartial`'s phase history was measured on the high-passed window (a
    /// switch between it and the raw window changes the phase reference).
    var partialOnHighPass = false
    /// Consecutive hops whose first partial agreed with the latch within `sustainTolerance`.
    var partialRun = 0
    /// The latched note's loudest level so far (dB) and the latch it was measured on (Hz;
    /// 0 = none).
    var notePeak = 0.0, notePeakFrequency = 0.0
    /// The last four hops' levels (dB, a ring) and the hop of the last attack (a rise of
    /// `attackRise` over the quietest of them).
    var recentLevels = [-120.0, -120, -120, -120], lastAttack = Int.min / 2
    /// Consecutive hops the latched note's fundamental agreed with its reading
    /// (`checkFundamental`).
    var fundamentalRun = PitchTracker.upperLag
    /// The latched low note's last detections (Hz, a ring of `steadyHops`; 0 = none) and
    /// where the next goes (`checkSteady`).
    var steadyReadings = [Double](repeating: 0, count: PitchTracker.steadyHops)
    var steadyIndex = 0
    /// Whether the last hop's low-note reading was sure (`checkSteady`).
    var steadyPassed = false
    /// dB a hop's level must rise over the last one's to count as an attack, and the hops
    /// after it (about 0.3 s) in which a low note is checked for dominating its band.
    static let attackRise = 6.0, attackHops = 24
    /// Whether the last dominance check found the period pulled off the note's partial: the
    /// check goes on past `attackHops` until the two agree (a kick's tail outlasting them
    /// under the detached notes that follow it), or nothing is latched.
    var checkPending = false

    /// The detector's estimate for the last hop (unlatched; nil = no pitch).
    public internal(set) var raw: PitchEstimate?
    /// What the tuner displays after the last hop; nil shows `---`.
    public var display: TunerReading? { tuner.reading }
    /// Media time (s) at the end of the last analysed hop.
    public private(set) var time = 0.0
    /// Media time (s) of the centre of the audio the last hop measured: `raw` and `display`
    /// describe the analysis window, whose centre is half a window (1024 samples, 23 ms at
    /// 44.1 kHz) before `time` once it has filled. Stamped at `time`, a sung melody's
    /// estimates agreed with its f0 on 91 % of the voiced frames; at the window's centre on
    /// 97 % (eval/melody).
    public var measuredTime: Double {
        Double(samplesSeen - min(samplesSeen, windowSize) / 2) / Double(sampleRate)
    }
    /// Number of hops analysed so far.
    public private(set) var hopCount = 0

    /// - Parameters:
    ///   - sampleRate: Hz (8 k…192 kHz).
    ///   - preset: target notes (default chromatic).
    ///   - reference: A4 in Hz (400…480).
    ///   - windowSize, hopSize: samples (SPEC §5: 2048 and 512).
    public init(
        sampleRate: Int, preset: TuningPreset = .chromatic, reference: Double = 440,
        windowSize: Int = 2048, hopSize: Int = 512
    ) {
        self.sampleRate = sampleRate
        self.windowSize = windowSize
        self.hopSize = hopSize
        detector = HybridPitchDetector(sampleRate: sampleRate, windowSize: windowSize)
        firstPartial = FirstPartialTracker(size: windowSize, sampleRate: Double(sampleRate), span: 8)
        lowPartial = FirstPartialTracker(size: 4 * windowSize, sampleRate: Double(sampleRate), span: 16)
        lowHold = FirstPartialTracker(size: 4 * windowSize, sampleRate: Double(sampleRate), span: 16)
        secondPartial = FirstPartialTracker(size: 4 * windowSize, sampleRate: Double(sampleRate), span: 16)
        thirdPartial = FirstPartialTracker(size: 4 * windowSize, sampleRate: Double(sampleRate), span: 16)
        upperCheck = FirstPartialTracker(size: windowSize, sampleRate: Double(sampleRate), span: 4)
        upperCheckLow = FirstPartialTracker(size: 2 * windowSize, sampleRate: Double(sampleRate), span: 4)
        fundamentalCheck = FirstPartialTracker(size: 2 * windowSize, sampleRate: Double(sampleRate), span: 4)
        fundamentalCheckLow = FirstPartialTracker(size: 4 * windowSize, sampleRate: Double(sampleRate), span: 4)
        longRing = MirroredRing(count: 4 * windowSize)
        tuner = TunerDisplay(preset: preset, reference: reference)
        hpRing = MirroredRing(count: windowSize)
        fixedRing = MirroredRing(count: windowSize)
        fixedHighPass.setCutoff(PitchTracker.rumbleCutoff, sampleRate: Double(sampleRate))
    }

    /// Temperament, tonic and transposition of the display.
    public var system: TuningSystem {
        get { tuner.system }
        set { tuner.system = newValue }
    }

    /// Active preset.
    public var preset: TuningPreset {
        get { tuner.preset }
        set { tuner.setPreset(newValue) }
    }

    /// Clears the buffer, the latch and the detector's history.
    public func reset() {
        hpRing.reset()
        highPass = StreamingHighPass()
        hpAge = 0
        fixedRing.reset()
        fixedHighPass.reset()
        longRing.reset()
        longWindowAt = -1
        restartScatter()
        filled = 0; sinceHop = 0; samplesSeen = 0; hopCount = 0; time = 0
        raw = nil
        tuner.reset()
        detector.reset()
        firstPartial.reset()
        lowPartial.reset()
        lowHold.reset()
        secondPartial.reset()
        thirdPartial.reset()
        upperCheck.reset()
        upperCheckLow.reset()
        fundamentalCheck.reset()
        fundamentalCheckLow.reset()
        fundamentalRun = PitchTracker.upperLag
        clearSteady()
        for i in recentLevels.indices { recentLevels[i] = -120 }
        lastAttack = Int.min / 2
        checkPending = false
        partialOnHighPass = false
        notePeakFrequency = 0
        partialRun = 0
        tail = TailGate()
    }

    /// Feeds samples; runs the detector once per completed hop and calls `onHop` after each
    /// (so callers can record every hop of a long chunk). Does not allocate.
    public func process(_ samples: UnsafeBufferPointer<Float>, onHop: ((PitchTracker) -> Void)? = nil) {
        process(samples, prepared: nil, onHop: onHop)
    }

    /// `process`, with the raw windows of the hops this chunk completes prepared ahead by a
    /// `HopPreparer` fed the same chunks (a window prepared for another hop is not used).
    public func process(
        _ samples: UnsafeBufferPointer<Float>, prepared: PreparedHops?, onHop: ((PitchTracker) -> Void)? = nil
    ) {
        var i = 0
        let n = samples.count
        while i < n {
            let take = min(n - i, hopSize - sinceHop)
            let src = samples.baseAddress! + i
            longRing.append(src, count: take)
            for k in 0..<take {
                hpRing.append(highPass.process(src[k]))
                fixedRing.append(fixedHighPass.process(src[k]))
            }
            filled = min(windowSize, filled + take)
            sinceHop += take
            samplesSeen += take
            i += take
            if sinceHop == hopSize {
                sinceHop = 0
                var window: PreparedWindow?
                if let prepared, prepared.next < prepared.count {
                    window = prepared.windows[prepared.next]
                    prepared.next += 1
                    prepared.taken?.update { $0 += 1 }
                    if window?.position != samplesSeen { window = nil }
                }
                analyseHop(prepared: window)
                onHop?(self)
            }
        }
    }

    /// One hop: the detector's estimate, refined by the latched note's partials, held by
    /// them through a tail, gated, fed to the display; then the high-pass follows the latch.
    private func analyseHop(prepared: PreparedWindow?) {
        // The windows, oldest sample first (zeros before the rings first fill).
        let window = longRing.latest(windowSize)
        let hpWindow = hpRing.latest(windowSize)
        let fixedWindow = fixedRing.latest(windowSize)
        hopCount += 1
        time = Double(samplesSeen) / Double(sampleRate)
        let latched = tuner.latchedFrequency
        // The high-passed window is usable once the filter has run at one cutoff for a window.
        let hpReady = latched != nil && highPass.cutoff > 0 && hpAge * hopSize >= windowSize
        raw =
            filled < hopSize
            ? nil
            : detector.detect(
                window, highPassed: hpReady ? hpWindow : nil, rumbleFree: fixedWindow, latched: latched,
                latchedPeak: latchedNotePeak(latched), prepared: prepared)
        let low = measureLowPartial(latched: latched)
        trackNotePeak(latched: latched)
        // At most one of the two is measured: the first partial from its range up, the
        // second or third below it.
        let (first, faded) = measureFirstPartial(
            latched: latched, window: hpReady ? hpWindow : window, onHighPass: hpReady)
        let (upper, fromSecond, fromThird) = measureUpperPartials(latched: latched)
        var partial = first ?? upper
        if let f = partial, let l = latched, abs(1200 * log2(f / l)) > 50 { partial = nil }
        let tolerance: Double
        if fromThird {
            tolerance = PitchTracker.thirdPartialTolerance
        } else if fromSecond {
            tolerance = PitchTracker.secondPartialTolerance
        } else {
            tolerance = faded ? PitchTracker.fadedTolerance : PitchTracker.partialTolerance
        }
        refineRaw(latched: latched, low: low, partial: partial, tolerance: tolerance)
        // Within a few hops of an attack (a kick, a detached note), the low note's period is
        // checked against its own partial; steady sounds (rumble under a held note) are the
        // long-window partials' to measure.
        // (A rise over the minimum of the last window's hops.)
        if detector.level - recentLevels.min()! > PitchTracker.attackRise { lastAttack = hopCount }
        recentLevels[hopCount % recentLevels.count] = detector.level
        checkDominance(latched: latched, afterAttack: hopCount - lastAttack <= PitchTracker.attackHops)
        checkFundamental(latched: latched)
        checkSteady(latched: latched)
        let shown = heldByPartial(latched: latched, partial: partial)
        // Loudness weight for smoothing: 0 dB at the floor … 1 at 30 dB above it.
        let weight = max(0, min(1, (detector.level - detector.noiseFloor.effective) / 30))
        let stillSounding = shownStillSounds(shown, window: window)
        let gated = tail.gate(
            shown, level: detector.level, shown: tuner.reading?.frequency, time: time, stillSounding: stillSounding,
            shownHeard: shownHeard(under: shown, window: window))
        tuner.feed(gated, time: time, weight: weight)
        retuneHighPass()
    }
}

extension PitchTracker {
    /// Hops back a partial near `estimate` is measured over: as many as keep the phase
    /// advance under half a turn for a partial within `semitones` of the probe.
    func partialLag(_ estimate: Double, within semitones: Double = 0.3) -> Int {
        let spread = estimate * (pow(2, semitones / 12) - 1)
        return Int(Double(sampleRate) / (2 * Double(hopSize) * spread))
    }

    /// `lowPartial` (or `tracker`) on the newest `longSize` samples (their Σx² measured once
    /// per hop).
    func refineLow(
        estimate: Double, tracker: FirstPartialTracker? = nil, minShare: Double = FirstPartialTracker.minShare
    ) -> Double? {
        let n = longRing.count
        let longWindow = longRing.latest(n)
        if longWindowAt != samplesSeen {
            longEnergy = spv_energy(longWindow, Int32(n))
            longWindowAt = samplesSeen
        }
        // The probe retunes at half a semitone, so the partial may lie 0.6 semitone away.
        return (tracker ?? lowPartial).refine(
            longWindow, endSample: samplesSeen, estimate: estimate, energy: longEnergy, minShare: minShare, retune: 0.5,
            lag: partialLag(estimate, within: 0.6))
    }
}
