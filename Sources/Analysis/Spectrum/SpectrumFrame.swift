/// One analysis frame: what the renderer needs from a hop.
/// Fixed-size storage, reused across hops (copying one allocates nothing new when
/// the destination already has the capacity).
public struct SpectrumFrame: Sendable {
    /// Normalised display value per band, 0…1 (after the display range, tilt and gain).
    public var bands: [Float]
    /// Band level in dB (after weighting, tilt and gain), before normalisation.
    public var bandDB: [Float]
    /// 512 samples decimated from the last 2048, −1…1.
    public var waveform: [Float]
    /// The display window (dB): auto-level or the fixed `--db-range`.
    public var dbTop: Float
    public var dbBottom: Float
    /// Media time (s) at which this frame became available (end of its hop).
    public var time: Double
    /// Hop index since the start of the stream.
    public var index: Int
    /// The bands' frequency axis.
    public var axis: FrequencyAxis = .standard
    /// Unit of the level axis: "dB" (the seed's measure), "dBFS", "dB(A)" …
    public var levelUnit = "dB"
    /// Frequency of the loudest FFT bin (Hz, parabolic refinement).
    public var peakHz: Double = 0
    /// RMS and peak of the hop's samples (dBFS: 20·log10; a full-scale sine's RMS is −3.01).
    public var rmsDB: Float = -200
    public var peakDB: Float = -200

    public init(bands count: Int = LogBands.count) {
        bands = [Float](repeating: 0, count: count)
        bandDB = [Float](repeating: -120, count: count)
        waveform = [Float](repeating: 0, count: SpectrumAnalyzer.waveformLength)
        dbTop = -35
        dbBottom = -75
        time = 0
        index = -1
    }

    /// Resizes the band arrays (allocates; once per analysis layout).
    public mutating func resize(bands count: Int) {
        bands = [Float](repeating: 0, count: count)
        bandDB = [Float](repeating: -120, count: count)
    }
}
