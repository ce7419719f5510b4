/// The energy below 200 Hz in quarter frames, for the live tracker's kicks (issue 37).
///
/// `PercussiveLow` tells a kick from a bass note by its decay ~50 ms after the onset, read on
/// the low band's level in ~23 ms windows every ~11.6 ms. The live tracker's own frames do not
/// overlap (one ~23 ms window every ~23 ms), and in them a held 55 Hz bass (one period per
/// window) flickers from frame to frame, which the decay test reads as a kick: loud-hat house
/// stayed on its off-beat bass. Here the signal is low-passed (2nd-order Butterworth at
/// 200 Hz, the onset's low band) and its energy summed in quarter frames (~5.8 ms), so that a
/// level over any four of them is a ~23 ms window every ~5.8 ms. Does not allocate.
struct LowBandEnergy {
    private let b0, b1, b2, a1, a2: Float
    private var x1: Float = 0, x2: Float = 0, y1: Float = 0, y2: Float = 0

    init(sampleRate: Int) {
        let c = ZeroPhaseLowPass.design(cutoff: Self.cutoff, sampleRate: Double(sampleRate))
        (b0, b1, b2, a1, a2) = (Float(c.0), Float(c.1), Float(c.2), Float(c.3), Float(c.4))
    }

    /// Top of the band (Hz).
    static let cutoff = 200.0

    /// Filters `count` samples (a multiple of `parts`) and writes the energy (Σ y²) of each of
    /// the `parts` equal pieces to `out[0..<parts]`.
    mutating func push(_ x: UnsafePointer<Float>, count: Int, parts: Int, into out: UnsafeMutablePointer<Float>) {
        let length = count / parts
        for part in 0..<parts {
            var e: Float = 0
            for t in (part * length)..<((part + 1) * length) {
                let y = b0 * x[t] + b1 * x1 + b2 * x2 - a1 * y1 - a2 * y2
                x2 = x1; x1 = x[t]; y2 = y1; y1 = y
                e += y * y
            }
            out[part] = e
        }
    }

    /// Forgets the filter's state.
    mutating func reset() { x1 = 0; x2 = 0; y1 = 0; y2 = 0 }
}
