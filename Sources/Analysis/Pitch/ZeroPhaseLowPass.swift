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
        let w0 = 2 * Double.pi * fc / sampleRate
        let alpha = sin(w0) / (2 * 0.5.squareRoot())
        let c = cos(w0)
        let a0 = 1 + alpha
        b0 = (1 - c) / 2 / a0
        b1 = (1 - c) / a0
        b2 = b0
        a1 = -2 * c / a0
        a2 = (1 - alpha) / a0
    }

    /// Filters `count` samples from `input` into `output` forward then backward
    /// (`output` may equal `input`).
    public func apply(_ input: UnsafePointer<Float>, _ output: UnsafeMutablePointer<Float>, count: Int) {
        guard count > 0 else { return }
        // Forward pass (direct form I), state at the DC steady state of the first sample.
        let dcGain = (b0 + b1 + b2) / (1 + a1 + a2)
        var x1 = Double(input[0]), x2 = x1, y1 = x1 * dcGain, y2 = y1
        for i in 0..<count {
            let x = Double(input[i])
            // y[n−2]'s term first: it is known a sample early, so the chain from one output
            // to the next is a multiply and a subtraction.
            let y = b0 * x + b1 * x1 + b2 * x2 - a2 * y2 - a1 * y1
            x2 = x1; x1 = x; y2 = y1; y1 = y
            output[i] = Float(y)
        }
        // Backward pass.
        x1 = Double(output[count - 1]); x2 = x1; y1 = x1 * dcGain; y2 = y1
        var i = count - 1
        while i >= 0 {
            let x = Double(output[i])
            let y = b0 * x + b1 * x1 + b2 * x2 - a2 * y2 - a1 * y1
            x2 = x1; x1 = x; y2 = y1; y1 = y
            output[i] = Float(y)
            i -= 1
        }
    }
}
