/// Turns the stream of raw tempo estimates into a stable display
/// (SPEC §6; seed 000 Part 5 "Temporal smoothing", "Silence suppression" and
/// "Tempo-change detection"), with two additions against false readings:
///
/// - **Beat test.** An estimate is *onset-like* when its onset signal has sharp, peaky
///   onsets (kurtosis ≥ 2.15; not the smooth sinusoidal flicker, ~1.9, of a steady
///   chord's interfering partials). It is *strong* when its comb confidence is also
///   ≥ 0.42 and onsets recur
///   at a beat rate (pulse ≥ 0.3, not just once a bar as a pad changing chords). It is
///   *weak* with confidence ≥ 0.15 (the seed's display threshold) and pulse ≥ 0.03.
/// - **Hysteresis.** Strong estimates vote for their tempo. Weak ones only hold a tempo
///   already on display: within ±2 BPM of it (then an onset-like estimate with the seed's
///   confidence holds however faint its pulse: drumless music), or within ±5 BPM when both
///   halves of the history confirm it on their own (`corroborated`). They never start a
///   display, so beat-less input (held chords, quiet intros) shows nothing.
/// - **New energy to start.** With nothing on display, a strong estimate votes only when at
///   least `startNovelty` of its history's flux is new energy (`TempoEstimate.novelty`:
///   partials or attacks the previous ~90 ms did not have). An organ's beating partials or
///   a pad's tremolo pass the beat test at a steady tempo, but they only raise partials
///   already sounding (dev-notempo organ and pad: 0.014 and 0.005 where main started a
///   display; the lowest start of a dev / dev-ext pulse track: 0.036, a ballad). New energy
///   confined to one octave band in its frame does not count (`SpectralNovelty.minSpread`:
///   voices detuned by a few Hz re-enter their beating nulls one band at a time), which
///   lowers every track's share a little: the threshold went from 0.024 to 0.020 with it.
/// - **Or pitch content that moves.** A strong estimate may also start a display without
///   that new energy when its history's pitch content moves from second to second
///   (`TempoEstimate.movement` ≥ `startMovement`): notes or chords swelling in legato
///   (bowed, attacks of ~0.2 s) bring their partials too slowly for the 90 ms novelty test
///   (a generated bowed chord line: share 0.003), but they change which pitch classes sound,
///   which a held chord never does, however it beats, swells or loops (dev-notempo: ≤ 0.071,
///   median ≤ 0.04; `HarmonicMovement`).
/// - **Or a steady run.** A fair estimate (confidence ≥ `steadyConfidence`, below a strong
///   one's) that holds one tempo (±2 BPM) for `steadyNeeded` estimates in a row (4 s), each
///   bringing new energy, votes as a strong one would: weak evidence summed over time. Music
///   whose beat is soft all through (an orchestra with no section marking every beat; real
///   recordings that got no beats at all) holds such runs; beat-less audio does not (the
///   generated beat-less sets: no run of even 4, since their estimates bring no new energy
///   or wander in tempo).
/// - The display changes when 2 of the last 3 votes agree within ±5 BPM (it shows their
///   mean) and goes blank after 3 votes without a beat (~1.5 s).
/// - 3 consecutive votes more than 10 BPM from the display ask the tracker to flush
///   its onset history (tempo change).
struct TempoDisplayFilter {
    var minConfidence = 0.15
    var strongConfidence = 0.42
    var strongPulse = 0.3
    var minPulse = 0.03
    /// Minimum onset sharpness 1 − r(1).
    var minSharpness = 0.3
    /// Minimum onset kurtosis.
    var minPeakiness = 2.15
    /// A weak estimate this close to the display (BPM) holds it unconfirmed.
    var holdTolerance = 2.0
    /// Agreement window (BPM).
    var agreement = 5.0
    /// Divergence that counts towards a tempo-change flush (BPM).
    var divergence = 10.0
    /// Least novelty share (`TempoEstimate.novelty`) of an estimate that starts a display.
    var startNovelty = 0.020
    /// Least harmonic movement (`TempoEstimate.movement`) that lets a strong estimate start a
    /// display without new energy.
    var startMovement = 0.06
    /// Least confidence of an estimate that counts towards a steady run.
    var steadyConfidence = 0.25
    /// Estimates in a row (one every ~0.5 s) that make a steady run vote.
    var steadyNeeded = 8

