import SpecvizCore
import Tuning

#if canImport(Glibc)
import Glibc
#endif

/// The hybrid detector of seed 004 §6 for one analysis window:
///
/// 1. latch-aware zero-phase Butterworth low-pass (12× the latched f0, ≤ 4 kHz) on YIN's
///    input when latched at or below 400 Hz, and YIN's relaxed search near the latched lag;
/// 2. YIN and Pearson autocorrelation, combined by band: above 95 Hz trust YIN; 65–95 Hz
///    YIN at confidence ≥ 0.88, else the autocorrelation must agree on the MIDI note;
///    below 65 Hz both must agree;
/// 3. the Spectral Harmonic Fingerprint rescue when that fails;
/// 4. mains rejection (a candidate within 0.3 % of 50, 60, 100, 120, 150 or 180 Hz; after a
///    run of such hum with nothing shown, also within 3.5 % for 12 hops);
/// 5. the harmonic gate for new notes below 200 Hz, bypassed at Pearson r ≥ 0.90.
///
/// All buffers are allocated at construction; `detect` does not allocate.
public final class HybridPitchDetector {
    public let sampleRate: Double
    /// Analysis window (samples).
    public let windowSize: Int
    /// Lag bounds (samples) from the frequency range.
    public let minLag: Int, maxLag: Int
    /// The raw window's analysis for this hop: `ownRaw`, or a `PreparedWindow`'s.
    var raw: LagAnalysis
    private let ownRaw: LagAnalysis
    let filtered: LagAnalysis
    let filterBuffer: OwnedBuffer<Float>
    var lowPass = ZeroPhaseLowPass()
    private let fingerprint: HarmonicFingerprint
    /// The rescue's probes of this hop's window when no `PreparedWindow` brought them.
    private let ownProbes: RescueProbes
    /// Ambient level tracker.
    public private(set) var noiseFloor = NoiseFloor()
    /// Level of the last window (dBFS RMS).
    public private(set) var level = -120.0
    /// Energy Σx² of the last window.
    public private(set) var windowEnergy = 0.0
    /// The last YIN and autocorrelation results (diagnostics; the autocorrelation is nil when
    /// the detector did not need it for that window).
    public private(set) var lastYin: LagEstimate?
    public private(set) var lastPearson: PearsonPeakSearch.Result?
    /// The previous window's candidate before the gate (Hz, 0 = none).
    private var previousCandidate = 0.0
    /// Hops left in which a near-mains period is still taken for hum (see step 4).
    private var humHops = 0
    /// Consecutive hops whose period was exactly the mains.
    private var humRun = 0
    private var rawPearsonCache: PearsonPeakSearch.Result?
    private var rawPearsonDone = false
    /// The prepared autocorrelation peak of this hop's window (valid when `preparedPearson`).
    private var preparedPearsonResult: PearsonPeakSearch.Result?
    private var preparedPearson = false

    /// - Parameters:
    ///   - sampleRate: Hz.
    ///   - windowSize: samples (power of two; 2048 per SPEC §5).
    ///   - minFrequency, maxFrequency: search range in Hz (default 28 Hz … 2 kHz).
    public init(sampleRate: Int, windowSize: Int = 2048, minFrequency: Double = 28, maxFrequency: Double = 2000) {
        self.sampleRate = Double(sampleRate)
        self.windowSize = windowSize
        minLag = max(2, Int((Double(sampleRate) / maxFrequency).rounded(.down)))
        maxLag = min(windowSize - windowSize / 8, Int((Double(sampleRate) / minFrequency).rounded(.up)))
        ownRaw = LagAnalysis(size: windowSize, maxLag: maxLag + 2)
        raw = ownRaw
        filtered = LagAnalysis(size: windowSize, maxLag: maxLag + 2)
        filterBuffer = OwnedBuffer(zeroed: windowSize)
        fingerprint = HarmonicFingerprint(size: windowSize, sampleRate: Double(sampleRate))
        ownProbes = RescueProbes()
    }

    /// Forgets the noise floor and rescue history.
    public func reset() {
        noiseFloor = NoiseFloor()
        fingerprint.reset()
        lastYin = nil
        lastPearson = nil
        previousCandidate = 0
        humHops = 0
        humRun = 0
    }

