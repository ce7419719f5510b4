import CKernels

#if canImport(Glibc)
import Glibc
#endif

/// A 2nd-order Butterworth low-pass (Q = 1/√2, bilinear transform with pre-warping, RBJ
/// cookbook form) run forward then backward over a window: zero phase, −24 dB/octave
/// overall (seed 004 §6, "the latch-aware low-pass filter"). The state starts at the first (last) sample's DC steady state so the window edges do
/// not ring. Does not allocate.
public struct ZeroPhaseLowPass {
    private var b0 = 1.0, b1 = 0.0, b2 = 0.0, a1 = 0.0, a2 = 0.0
    /// Current cutoff in Hz (0 before `setCutoff`).
    public private(set) var cutoff = 0.0

    public init() {}

    /// Designs the filter for `cutoff` Hz at `sampleRate` Hz (cutoff below 0.45·rate).
    public mutating func setCutoff(_ cutoff: Double, sampleRate: Double) {
        let fc = min(cutoff, 0.45 * sampleRate)
        guard fc != self.cutoff else { return }
        self.cutoff = fc
        (b0, b1, b2, a1, a2) = Self.design(cutoff: fc, sampleRate: sampleRate)
    }

    /// The Butterworth low-pass's coefficients (b0, b1, b2, a1, a2; a0 = 1) for `cutoff` Hz at
    /// `sampleRate` Hz.
    static func design(cutoff: Double, sampleRate: Double) -> (Double, Double, Double, Double, Double) {
        let w0 = 2 * Double.pi * cutoff / sampleRate
        let alpha = sin(w0) / (2 * 0.5.squareRoot())
        let c = cos(w0)
        let a0 = 1 + alpha
        return ((1 - c) / 2 / a0, (1 - c) / a0, (1 - c) / 2 / a0, -2 * c / a0, (1 - alpha) / a0)
    }

    /// Filters `count` samples from `input` into `output` forward then backward
    /// (`output` may equal `input`), each pass in double from the DC steady state of its
    /// first sample (`spv_biquad_pass`).
    public func apply(_ input: UnsafePointer<Float>, _ output: UnsafeMutablePointer<Float>, count: Int) {
        guard count > 0 else { return }
        withUnsafeTemporaryAllocation(of: Double.self, capacity: 5) { c in
            c[0] = b0; c[1] = b1; c[2] = b2; c[3] = a1; c[4] = a2
            spv_biquad_pass(input, output, Int32(count), 1, c.baseAddress!)
            spv_biquad_pass(output + (count - 1), output + (count - 1), Int32(count), -1, c.baseAddress!)
        }
    }
}
