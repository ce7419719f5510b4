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
    /// The latest detection was unsure (`PitchEstimate.unsure`): the display holds the pitch
    /// it had and should not show the cents as a verdict.
    public var unsure: Bool
    /// This hop's detection on the shown note (Hz, unsmoothed), 0 where the reading is only
    /// held: a hop without a detection (the release, a gap between detached notes), or one
    /// whose detection went to another note or waits for a second reading.
    public var detection: Double
    /// Whether this hop's detection set the reading.
    public var measured: Bool { detection > 0 }

    public init(
        frequency: Double, note: Note, cents: Double, target: Note, inTune: Bool, confidence: Double, unsure: Bool = false
    ) {
        self.frequency = frequency; self.note = note; self.cents = cents
        self.target = target; self.inTune = inTune; self.confidence = confidence
        self.unsure = unsure; detection = frequency
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
/// - A glide (a portamento: three detections in a row each 3–100 cents on from the last, in
///   the same direction, leaving from the pitch shown) is followed across note boundaries at
///   once.
/// - Frequency smoothing: jumps > 6 % snap; changes < 2 % blend with α = 0.12, or α = 0.5
///   when two detections in a row lie 12 cents or more off on the same side (a vibrato);
///   in between α = 0.5 once two detections in a row agree on the step (one stray reading
///   is ignored); α is weighted by the hop's level relative to the noise floor.
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
    /// The last two hops' detections (Hz, newest first; 0 = none on that hop).
    private var recent = (0.0, 0.0)
    /// Whether those two went to the shown note (not to a candidate for another).
    private var recentOnNote = (false, false)
    /// Whether the last detection continued a glide.
    private var glided = false
    /// Cents of the last detection on the shown note off the pitch shown before it.
    private var lastDeviation = 0.0
    /// Mean square (cents²) of the second difference of consecutive detections.
    private var jitter = 0.0
    /// Whether the shown note has had a sure detection since it latched.
    private var confirmed = true
    /// Unsure detections in a row on the shown note.
    private var unsureRun = 0
    /// Unsure detections in a row that hold the pitch shown (about 0.1 s).
    static let unsureHold = 8
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
        if let r = reading { update(reading: r.frequency, confidence: r.confidence, unsure: r.unsure, detection: r.detection) }
    }

    public mutating func reset() {
        reading = nil; latchedMidi = nil; candidateCount = 0; candidateMidi = .min
        lastDetection = -.infinity; pendingStep = 0; lastSameNote = -.infinity
        recent = (0, 0); recentOnNote = (false, false); glided = false; lastDeviation = 0; jitter = 0; unsureRun = 0
    }

    /// Feeds one hop: `estimate` (nil = no pitch) at time `time` (seconds); `weight` 0…1 is
    /// the hop's loudness weight for smoothing. `fading`: the note has faded well under its
    /// peak (struck, plucked or released), where the period estimate drifts: the display
    /// then does not follow motion fast.
    public mutating func feed(_ estimate: PitchEstimate?, time: Double, weight: Double = 1, fading: Bool = false) {
        reading?.detection = 0
        guard let e = estimate, e.frequency > 0 else {
            if time - lastDetection >= release - 1e-9 { reading = nil; latchedMidi = nil; candidateCount = 0 }
            recent = (0, 0); recentOnNote = (false, false); glided = false
            return
        }
        trackJitter(e.frequency)
        let clear = e.confidence >= TunerDisplay.clearConfidence && !fading
        let glide = clear && gliding(to: e.frequency)
        glided = glide
        recent = (e.frequency, recent.0)
        recentOnNote = (false, recentOnNote.0)
        lastDetection = time
        let m = Note.midiValue(frequency: e.frequency, reference: reference)
        let midi = Int(m.rounded())

        let sameNote = latchedMidi.map { abs(12 * log2(e.frequency / smoothed)) < 0.6 || midi == $0 } ?? false
        if reading != nil, sameNote || glide {
            // Same note, or the pitch gliding on from it without a break (followed at once).
            candidateCount = 0
            lastSameNote = time
            sameNoteCount += 1
            recentOnNote.0 = true
            smooth(e, weight: weight, glide: glide && !sameNote, clear: clear)
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
            lastDeviation = 0
            confirmed = !e.unsure
            candidateCount = 0
            candidateMidi = .min
            update(reading: smoothed, confidence: e.confidence, unsure: e.unsure, detection: candidateFrequency)
        }
    }

    /// Least confidence of a detection that may move the display fast (a glide, a vibrato):
    /// a clearly periodic window, not a fading note's in noise.
    static let clearConfidence = 0.9
    /// Cents per hop of a glide the display follows from one note to the next: a sung
    /// portamento moves by up to 90 cents a hop (a raised-cosine glide of 40 ms over two
    /// semitones); a jump to another note (or a stray reading a semitone off) by more, and it
    /// still waits for its detections. At 70, eval/melody's display lost the fast glides.
    static let glideStep = 100.0
    /// Cents off the shown pitch from which two readings in a row on the same side move the
    /// display half way (a sung vibrato of ±30–60 cents), or three times the detections'
    /// scatter if more (a note in noise); a smaller offset is blended in slowly, so a held
    /// note stays steady.
    static let followCents = 12.0

    /// The detections' own scatter (cents, one standard deviation): from the second
    /// difference of three in a row (a steady motion, a glide or a vibrato, has almost none;
    /// noise under the note √6 times its scatter).
    private var scatter: Double { (jitter / 6).squareRoot() }

    /// Updates `jitter` with detection `f`.
    private mutating func trackJitter(_ f: Double) {
        guard recent.0 > 0, recent.1 > 0 else { return }
        let s2 = 1200 * (log2(f / recent.0) - log2(recent.0 / recent.1))
        jitter += (min(s2 * s2, 400) - jitter) * 0.1
    }

    /// Whether `f` continues a glide of the shown pitch: this reading and the one before each
    /// moved on by 3 to `glideStep` cents in the same direction, by more than twice the
    /// detections' scatter and by similar steps, leaving from the pitch shown.
    private func gliding(to f: Double) -> Bool {
        guard reading != nil, recent.0 > 0, recent.1 > 0 else { return false }
        let d1 = 1200 * log2(f / recent.0), d0 = 1200 * log2(recent.0 / recent.1)
        let least = max(3, 2 * scatter)
        guard least < TunerDisplay.glideStep, d1 * d0 > 0, abs(d1 - d0) < 0.5 * max(abs(d1), abs(d0)) else { return false }
        let step = least...TunerDisplay.glideStep
        // The motion goes on from the last hop's glide, or leaves the pitch shown: one of the
        // last two readings was shown, or the one before last lay near it (a glide that
        // began with a small step, its next reading counted for another note), and none lay
        // on the other side of it (a stray reading, the note, a stray the other way).
        let c1 = 1200 * log2(recent.1 / smoothed)
        let leaves = (recentOnNote.0 || recentOnNote.1 || abs(c1) < 60) && c1 * (d1 > 0 ? 1 : -1) >= -least
        let fromShown = glided || leaves
        return step.contains(abs(d1)) && step.contains(abs(d0)) && fromShown
    }

    /// Frequency smoothing of a detection on the shown note (see the type's notes).
    private mutating func smooth(_ e: PitchEstimate, weight: Double, glide: Bool, clear: Bool) {
        let deviation = 1200 * log2(e.frequency / smoothed)
        let previous = lastDeviation
        lastDeviation = deviation
        // Two readings in a row off the shown pitch on the same side: the pitch moves (a
        // vibrato, a bend), follow it half way.
        let follow = max(TunerDisplay.followCents, 3 * scatter)
        let moving =
            clear && abs(deviation) >= follow && deviation * previous > 0
            && abs(previous) >= follow
        // An unsure detection keeps the note shown but does not move its pitch, for as long
        // as a transient lasts (a kick under a bass); beyond, the pitch is smoothed as usual
        // and the reading stays marked unsure (rumble under the note).
        // A partial's hold reading (no period detection this hop) cannot confirm a note shown
        // unsure: at a note's end it is pulled by the next note's attack (the demo's held
        // "A1 ?¢" became a sure −31 ¢ on one).
        let unsure = e.unsure || (!confirmed && e.source == .partial)
        unsureRun = unsure ? unsureRun + 1 : 0
        if unsure && !glide && unsureRun <= TunerDisplay.unsureHold {
            update(reading: smoothed, confidence: e.confidence, unsure: true, detection: e.frequency)
            return
        }
        let ratio = abs(e.frequency / smoothed - 1)
        if !glide && !moving && ratio >= 0.02 && ratio <= 0.06 {
            // A step of 2–6 % is followed only when the next detection agrees with it (1 %),
            // or continues a motion (a vibrato's swing): one stray reading (a fading note
            // under rumble or noise) moved the display half way and, with the detections
            // that followed held, left it there.
            if pendingStep == 0 || abs(e.frequency / pendingStep - 1) > 0.01 {
                pendingStep = e.frequency
                return
            }
        }
        pendingStep = 0
        // The first sure detection of a note latched on unsure ones, or after unsure ones
        // moved its pitch (past `unsureHold`: a kick's tail pulling a bass note's period
        // for a whole note), replaces its pitch: smoothed from there, a sure C1 on the demo
        // kept 10-20 cents of the pull.
        let confirms = !confirmed && !unsure
        confirmed = !unsure
        let base = ratio > 0.06 || glide || confirms ? 1.0 : (ratio < 0.02 && !moving ? 0.12 : 0.5)
        let alpha = base >= 1 ? 1 : base * max(0.25, min(1, weight))
        smoothed += (e.frequency - smoothed) * alpha
        // The note shown follows the pitch once it is nearer another note (with hysteresis).
        let m = Note.midiValue(frequency: smoothed, reference: reference)
        if let l = latchedMidi, abs(m - Double(l)) > 0.6 { latchedMidi = Int(m.rounded()) }
        update(reading: smoothed, confidence: e.confidence, unsure: unsure, detection: e.frequency)
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

    private mutating func update(reading f: Double, confidence: Double, unsure: Bool, detection: Double) {
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
            inTune: TuningTolerance.classify(cents: cents) == .inTune, confidence: confidence, unsure: unsure)
        reading?.detection = detection
    }
}
