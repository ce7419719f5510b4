import Tuning

#if canImport(Glibc)
import Glibc
#endif

/// What the tuner shows (seed 004 §3.1): the latched, smoothed pitch and its offset from
/// the target note of the active preset.
public struct TunerReading: Sendable, Equatable {
    /// Smoothed frequency (Hz).
    public var frequency: Double
    /// The latched note (nearest equal-tempered semitone of the latched pitch).
    public var note: Note
    /// Offset from `target` in cents (positive = sharp), from the smoothed frequency.
    public var cents: Double
    /// The preset note the player is tuning to (nearest preset note; chromatic: = note).
    public var target: Note
    /// Within ±5 cents of the target.
    public var inTune: Bool
    /// Confidence 0…1 of the latest detection.
    public var confidence: Double

    public init(frequency: Double, note: Note, cents: Double, target: Note, inTune: Bool, confidence: Double) {
        self.frequency = frequency; self.note = note; self.cents = cents
        self.target = target; self.inTune = inTune; self.confidence = confidence
    }
}

/// The display logic of seed 004 §6: a consecutive-detection latch and frequency smoothing.
///
/// - A new note needs 3 consecutive detections (8 for a jump of 11 semitones or more, unless
///   the latched note was a blip: heard on fewer than 8 hops and gone when the new note's
///   detections began; issue 19); with a
///   preset, 12 when the latched note is a preset note and the candidate is its octave above
///   outside the preset, 3 when the latched note is outside the preset and the candidate its
///   octave below inside it. A detection within 0.6 semitone of the latched pitch counts as
///   the latched note (hysteresis).
/// - `---` after 200 ms without any detection.
/// - Frequency smoothing: jumps > 6 % snap; changes < 2 % blend with α = 0.12; in between
///   α = 0.5 once two detections in a row agree on the step (one stray reading is ignored);
///   α is weighted by the hop's level relative to the noise floor (volume-weighted).
/// Does not allocate.
public struct TunerDisplay: Sendable {
    public var preset: TuningPreset
    /// Reference pitch of A4 (Hz).
    public var reference: Double
    /// Temperament, tonic and transposition (notes in the reading are written pitch).
    public var system: TuningSystem = .equal
    /// Release time without detections (seconds).
    public var release = 0.200
    /// Current reading, nil for `---`.
    public private(set) var reading: TunerReading?

    private var latchedMidi: Int?
    private var smoothed = 0.0
    private var candidateMidi = Int.min
    private var candidateCount = 0
    private var candidateFrequency = 0.0
    private var lastDetection = -Double.infinity
    /// When the latched note was last detected (s), and on how many hops since it latched.
    private var lastSameNote = -Double.infinity
    private var sameNoteCount = 0
    /// When the current candidate's run of detections began (s).
    private var candidateStart = 0.0
    /// The detection (Hz) of an unconfirmed step of 2–6 %, 0 for none.
    private var pendingStep = 0.0
    private var presetSet: Set<Int>

    public init(preset: TuningPreset = .chromatic, reference: Double = 440) {
        self.preset = preset
        self.reference = reference
        presetSet = preset.midiSet
    }

    /// The latched frequency the detector should track (Hz), nil when showing `---`.
    public var latchedFrequency: Double? { reading == nil ? nil : smoothed }

    /// Changes the preset (the latch is kept; targets follow).
    public mutating func setPreset(_ p: TuningPreset) {
        preset = p
        presetSet = p.midiSet
        if let r = reading { update(reading: r.frequency, confidence: r.confidence) }
    }

    public mutating func reset() {
        reading = nil; latchedMidi = nil; candidateCount = 0; candidateMidi = .min
        lastDetection = -.infinity; pendingStep = 0; lastSameNote = -.infinity
    }

    /// Feeds one hop: `estimate` (nil = no pitch) at time `time` (seconds); `weight` 0…1 is
    /// the hop's loudness weight for smoothing.
    public mutating func feed(_ estimate: PitchEstimate?, time: Double, weight: Double = 1) {
        guard let e = estimate, e.frequency > 0 else {
            if time - lastDetection >= release - 1e-9 { reading = nil; latchedMidi = nil; candidateCount = 0 }
            return
        }
        lastDetection = time
        let m = Note.midiValue(frequency: e.frequency, reference: reference)
        let midi = Int(m.rounded())

        if let l = latchedMidi, reading != nil, abs(12 * log2(e.frequency / smoothed)) < 0.6 || midi == l {
            // Same note: smooth.
            candidateCount = 0
            lastSameNote = time
            sameNoteCount += 1
            let ratio = abs(e.frequency / smoothed - 1)
            if ratio >= 0.02 && ratio <= 0.06 {
                // A step of 2–6 % is followed only when the next detection agrees with it (1 %):
                // one stray reading (a fading note under rumble or noise) moved the display
                // half way and, with the detections that followed held, left it there.
                if pendingStep == 0 || abs(e.frequency / pendingStep - 1) > 0.01 {
                    pendingStep = e.frequency
                    return
                }
            }
            pendingStep = 0
            let base = ratio > 0.06 ? 1.0 : (ratio < 0.02 ? 0.12 : 0.5)
            let alpha = base >= 1 ? 1 : base * max(0.25, min(1, weight))
            smoothed += (e.frequency - smoothed) * alpha
            update(reading: smoothed, confidence: e.confidence)
            return
        }
        // A different note (or nothing latched): count consecutive detections.
        if midi == candidateMidi {
            candidateCount += 1
            candidateFrequency = e.frequency
        } else {
            candidateMidi = midi; candidateCount = 1; candidateFrequency = e.frequency
            candidateStart = time
        }
        if candidateCount >= threshold(for: midi) {
            latchedMidi = midi
            lastSameNote = time
            sameNoteCount = candidateCount
            smoothed = candidateFrequency
            candidateCount = 0
            candidateMidi = .min
            update(reading: smoothed, confidence: e.confidence)
        }
    }

    /// Detections needed to switch to `midi` from the current latch.
    func threshold(for midi: Int) -> Int {
        guard let l = latchedMidi, reading != nil else { return 3 }
        if !presetSet.isEmpty {
            if presetSet.contains(l) && midi == l + 12 && !presetSet.contains(midi) { return 12 }
            if !presetSet.contains(l) && midi == l - 12 && presetSet.contains(midi) { return 3 }
        }
        // A jump of an octave or more waits longer, unless the latched note was a blip: heard
        // on fewer hops than the jump needs, and no longer heard for `staleAfter` when the
        // new note's run began (held only by the release).
        let blip = sameNoteCount < 8 && candidateStart - lastSameNote >= TunerDisplay.staleAfter
        return abs(midi - l) >= 11 && !blip ? 8 : 3
    }
    /// Seconds without the latched note before a new note's run (at least one hop of 512
    /// samples at 44.1/48 kHz with something else or nothing) that make a short latch a blip.
    static let staleAfter = 0.02

    private mutating func update(reading f: Double, confidence: Double) {
        var note = Note(midi: latchedMidi ?? Int(Note.midiValue(frequency: f, reference: reference).rounded()))
        var (target, cents) = preset.offset(of: f, reference: reference)
        if !system.isPlain {
            (target, cents) = system.target(for: f, preset: preset, reference: reference)
            if preset.notes.isEmpty { note = target }
            note = system.written(note)
            target = system.written(target)
        }
        reading = TunerReading(
            frequency: f, note: note, cents: cents, target: target,
            inTune: TuningTolerance.classify(cents: cents) == .inTune, confidence: confidence)
    }
}