    /// Harmonics 2…8 of `f0` present in `window` (bit h set for harmonic h; the fingerprint's
    /// 3×-above-its-neighbours test). Does not allocate.
    public func harmonicsPresent(in window: UnsafePointer<Float>, f0: Double) -> Int {
        fingerprint.load(window)
        return fingerprint.evaluate(f0: f0).mask
    }

    /// Detects the pitch of `window` (`windowSize` samples). `latched` is the frequency the
    /// display is latched to (Hz), nil when it shows `---`; `highPassed` is the same window
    /// through the tracker's streaming high-pass at 0.6 × the latched f0 (nil: not available);
    /// `rumbleFree` is the window through a fixed 150 Hz streaming high-pass, analysed when
    /// the raw window gives no pitch (rumble and pink noise mask it; the period survives).
    /// `prepared`: this very window's analysis done ahead (on another thread, `HopPreparer`),
    /// with the rumble-free retry and the rescue's probes when it foresaw them; the result
    /// is the same with or without it. `latchedPeak`: the latched note's loudest level so far
    /// (dBFS; nil when unknown), which tells a note crossing the mains from hum (step 4).
    /// Does not allocate.
    public func detect(
        _ window: UnsafePointer<Float>, highPassed: UnsafePointer<Float>? = nil,
        rumbleFree: UnsafePointer<Float>? = nil, latched: Double?, latchedPeak: Double? = nil,
        prepared: PreparedWindow? = nil
    ) -> PitchEstimate? {
        let ahead = loadWindow(window, prepared: prepared)
        guard HybridPitchDetector.isReadable(raw) else {
            fingerprint.record(midi: -1); previousCandidate = 0; return nil
        }
        // 1. YIN on the latch-filtered window, and its relaxed search near the latched lag.
        let yinInput = latchFilteredInput(window, highPassed: highPassed, latched: latched)
        lastYin = latchedYin(yinInput, rumbleFree: rumbleFree, latched: latched)
        // 2. Band combination; if it fails, the same on the rumble-free window.
        let (combined, retryPearson, retried) = combineBands(yin: lastYin, rumbleFree: rumbleFree, ahead: ahead)
        var result = combined
        // 3. Rescue.
        var evidence: HarmonicFingerprint.Evidence?
        if result == nil { (result, evidence) = rescueStep(window, ahead: ahead) }
        let previous = previousCandidate
        previousCandidate = result?.frequency ?? 0
        guard let candidate = result else { return nil }
        // 4. Mains hum is not a note.
        if rejectsMains(candidate, latched: latched, latchedPeak: latchedPeak) { return nil }
        // 5. Harmonic gate for new low notes.
        let gate = GateInput(
            previous: previous, retried: retried, retryPearson: retryPearson, evidence: evidence)
        return passesHarmonicGate(candidate, window: window, latched: latched, gate) ? candidate : nil
    }

    /// What the harmonic gate (step 5) needs from the earlier steps.
    private struct GateInput {
        /// The previous window's candidate (Hz, 0 = none).
        var previous: Double
        /// Whether the rumble-free retry produced the candidate, and its autocorrelation.
        var retried: Bool
        var retryPearson: PearsonPeakSearch.Result?
        /// The rescue's harmonic evidence for the candidate, when the rescue found it.
        var evidence: HarmonicFingerprint.Evidence?
    }

    /// Step 0: the raw window's analysis, this detector's own or the prepared one (the raw
    /// window's lag functions, two FFTs, are computed only on the paths that read them: YIN
    /// when unlatched, the autocorrelation below 95 Hz and for the gate, the rescue). Updates
    /// the level, the energy and the noise floor; returns the prepared window when used.
    private func loadWindow(_ window: UnsafePointer<Float>, prepared: PreparedWindow?) -> PreparedWindow? {
        var ahead: PreparedWindow?
        if let prepared, prepared.analysis.size == windowSize, prepared.analysis.maxLag == maxLag + 2 {
            ahead = prepared
            raw = prepared.analysis
            preparedPearsonResult = prepared.pearson
            preparedPearson = true
        } else {
            raw = ownRaw
            raw.load(window)
            preparedPearson = false
        }
        rawPearsonDone = false
        windowEnergy = raw.energy
        level = HybridPitchDetector.level(of: raw)
        noiseFloor.update(level: level)
        lastYin = nil; lastPearson = nil
        return ahead
    }

