import SpecvizCore
import Tuning

#if canImport(Glibc)
import Glibc
#endif

/// One window's pitch, before latching and smoothing.
public struct PitchEstimate: Sendable, Equatable {
    /// Which path produced it.
    public enum Source: String, Sendable {
        case yin, autocorrelation, both, fingerprint
        /// The latched note's first partial holding the display through a tail
        /// (`PitchTracker`; confidence = the partial's share of the window's energy).
        case partial
    }
    /// Fundamental frequency (Hz).
    public var frequency: Double
    /// Confidence 0…1 (YIN 1 − CMND, Pearson r, or fingerprint score).
    public var confidence: Double
    public var source: Source

    public init(frequency: Double, confidence: Double, source: Source) {
        self.frequency = frequency
        self.confidence = confidence
        self.source = source
    }
}

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
    private var raw: LagAnalysis
    private let ownRaw: LagAnalysis
    private let filtered: LagAnalysis
    private let filterBuffer: OwnedBuffer<Float>
    private var lowPass = ZeroPhaseLowPass()
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
    /// is the same with or without it. Does not allocate.
    public func detect(
        _ window: UnsafePointer<Float>, highPassed: UnsafePointer<Float>? = nil,
        rumbleFree: UnsafePointer<Float>? = nil, latched: Double?, prepared: PreparedWindow? = nil
    ) -> PitchEstimate? {
        // The raw window's lag functions (two FFTs) are computed only on the paths that read
        // them: YIN when unlatched, the autocorrelation below 95 Hz and for the gate, the rescue.
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
        guard HybridPitchDetector.isReadable(raw) else {
            fingerprint.record(midi: -1); previousCandidate = 0; return nil
        }

        // 1. YIN input when latched: the high-passed stream (`highPassed`, see
        //    StreamingHighPass) if given, low-passed at 12× f0 (≤ 4 kHz) when f0 ≤ 400 Hz
        //    (seed 004: zero phase, forward then backward).
        var yinInput = raw
        if let f = latched {
            let lp = f <= 400
            if lp || highPassed != nil {
                let src = highPassed ?? window
                if lp {
                    lowPass.setCutoff(min(12 * f, 4000), sampleRate: sampleRate)
                    lowPass.apply(src, filterBuffer.base, count: windowSize)
                } else {
                    filterBuffer.base.update(from: src, count: windowSize)
                }
                filtered.load(filterBuffer.base)
                // The low-pass is for the latched note's own harmonics. When it leaves less
                // than a fifth of the window's energy, the window holds something else above
                // the cutoff (a new, higher note; or the latch is on hum under a note whose
                // attack hid it): YIN reads the window unfiltered.
                if !lp || filtered.energy >= LatchFilter.minKeptEnergy * LagAnalysis.energy(src, windowSize) {
                    filtered.computeLags(withPearson: false) // YIN input only
                    yinInput = filtered
                }
            }
        }
        if yinInput === raw { raw.computeLags(withPearson: false) }
        var yin = YinSearch.search(yinInput, minLag: minLag, maxLag: maxLag, octaveCheck: rumbleFree)
        if let f = latched {
            var expected = sampleRate / f
            // A latch on a subharmonic (the rumble-free window is as periodic at a half or a
            // third of the latched period): track the shorter period instead.
            if let x = rumbleFree {
                let d = LagAnalysis.periodDivisor(
                    in: x, size: windowSize, lag: Int(expected.rounded()),
                    minLag: minLag, maxLag: raw.maxLag)
                if d > 1 { expected /= Double(d) }
            }
            let inWindow = yin.map { abs(log2($0.lag / expected)) < 1.0 / 12 } ?? false
            // A deep first dip at 1/2, 1/3 or 1/4 of the latched period means the latch is on a
            // subharmonic (every period-T signal also dips at 2T): keep the standard result.
            let subharmonicLatch =
                yin.map { y in
                    y.confidence >= 1 - Double(YinSearch.threshold)
                        && (2...4).contains { k in
                            abs(log2(Double(k) * y.lag / expected)) < 0.04
                        }
                } ?? false
            if !inWindow, !subharmonicLatch {
                // The standard result at an integer multiple (2…6) of the latched period is that
                // note's own subharmonic dip: keep the latched period if it dips below 0.40.
                // (Unless the latched lag is itself only half a period: the octave check.)
                let multiple =
                    yin.map { y in
                        (2...6).contains { k in abs(log2(y.lag / (Double(k) * expected))) < 0.03 }
                            && (rumbleFree.map {
                                LagAnalysis.periodMultiple(
                                    in: $0, size: windowSize, lag: Int(expected.rounded()),
                                    maxLag: raw.maxLag) > 1
                            } ?? yinInput.isHalfPeriod(Int(expected.rounded()))) == false
                    } ?? false
                let threshold = multiple ? YinSearch.relaxedThreshold : YinSearch.latchedThreshold
                if let near = YinSearch.searchNear(
                    yinInput, expectedLag: expected, minLag: minLag, maxLag: maxLag,
                    threshold: threshold)
                {
                    // Unless the standard result's period divides the one found near the latch
                    // and the window repeats at it as well: then the near one is a subharmonic
                    // of the standard (a new, higher note after a low one: every period-T
                    // window dips at kT too) and the shortest period wins, as in YIN.
                    let subharmonicNear =
                        yin.map { y in
                            let k = (near.lag / y.lag).rounded()
                            guard k >= 2 && abs(near.lag / (k * y.lag) - 1) < 0.03 else { return false }
                            let dShort = yinInput.normalizedDifference(near: Int(y.lag.rounded()), radius: 1)
                            let dNear = yinInput.normalizedDifference(near: Int(near.lag.rounded()), radius: 1)
                            return dShort <= 0.05 && dShort <= dNear + 0.01
                        } ?? false
                    if !subharmonicNear && (yin == nil || multiple || near.confidence >= yin!.confidence - 0.05) { yin = near }
                }
            }
        }
        lastYin = yin

        // 2. Band combination; if it fails, the same on the rumble-free window.
        var result = combine(yin: yin, ac: rawPearson())
        var retryPearson: PearsonPeakSearch.Result?
        var retried = false
        if result == nil, let clean = rumbleFree {
            let y2: LagEstimate?, a2: PearsonPeakSearch.Result?
            if let r = ahead?.retry {
                (y2, a2) = (r.yin, r.pearson)
            } else {
                filtered.analyse(clean)
                (y2, a2) = HybridPitchDetector.retrySearch(filtered, minLag: minLag, maxLag: maxLag)
            }
            if let r2 = combine(yin: y2, ac: a2) {
                result = r2; lastYin = y2; lastPearson = a2; retryPearson = a2; retried = true
            }
        }

        // 3. Rescue.
        var evidence: HarmonicFingerprint.Evidence?
        if result == nil {
            if level > noiseFloor.effective {
                let probes: RescueProbes
                if let foreseen = ahead?.probes {
                    probes = foreseen
                } else {
                    fingerprint.load(window)
                    raw.computeLags()
                    ownProbes.probe(raw, fingerprint: fingerprint, minLag: minLag, maxLag: maxLag)
                    probes = ownProbes
                }
                if let (f, ev, score) = rescue(probes, window: window, loaded: probes === ownProbes) {
                    result = PitchEstimate(frequency: f, confidence: min(1, score), source: .fingerprint)
                    evidence = ev
                }
            } else {
                fingerprint.record(midi: -1)
            }
        }
        let previous = previousCandidate
        previousCandidate = result?.frequency ?? 0
        guard let candidate = result else { return nil }

        // 4. Mains hum is not a note. Nor, for a moment after it, is a period within 3.5 % of
        //    it: a note starting or dying over the hum pulls the hum's period off the exact
        //    mains (a flute's slow attack read 60.3 → 61.8 Hz, "B1", for 0.1 s), while a real
        //    note that close to the mains is only held back that moment.
        if HarmonicFingerprint.isMainsLike(candidate.frequency) {
            // Hum is steady and holds the display blank: only a run of exact mains periods
            // while nothing is latched opens the window (not a played note's vibrato
            // crossing one: a cello's B2 at 120.6 Hz).
            humRun = latched == nil ? humRun + 1 : 0
            if humRun >= HumContext.minRun { humHops = HumContext.hops }
            return nil
        }
        humRun = 0
        if humHops > 0 {
            humHops -= 1
            if HarmonicFingerprint.isMainsLike(candidate.frequency, tolerance: HumContext.tolerance) { return nil }
        }

        // 5. Harmonic gate for new low notes.
        let isNew = latched.map { !HybridPitchDetector.sameNote($0, candidate.frequency, tolerance: 0.6) } ?? true
        if isNew && candidate.frequency < 200 {
            // Strong autocorrelation bypasses the gate (pure tones have no harmonics), when the
            // pitch is also stable to 25 ¢ since the last hop: narrowband rumble correlates
            // strongly too, but its period wanders.
            let stable = previous > 0 && abs(1200 * log2(candidate.frequency / previous)) < 25
            let strongAC =
                stable
                && ((retried ? retryPearson : rawPearson()).map {
                    $0.estimate.confidence >= 0.90 && HybridPitchDetector.sameNote($0.estimate.frequency(sampleRate: sampleRate), candidate.frequency)
                } ?? false)
            if !strongAC {
                if evidence == nil { fingerprint.load(window); evidence = fingerprint.evaluate(f0: candidate.frequency) }
                var ev = evidence!
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
                if !pass || ev.rejected { return nil }
            }
        }
        return candidate
    }

    /// Band combination of seed 004 §6: above 95 Hz YIN; 65–95 Hz YIN at confidence ≥ 0.88
    /// or with the autocorrelation agreeing on the note; below 65 Hz both must agree.
    /// `ac` is evaluated only at or below 95 Hz (above, YIN decides alone and the source is
    /// reported as `.yin`).
    private func combine(yin: LagEstimate?, ac: @autoclosure () -> PearsonPeakSearch.Result?) -> PitchEstimate? {
        HybridPitchDetector.combine(yin: yin, ac: ac(), sampleRate: sampleRate)
    }

    /// A window's level (dBFS RMS).
    static func level(of a: LagAnalysis) -> Double {
        let ms = a.energy / Double(a.size)
        return ms > 1e-24 ? 10 * log10(ms) : -240
    }

    /// Whether the estimators can read the window at all. Below −140 dBFS, or (nearly) pure
    /// DC: a constant window is "periodic" at every lag and its difference function is
    /// single-precision rounding noise (it read as the shortest lag, "B6 −49.4 ¢"). The
    /// varying part must be above −140 dBFS and within 50 dB of the DC.
    static func isReadable(_ a: LagAnalysis) -> Bool {
        let ms = a.energy / Double(a.size), acMs = a.acEnergy / Double(a.size)
        return ms > 1e-14 && acMs > max(1e-14, 1e-5 * ms)
    }

    /// The search of the rumble-free retry (step 2) on its analysed window: YIN without the
    /// octave check, and the autocorrelation peak.
    static func retrySearch(_ a: LagAnalysis, minLag: Int, maxLag: Int) -> (LagEstimate?, PearsonPeakSearch.Result?) {
        (YinSearch.search(a, minLag: minLag, maxLag: maxLag), PearsonPeakSearch.search(a, minLag: minLag, maxLag: maxLag))
    }

    /// `combine` for a sample rate (`HopPreparer` foresees the detector's fallbacks with it).
    static func combine(
        yin: LagEstimate?, ac: @autoclosure () -> PearsonPeakSearch.Result?, sampleRate: Double
    ) -> PitchEstimate? {
        guard let y = yin else { return nil }
        let fy = y.frequency(sampleRate: sampleRate)
        if fy > 95 { return PitchEstimate(frequency: fy, confidence: y.confidence, source: .yin) }
        let agree = ac().map { sameNote($0.estimate.frequency(sampleRate: sampleRate), fy) } ?? false
        if fy > 95 || (fy >= 65 && (y.confidence >= 0.88 || agree)) || agree {
            return PitchEstimate(frequency: fy, confidence: y.confidence, source: agree ? .both : .yin)
        }
        return nil
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

    /// Same MIDI note: within `tolerance` semitones (0.5 = rounds to the same note).
    @inline(__always) static func sameNote(_ a: Double, _ b: Double, tolerance: Double = 0.5) -> Bool {
        abs(12 * log2(a / b)) < tolerance
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

/// How long and how near to the mains a period is taken for hum after exact hum.
enum HumContext {
    /// Hops (about 0.13 s at 512 samples and 48 kHz).
    static let hops = 12
    /// Hops of exact hum in a row that open it.
    static let minRun = 10
    /// Relative distance from 50, 60, 100, 120, 150 or 180 Hz.
    static let tolerance = 0.035
}

/// The latch-aware filter's sanity check (see `HybridPitchDetector.detect`).
enum LatchFilter {
    /// Least share of the window's energy the low-pass must keep for YIN to read the
    /// filtered window.
    static let minKeptEnergy = 0.2
}

extension Note {
    /// Fractional MIDI number for A4 = 440 Hz (used only to bucket rescue candidates).
    @inline(__always) static func midiValueApprox(_ f: Double) -> Double { 69 + 12 * log2(f / 440) }
}
