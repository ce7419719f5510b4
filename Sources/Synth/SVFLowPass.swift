#if canImport(Glibc)
import Glibc
#endif

/// A 2-pole state-variable low-pass in the trapezoidal (TPT / zero-delay-feedback) form of
/// Andrew Simper, "Linear Trapezoidal Integrated State Variable Filter" (Cytomic, 2013),
/// seed 004 §7: Q = 1/√2 (Butterworth: flat pass band, no resonant peak).
///
/// Coefficients: g = tan(π·fc/fs), k = 1/Q, a1 = 1/(1 + g(g + k)), a2 = g·a1, a3 = g·a2.
/// Stable for any cutoff below Nyquist and free of the delay-free-loop error of the
/// Chamberlin SVF. A value type; does not allocate.
public struct SVFLowPass: Sendable, BitwiseCopyable {
    /// Butterworth quality factor 1/√2.
    public static let butterworthQ: Double = 0.5.squareRoot()

    var a1: Float = 1
    var a2: Float = 0
    var a3: Float = 0
    var ic1eq: Float = 0
    var ic2eq: Float = 0

    public init() {}

    /// Sets the cutoff (Hz, clamped below 0.49·fs) and Q for a sample rate (Hz).
    public mutating func setCutoff(_ hertz: Double, sampleRate: Double, q: Double = SVFLowPass.butterworthQ) {
        let fc = min(max(hertz, 1), 0.49 * sampleRate)
        let g = tan(Double.pi * fc / sampleRate)
        let k = 1 / q
        let b1 = 1 / (1 + g * (g + k))
        a1 = Float(b1)
        a2 = Float(g * b1)
        a3 = Float(g * g * b1)
    }

    /// Clears the two integrator states.
    public mutating func reset() { ic1eq = 0; ic2eq = 0 }

    /// Filters one sample and returns the low-pass output.
    public mutating func process(_ v0: Float) -> Float {
        let v3 = v0 - ic2eq
        let v1 = a1 * ic1eq + a2 * v3
        let v2 = ic2eq + a2 * ic1eq + a3 * v3
        ic1eq = 2 * v1 - ic1eq
        ic2eq = 2 * v2 - ic2eq
        return v2
    }
}