    /// Step 2: the band combination of YIN and the autocorrelation; when it fails, the same on
    /// the rumble-free window. Returns the estimate, the retry's autocorrelation and whether
    /// the retry produced it.
    private func combineBands(
        yin: LagEstimate?, rumbleFree: UnsafePointer<Float>?, ahead: PreparedWindow?
    ) -> (PitchEstimate?, PearsonPeakSearch.Result?, Bool) {
        if let result = combine(yin: yin, ac: rawPearson()) { return (result, nil, false) }
        guard let clean = rumbleFree else { return (nil, nil, false) }
        let y2: LagEstimate?, a2: PearsonPeakSearch.Result?
        if let r = ahead?.retry {
            (y2, a2) = (r.yin, r.pearson)
        } else {
            filtered.analyse(clean)
            (y2, a2) = HybridPitchDetector.retrySearch(filtered, minLag: minLag, maxLag: maxLag)
        }
        guard let r2 = combine(yin: y2, ac: a2) else { return (nil, nil, false) }
        lastYin = y2; lastPearson = a2
        return (r2, a2, true)
    }

    /// Step 3: the Spectral Harmonic Fingerprint rescue, above the noise floor; returns the
    /// estimate and its harmonic evidence.
    private func rescueStep(
        _ window: UnsafePointer<Float>, ahead: PreparedWindow?
    ) -> (PitchEstimate?, HarmonicFingerprint.Evidence?) {
        guard level > noiseFloor.effective else {
            fingerprint.record(midi: -1)
            return (nil, nil)
        }
        let probes: RescueProbes
        if let foreseen = ahead?.probes {
            probes = foreseen
        } else {
            fingerprint.load(window)
            raw.computeLags()
            ownProbes.probe(raw, fingerprint: fingerprint, minLag: minLag, maxLag: maxLag)
            probes = ownProbes
        }
        guard let (f, ev, score) = rescue(probes, window: window, loaded: probes === ownProbes) else { return (nil, nil) }
        return (PitchEstimate(frequency: f, confidence: min(1, score), source: .fingerprint), ev)
    }

    /// Step 4: mains hum is not a note. Nor, for a moment after it, is a period within 3.5 %
    /// of it: a note starting or dying over the hum pulls the hum's period off the exact
    /// mains (a flute's slow attack read 60.3 → 61.8 Hz, "B1", for 0.1 s), while a real note
    /// that close to the mains is only held back that moment. True: reject `candidate`.
    private func rejectsMains(_ candidate: PitchEstimate, latched: Double?, latchedPeak: Double?) -> Bool {
        if HarmonicFingerprint.isMainsLike(candidate.frequency) {
            // The latched note itself, still at full level: its vibrato or drift crossing
            // the mains (a sung D3 swinging through 150 Hz read nothing at each crest). Hum
            // takes the period only where the note has faded under it.
            if let l = latched, let peak = latchedPeak, HybridPitchDetector.sameNote(l, candidate.frequency, tolerance: 0.6),
                level > peak - HumContext.noteDrop
            {
                humRun = 0
                return false
            }
            // Hum is steady and holds the display blank: only a run of exact mains periods
            // while nothing is latched opens the window (not a played note's vibrato
            // crossing one: a cello's B2 at 120.6 Hz).
            humRun = latched == nil ? humRun + 1 : 0
            if humRun >= HumContext.minRun { humHops = HumContext.hops }
            return true
        }
        humRun = 0
        if humHops > 0 {
            humHops -= 1
            if HarmonicFingerprint.isMainsLike(candidate.frequency, tolerance: HumContext.tolerance) { return true }
        }
        return false
    }

