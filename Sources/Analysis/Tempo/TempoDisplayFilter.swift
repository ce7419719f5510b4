/// Turns the stream of raw tempo estimates into a stable display
/// (SPEC §6; seed 000 Part 5 "Temporal smoothing" and "Tempo-change detection").
///
/// - A raw estimate counts only when it passes the beat test: sharp onsets, onsets
///   recurring at a beat rate (not just once a bar), and confidence ≥ 0.35 — or ≥ 0.15
///   (the seed's threshold) when both halves of the history confirm the tempo on their
///   own; otherwise it is a "no beat" vote.
/// - The display takes a new value only when 2 of the last 3 estimates agree within
///   ±5 BPM (it shows their mean); it goes blank when 2 of the last 3 are "no beat".
/// - 3 consecutive estimates more than 10 BPM from the displayed tempo ask the
///   tracker to flush its onset history (`shouldFlush`).
struct TempoDisplayFilter {
    /// Minimum comb confidence for a raw estimate to count as a beat (seed: 15%).
    var minConfidence = 0.15
    /// Confidence from which an estimate counts without corroboration; weaker ones
    /// (down to `minConfidence`) need the split-half check of `TempoTracker`.
    var strongConfidence = 0.42
    /// Minimum onset sharpness (1 − r(1)): below it the periodicity is a smooth swell
    /// (beating partials, tremolo), not a beat.
    var minSharpness = 0.3
    /// A weak estimate this close to the display (BPM) holds it even unconfirmed.
    var holdTolerance = 2.0
    /// Agreement window (BPM).
    var agreement = 5.0
    /// Divergence that counts towards a tempo-change flush (BPM).
    var divergence = 10.0

    private(set) var display: TempoReading?
    private var recent: (TempoReading?, TempoReading?, TempoReading?) = (nil, nil, nil)
    private var filled = 0
    private var divergentRun = 0

    /// Clears the smoothing buffer (the display is kept until new estimates agree).
    mutating func flush() {
        recent = (nil, nil, nil)
        filled = 0
        divergentRun = 0
    }

    /// Forgets everything, including the display.
    mutating func reset() {
        flush()
        display = nil
    }

    /// Minimum beat-rate pulse (ACF at one period of 70–200 BPM) for a strong estimate.
    var strongPulse = 0.3
    /// Minimum pulse for a corroborated weak estimate.
    var minPulse = 0.1

    /// Whether `estimate` shows a beat without further checks.
    func isStrong(_ e: TempoEstimate) -> Bool {
        e.sharpness >= minSharpness && e.confidence >= strongConfidence && e.pulse >= strongPulse
    }

    /// Whether `estimate` may show a beat if the split-half check confirms it.
    func needsCorroboration(_ e: TempoEstimate) -> Bool {
        !isStrong(e) && e.sharpness >= minSharpness && e.confidence >= minConfidence && e.pulse >= minPulse
    }

    /// Whether `estimate` shows a beat.
    func isBeat(_ e: TempoEstimate) -> Bool {
        isStrong(e) || (needsCorroboration(e) && e.corroborated)
    }

    func isWeakBeat(_ e: TempoEstimate) -> Bool {
        e.sharpness >= minSharpness && e.confidence >= minConfidence && e.pulse >= minPulse
    }

    /// Feeds one raw estimate (nil = silence / not enough history). Returns true when
    /// the tracker should flush its history (tempo change).
    mutating func push(_ estimate: TempoEstimate?) -> Bool {
        var vote: TempoReading?
        if let e = estimate {
            // Weak estimates may hold a display (hysteresis) but never start one.
            let near = display.map { abs($0.bpm - e.bpm) } ?? .infinity
            let holds = isWeakBeat(e) && (near <= holdTolerance || (near <= agreement && e.corroborated))
            if isStrong(e) || holds {
                vote = TempoReading(bpm: e.bpm, confidence: e.confidence)
            }
        }
        recent = (recent.1, recent.2, vote)
        filled = min(3, filled + 1)

        let votes = [recent.0, recent.1, recent.2].suffix(filled)
        let blanks = votes.filter { $0 == nil }.count
        if let newest = vote {
            let agreeing = votes.compactMap { $0 }.filter { abs($0.bpm - newest.bpm) <= agreement }
            if agreeing.count >= 2 {
                let n = Double(agreeing.count)
                display = TempoReading(bpm: agreeing.map(\.bpm).reduce(0, +) / n,
                                       confidence: agreeing.map(\.confidence).reduce(0, +) / n)
            }
        } else if blanks >= 3 {
            display = nil
        }
        // Tempo-change detection: 3 consecutive estimates far from the display.
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
