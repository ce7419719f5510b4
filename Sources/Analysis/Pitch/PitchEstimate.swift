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
    /// The note does not dominate its band: another sound there (a kick under a bass) pulls
    /// the period, so its own upper partial disagrees with it (`PitchTracker`).
    public var unsure = false

    public init(frequency: Double, confidence: Double, source: Source, unsure: Bool = false) {
        self.frequency = frequency
        self.confidence = confidence
        self.source = source
        self.unsure = unsure
    }
}