    private(set) var display: TempoReading?
    private var votes: (TempoReading?, TempoReading?, TempoReading?) = (nil, nil, nil)
    private var filled = 0
    private var divergentRun = 0
    /// Consecutive steady estimates (`countSteady`) and the tempo the run started at.
    private var steadyCount = 0
    private var steadyBPM = 0.0

    /// Clears the smoothing buffer (the display is kept until new votes agree).
    mutating func flush() {
        votes = (nil, nil, nil)
        filled = 0
        divergentRun = 0
    }

    /// Forgets everything, including the display.
    mutating func reset() {
        flush()
        display = nil
        steadyCount = 0
    }

    /// Sharp, peaky onsets rather than a smooth periodic flicker.
    func isOnsetLike(_ e: TempoEstimate) -> Bool {
        e.sharpness >= minSharpness && e.peakiness >= minPeakiness
    }

    /// A clear beat: may start or change the display.
    func isStrong(_ e: TempoEstimate) -> Bool {
        isOnsetLike(e) && e.confidence >= strongConfidence && e.pulse >= strongPulse
    }

    /// A soft beat: may hold the display.
    func isWeak(_ e: TempoEstimate) -> Bool {
        isOnsetLike(e) && e.confidence >= minConfidence && e.pulse >= minPulse
    }

    /// Whether the tracker should run the split-half check on `e`.
    func wantsCorroboration(_ e: TempoEstimate) -> Bool {
        !isStrong(e) && isWeak(e)
    }

    /// Counts `e` into the steady run: onset-like, with a fair confidence and new energy, at
    /// the tempo the run started at (±`holdTolerance`); anything else ends the run.
    private mutating func countSteady(_ e: TempoEstimate) {
        let steady = isOnsetLike(e) && e.confidence >= steadyConfidence && e.pulse >= minPulse && e.novelty >= startNovelty
        if steady && steadyCount > 0 && abs(e.bpm - steadyBPM) <= holdTolerance {
            steadyCount += 1
        } else {
            steadyCount = steady ? 1 : 0
            steadyBPM = e.bpm
        }
    }

    /// Feeds one raw estimate (nil = silence or too little history). Returns true when
    /// the tracker should flush its onset history (tempo change).
    mutating func push(_ estimate: TempoEstimate?) -> Bool {
        var vote: TempoReading?
        if let e = estimate {
            let distance = display.map { abs($0.bpm - e.bpm) } ?? .infinity
            // Within ±2 BPM of the display, onset-like with the seed's confidence holds it even
            // when the pulse is faint (drumless music: its note attacks do not recur on every
            // beat, and a display of the right tempo went blank for the rest of the track).
            let near = distance <= holdTolerance && isOnsetLike(e) && e.confidence >= minConfidence
            let holds = near || (isWeak(e) && distance <= agreement && e.corroborated)
            // Nothing on display: only new energy (notes, drums) may start one, not the
            // swell of a held chord's partials, however periodic (issue 37).
            // Or notes that change (legato: no new energy, but a held chord does not move).
            let starts = display != nil || e.novelty >= startNovelty || e.movement >= startMovement
            countSteady(e)
            if (isStrong(e) && starts) || holds || steadyCount >= steadyNeeded { vote = TempoReading(bpm: e.bpm, confidence: e.confidence) }
        } else {
            steadyCount = 0
        }
        votes = (votes.1, votes.2, vote)
        filled = min(3, filled + 1)

        if let newest = vote {
            // Mean of the votes (among the last 3) that agree with the newest.
            var count = 0.0, bpm = 0.0, confidence = 0.0
            func add(_ candidate: TempoReading?) {
                guard let c = candidate, abs(c.bpm - newest.bpm) <= agreement else { return }
                count += 1; bpm += c.bpm; confidence += c.confidence
            }
            if filled == 3 { add(votes.0) }
            if filled >= 2 { add(votes.1) }
            add(votes.2)
            if count >= 2 { display = TempoReading(bpm: bpm / count, confidence: confidence / count) }
        } else if filled == 3 && votes.0 == nil && votes.1 == nil {
            display = nil
        }
        // Tempo-change detection: 3 consecutive votes far from the display.
        if let shown = display, let newest = vote, abs(newest.bpm - shown.bpm) > divergence {
            divergentRun += 1
        } else {
            divergentRun = 0
        }
        if divergentRun >= 3 {
            flush()
            return true
        }
        return false
    }
}
