#if canImport(Glibc)
import Glibc
#endif

/// Keeps a decaying tail from showing a lower note or its own octave above (issue 19). As a note fades into hum,
/// rumble or noise, the detector can find the hum or a subharmonic of the note; the display
/// must keep the note it had or go blank. A lower note is accepted only when it comes with
/// an onset (the level rising ≥ `onsetRise` dB over the quietest of the last 8 hops, within
/// the last `onsetHold` hops) or while the level is within `tailDrop` dB of its recent peak
/// (a legato change at the same loudness).
struct TailGate {
    static let onsetRise = 6.0
    static let onsetHold = 12
    static let tailDrop = 6.0
    /// How far (semitones) a tail reading may be from the shown note's octave above and still
    /// count as it: a fading nylon-string E5 in rumble read its octave 79 cents flat (11.2
    /// semitones up) and latched there for its last 0.7 s.
    static let octaveTolerance = 1.0
    /// Longest hold (s) of the shown note through blocked tail readings.
    static let maxHold = 1.0
    private var lastSame = -Double.infinity
    /// Release of the peak hold (dB per hop: 6 dB/s at 48 kHz / 512).
    static let peakRelease = 0.064
    private var peak = -240.0
    private var levels = (-240.0, -240.0, -240.0, -240.0, -240.0, -240.0, -240.0, -240.0)
    private var index = 0
    private var sinceOnset = Int.max / 2
    /// The frequency the display last showed (Hz), kept after it releases.
    private var lastShown: Double?
    /// The note shown before the last change of note, and when it changed.
    private var earlierShown: Double?
    private var changedAt = -Double.infinity
    /// Seconds after a change of note in which going back to the earlier note is free.
    static let returnWindow = 2.0
    /// Largest step (semitones) between consecutive readings that keeps them one path: a
    /// sung portamento moves by up to 1.3 semitones a hop at 512 samples; a tail's reading
    /// jumps to the hum or a subharmonic.
    static let pathStep = 1.5
    /// Whether the readings since the shown note form one path from it (each within
    /// `pathStep` of the one before, at most one hop without a reading), the last of them
    /// (Hz, 0 = none) and the hops since it.
    private var onPath = false
    private var pathLast = 0.0
    private var pathGap = 0

    /// The estimate to feed the display: `estimate`, or nil when it is a different note in a tail.
    mutating func gate(
        _ estimate: PitchEstimate?, level: Double, shown: Double?, time: Double, stillSounding: Bool = false,
        shownHeard: Bool = true
    ) -> PitchEstimate? {
        var quietest = level
        withUnsafeBytes(of: levels) { for v in $0.bindMemory(to: Double.self) { quietest = min(quietest, v) } }
        withUnsafeMutableBytes(of: &levels) { $0.bindMemory(to: Double.self)[index] = level }
        index = (index + 1) & 7
        if level >= quietest + TailGate.onsetRise { sinceOnset = 0 } else { sinceOnset += 1 }
        peak = max(level, peak - TailGate.peakRelease)
        if let f = shown {
            if let l = lastShown, abs(12 * log2(f / l)) >= 0.6 { earlierShown = l; changedAt = time }
            lastShown = f
        }
        followPath(estimate)
        guard let e = estimate, let last = lastShown else { return estimate }
        // Lower than the shown note by more than the display's same-note window (0.6
        // semitone): what a fading note's tail turns into (its subharmonics, the hum, the
        // rumble). Or its octave above (within `octaveTolerance`): the fundamental fading
        // under the second partial (a piano's unison strings beating the fundamental to a
        // null every second or so). Other higher readings are left alone: they cannot be the
        // hum, and blocking them would keep a wrong latch.
        let interval = 12 * log2(e.frequency / last)
        if abs(interval) < 0.6 { lastSame = time }
        // A harmonic of the shown note without an onset while the shown note's other
        // harmonics are still there: the note itself, its period read short (a fading
        // missing-fundamental bass read its 3rd harmonic). Hold it.
        if stillSounding, shown != nil, sinceOnset > TailGate.onsetHold {
            lastSame = time
            // (Held as unsure as the reading was: a kick's tail under the note's octave.)
            return PitchEstimate(frequency: last, confidence: e.confidence, source: e.source, unsure: e.unsure)
        }
        let inTail = level < peak - TailGate.tailDrop && sinceOnset > TailGate.onsetHold
        // The note's own subharmonics (an octave, a twelfth, two octaves down) without an
        // onset are blocked even where noise holds the level up (rumble at 6 dB under a
        // decaying note never lets it fall 6 dB).
        // (A return to the note shown just before, within `returnWindow`, is not blocked: the
        // shown note may be the wrong one, an octave up at a beating null.)
        let returning = earlierShown.map { abs(12 * log2(e.frequency / $0)) < 0.6 && time - changedAt <= TailGate.returnWindow } ?? false
        let subharmonic = !returning && (2...4).contains { k in abs(interval + 12 * log2(Double(k))) < 0.6 }
        // A lower note reached from the shown one by a path of readings (a legato glide down,
        // the new note as loud as the old one's fading end) is not a tail.
        // Nor is one under which none of the shown note's own partials is left (a new note,
        // sung after it and quieter: `shownHeard`).
        let blocked = (interval <= -0.6 && !onPath && shownHeard || abs(interval - 12) < TailGate.octaveTolerance) && inTail
        guard blocked || (subharmonic && sinceOnset > TailGate.onsetHold) else { return estimate }
        // Blocked. While the note was found within the last `maxHold` seconds, the tail
        // still carries it under the noise: hold what the display shows (a detection at
        // the shown frequency); after that, nothing (the display releases).
        guard shown != nil, time - lastSame <= TailGate.maxHold else { return nil }
        return PitchEstimate(frequency: last, confidence: e.confidence, source: e.source, unsure: e.unsure)
    }

    /// Updates `onPath` with this hop's reading (nil = none).
    private mutating func followPath(_ estimate: PitchEstimate?) {
        guard let f = estimate?.frequency, f > 0 else {
            pathGap += 1
            if pathGap > 1 { onPath = false; pathLast = 0 }
            return
        }
        if let l = lastShown, abs(12 * log2(f / l)) < 0.6 {
            onPath = true
        } else if onPath, pathLast > 0 {
            onPath = abs(12 * log2(f / pathLast)) <= TailGate.pathStep
        } else {
            onPath = false
        }
        pathLast = f
        pathGap = 0
    }
}
