/// One analysis frame: what the renderer needs from a 2048-sample hop.
/// Fixed-size storage, reused across hops (copying one allocates nothing new when
/// the destination already has the capacity).
public struct SpectrumFrame: Sendable {
    /// Normalised display value per band, 0…1 (after auto-level, tilt and gain).
    public var bands: [Float]
    /// Band level in dB (after tilt and gain), before normalisation.
    public var bandDB: [Float]
    /// 512 samples decimated from the hop, −1…1.
    public var waveform: [Float]
    /// The auto-level display window (dB): `top` = min(ceiling + 5, 0), `bottom` = top − 40.
    public var dbTop: Float
    public var dbBottom: Float
    /// Media time (s) at which this frame became available (end of its hop).
    public var time: Double
    /// Hop index since the start of the stream.
    public var index: Int

    public init() {
        bands = [Float](repeating: 0, count: LogBands.count)
        bandDB = [Float](repeating: -120, count: LogBands.count)
        waveform = [Float](repeating: 0, count: SpectrumAnalyzer.waveformLength)
        dbTop = -35
        dbBottom = -75
        time = 0
        index = -1
    }
}