    /// Step 5: the harmonic gate for new notes below 200 Hz, bypassed by a strong, stable
    /// autocorrelation.
    private func passesHarmonicGate(
        _ candidate: PitchEstimate, window: UnsafePointer<Float>, latched: Double?, _ gate: GateInput
    ) -> Bool {
        let isNew = latched.map { !HybridPitchDetector.sameNote($0, candidate.frequency, tolerance: 0.6) } ?? true
        guard isNew && candidate.frequency < 200 else { return true }
        // Strong autocorrelation bypasses the gate (pure tones have no harmonics), when the
        // pitch is also stable to 25 ¢ since the last hop: narrowband rumble correlates
        // strongly too, but its period wanders.
        let previous = gate.previous
        let stable = previous > 0 && abs(1200 * log2(candidate.frequency / previous)) < 25
        let strongAC =
            stable
            && ((gate.retried ? gate.retryPearson : rawPearson()).map {
                $0.estimate.confidence >= 0.90 && HybridPitchDetector.sameNote($0.estimate.frequency(sampleRate: sampleRate), candidate.frequency)
            } ?? false)
        if strongAC { return true }
        var ev: HarmonicFingerprint.Evidence
        if let e = gate.evidence {
            ev = e
        } else {
            fingerprint.load(window)
            ev = fingerprint.evaluate(f0: candidate.frequency)
        }
        if ev.present == 0 { ev.score = 0 } // the decay term means nothing without harmonics
        let f = candidate.frequency
        let pass: Bool
        if f < 80 {
            pass = ev.present >= 2 || ev.score >= 0.35
        } else if f < 130 {
            pass = ev.present >= 1 || ev.score >= 0.20
        } else {
            pass = ev.present >= 1 || ev.score >= 0.15
        }
        return pass && !ev.rejected
    }

    /// Band combination of seed 004 §6: above 95 Hz YIN; 65–95 Hz YIN at confidence ≥ 0.88
    /// or with the autocorrelation agreeing on the note; below 65 Hz both must agree.
    /// `ac` is evaluated only at or below 95 Hz (above, YIN decides alone and the source is
    /// reported as `.yin`).
    private func combine(yin: LagEstimate?, ac: @autoclosure () -> PearsonPeakSearch.Result?) -> PitchEstimate? {
        HybridPitchDetector.combine(yin: yin, ac: ac(), sampleRate: sampleRate)
    }

    /// The autocorrelation peak of the raw window, computed once per window on first use
    /// (also sets `lastPearson`).
    private func rawPearson() -> PearsonPeakSearch.Result? {
        if !rawPearsonDone {
            if preparedPearson {
                rawPearsonCache = preparedPearsonResult
            } else {
                raw.computeLags()
                rawPearsonCache = PearsonPeakSearch.search(raw, minLag: minLag, maxLag: maxLag)
            }
            rawPearsonDone = true
            lastPearson = rawPearsonCache
        }
        return rawPearsonCache
    }

    /// SHF rescue: candidates are the deepest YIN dips and highest Pearson peaks of the
    /// raw window (`probes`); the best composite score (+ persistence) wins if ≥ 0.35.
    /// `loaded`: the fingerprint already holds `window`.
    private func rescue(
        _ probes: RescueProbes, window: UnsafePointer<Float>, loaded: Bool
    ) -> (Double, HarmonicFingerprint.Evidence, Double)? {
        var bestScore = 0.0, bestLag = 0
        var bestEvidence = HarmonicFingerprint.Evidence(present: 0, score: 0, rejected: true)
        var bestMidi = -1
        for i in 0..<RescueProbes.count where probes.lags[i] > 0 {
            let ev = probes.evidence[i]
            guard !ev.rejected else { continue }
            let lag = probes.lags[i]
            let f = sampleRate / Double(lag)
            let midi = Int(Note.midiValueApprox(f).rounded())
            let s = ev.score + fingerprint.persistence(midi: midi)
            if s > bestScore { bestScore = s; bestLag = lag; bestEvidence = ev; bestMidi = midi }
        }
        guard bestScore >= 0.35, bestLag > 0 else { fingerprint.record(midi: -1); return nil }
        // Octave check: a candidate whose odd harmonics are all absent is a subharmonic.
        if bestEvidence.looksOctaveLow && bestLag / 2 > minLag {
            if !loaded { fingerprint.load(window) }
            let up = fingerprint.evaluate(f0: 2 * sampleRate / Double(bestLag))
            if !up.rejected && up.present >= 2 {
                bestLag /= 2; bestEvidence = up; bestMidi += 12
                bestScore = max(bestScore, up.score + fingerprint.persistence(midi: bestMidi))
            }
        }
        fingerprint.record(midi: bestMidi)
        let refined = YinSearch.refine(raw, bestLag)
        return (sampleRate / refined.lag, bestEvidence, bestScore)
    }
}
