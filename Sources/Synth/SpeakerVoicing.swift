#if canImport(Glibc)
import Glibc
#endif

/// Speaker voicing of seed 004 §8: a 4th-order Linkwitz–Riley high-pass at 140 Hz, made of
/// two cascaded 2nd-order Butterworth high-pass biquads (Q = 1/√2 each), so the response is
/// −6 dB at the cutoff and falls at 24 dB/octave below it. It keeps deep sub-bass (which
/// drives small speakers into cone-excursion distortion) out, while the 2nd and 3rd
/// harmonics of bass notes still pass.
///
/// Biquad coefficients from R. Bristow-Johnson, "Cookbook formulae for audio EQ biquad
/// filter coefficients" (HPF). Transposed direct form II in `Double` (the poles sit close
/// to z = 1 at 140 Hz / 48 kHz). A value type; does not allocate.
public struct SpeakerVoicing: Sendable {
    /// Crossover frequency (Hz).
    public static let defaultCutoff: Double = 140

    struct Biquad: Sendable {
        var b0 = 1.0, b1 = 0.0, b2 = 0.0, a1 = 0.0, a2 = 0.0
        var z1 = 0.0, z2 = 0.0
        @inline(__always)
        mutating func process(_ x: Double) -> Double {
            let y = b0 * x + z1
            z1 = b1 * x - a1 * y + z2
            z2 = b2 * x - a2 * y
            return y
        }
    }

    var first = Biquad()
    var second = Biquad()
    /// The cutoff (Hz).
    public let cutoff: Double

    /// A high-pass at `cutoff` (Hz) for `sampleRate` (Hz).
    public init(cutoff: Double = SpeakerVoicing.defaultCutoff, sampleRate: Double) {
        self.cutoff = cutoff
        let w0 = 2 * Double.pi * cutoff / sampleRate
        let alpha = sin(w0) / (2 * 0.5.squareRoot())
        let c = cos(w0)
        let a0 = 1 + alpha
        var q = Biquad()
        q.b0 = (1 + c) / 2 / a0
        q.b1 = -(1 + c) / a0
        q.b2 = (1 + c) / 2 / a0
        q.a1 = -2 * c / a0
        q.a2 = (1 - alpha) / a0
        first = q
        second = q
    }

    /// Clears the filter state.
    public mutating func reset() {
        first.z1 = 0; first.z2 = 0; second.z1 = 0; second.z2 = 0
    }

    /// Filters one sample.
    public mutating func process(_ x: Float) -> Float {
        Float(second.process(first.process(Double(x))))
    }

    /// Filters a buffer in place. Does not allocate.
    public mutating func process(_ buffer: UnsafeMutableBufferPointer<Float>) {
        for i in buffer.indices { buffer[i] = process(buffer[i]) }
    }

    /// The analytic magnitude response (dB) at `frequency` (Hz): twice the Butterworth
    /// 2nd-order high-pass, 10·log10((f/fc)⁴ / (1 + (f/fc)⁴)) per section (analogue prototype).
    public static func analyticResponse(frequency: Double, cutoff: Double = defaultCutoff) -> Double {
        let r4 = pow(frequency / cutoff, 4)
        return 2 * 10 * log10(r4 / (1 + r4))
    }
}
