import CKernels

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
    /// Eight outputs at a time (`spv_low_band_energy`): column j of the all-pole part's response
    /// to the FIR part's output at step j (`h[n − j]`, 0 above the diagonal), then the eight
    /// steps' response to the output one and two before them, then b0, b1, b2.
    private let blocks: [Float]

    init(sampleRate: Int) {
        let c = ZeroPhaseLowPass.design(cutoff: Self.cutoff, sampleRate: Double(sampleRate))
        (b0, b1, b2, a1, a2) = (Float(c.0), Float(c.1), Float(c.2), Float(c.3), Float(c.4))
        // y[n] = f[n] − a1·y[n−1] − a2·y[n−2], f the FIR part: its impulse response h, and
        // the steps' response to y[−1] = 1 and to y[−2] = 1 (in double, then rounded).
        func response(_ f0: Double, _ ym1: Double, _ ym2: Double) -> [Double] {
            var out: [Double] = [], p1 = ym1, p2 = ym2
            for n in 0..<8 {
                let y = (n == 0 ? f0 : 0) - c.3 * p1 - c.4 * p2
                out.append(y)
                (p2, p1) = (p1, y)
            }
            return out
        }
        let h = response(1, 0, 0)
        let columns = (0..<8).flatMap { j in (0..<8).map { n in n >= j ? Float(h[n - j]) : 0 } }
        blocks = columns + response(0, 1, 0).map { Float($0) } + response(0, 0, 1).map { Float($0) } + [b0, b1, b2]
    }

    /// Top of the band (Hz).
    static let cutoff = 200.0

    /// Filters `count` samples (a multiple of `parts`) and writes the energy (Σ y²) of each of
    /// the `parts` equal pieces to `out[0..<parts]`. Where a piece is a multiple of 8 samples,
    /// eight outputs come at a time from the two before them (the recursion one sample at a
    /// time waits ~12 cycles a sample on the one before; the same filter, rounded otherwise).
    mutating func push(_ x: UnsafePointer<Float>, count: Int, parts: Int, into out: UnsafeMutablePointer<Float>) {
        let length = count / parts
        guard length % 8 == 0, length >= 8 else { return pushSerial(x, count: count, parts: parts, into: out) }
        var state = (x1, x2, y1, y2)
        withUnsafeMutableBytes(of: &state) { s in
            blocks.withUnsafeBufferPointer { m in
                let state = s.baseAddress!.assumingMemoryBound(to: Float.self)
                spv_low_band_energy(x, Int32(count), Int32(parts), m.baseAddress!, m.baseAddress! + 80, state, out)
            }
        }
        (x1, x2, y1, y2) = state
    }

    /// `push` one sample at a time (pieces that are not a multiple of 8 samples).
    mutating func pushSerial(_ x: UnsafePointer<Float>, count: Int, parts: Int, into out: UnsafeMutablePointer<Float>) {
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
