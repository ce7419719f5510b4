/// What the tempo display shows: a tempo and how sure the detector is.
public struct TempoReading: Equatable, Sendable {
    /// Displayed tempo in beats per minute (70–160, SPEC §6).
    public var bpm: Double
    /// Confidence 0…1: the mean normalised autocorrelation at the beat period and its
    /// multiples (seed 000 Part 5 "Confidence metric", generalised to the comb).
    public var confidence: Double

    public init(bpm: Double, confidence: Double) {
        self.bpm = bpm
        self.confidence = confidence
    }
}

/// One display update of the tempo tracker (every ~0.5 s of audio).
public struct TempoUpdate: Equatable, Sendable {
    /// Media time (s) at which this update is on screen in real-time playback: the end
    /// of the newest audio it used (the estimate never looks ahead).
    public var time: Double
    /// What the display shows from `time` on; nil = nothing shown.
    public var display: TempoReading?
    /// The unsmoothed estimate behind it (nil while silent or too little history).
    public var raw: TempoEstimate?
    /// The tapped level ÷ the displayed tempo (½, 1 or 2) at this update (`TempoTracker.level`).
    public var level: Double = 1
}
