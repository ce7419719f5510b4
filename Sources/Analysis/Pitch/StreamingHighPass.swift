#if canImport(Glibc)
import Glibc
#endif

/// A causal 2nd-order Butterworth high-pass (RBJ cookbook, Q = 1/√2) that runs on the
/// continuous input stream, so a steady tone passes with a constant phase shift and no
/// window-edge transients. The tracker feeds YIN, while latched, from this filter at half
/// the latched f0: it removes rumble and the low end of pink noise, which raise YIN's
/// CMND for every note above them. (Our addition to seed 004 §6; the seed's zero-phase
/// low-pass still runs on its output.) Does not allocate.
public struct StreamingHighPass: Sendable {
    private var b0 = 1.0, b1 = 0.0, b2 = 0.0, a1 = 0.0, a2 = 0.0
    private var x1 = 0.0, x2 = 0.0, y1 = 0.0, y2 = 0.0
    /// Cutoff in Hz; 0 = pass-through.
    public private(set) var cutoff = 0.0

    public init() {}

    /// Sets the cutoff (Hz, 0 = bypass). The state is kept, so changes are click-free enough
    /// for analysis.
    public mutating func setCutoff(_ fc: Double, sampleRate: Double) {
        let f = fc <= 0 ? 0 : min(fc, 0.45 * sampleRate)
        guard f != cutoff else { return }
        cutoff = f
        if f == 0 { b0 = 1; b1 = 0; b2 = 0; a1 = 0; a2 = 0; return }
        let w0 = 2 * Double.pi * f / sampleRate
        let alpha = sin(w0) / (2 * 0.5.squareRoot())
        let c = cos(w0)
        let a0 = 1 + alpha
        b0 = (1 + c) / 2 / a0
        b1 = -(1 + c) / a0
        b2 = b0
        a1 = -2 * c / a0
        a2 = (1 - alpha) / a0
    }

    /// Filters one sample.
    @inline(__always) public mutating func process(_ x: Float) -> Float {
        let xd = Double(x)
        let y = b0 * xd + b1 * x1 + b2 * x2 - a1 * y1 - a2 * y2
        x2 = x1; x1 = xd; y2 = y1; y1 = y
        return Float(y)
    }

    public mutating func reset() { x1 = 0; x2 = 0; y1 = 0; y2 = 0 }
}
