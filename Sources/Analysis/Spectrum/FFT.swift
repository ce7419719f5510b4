import CKernels
import SpecvizCore

#if canImport(Glibc)
import Glibc
#endif

/// A real-input FFT of a power-of-two size `n`, computed as an `n/2`-point complex
/// radix-2 FFT of the even/odd-packed input followed by the split step
/// (the same packing vDSP's `fft_zrip` uses, seed 000 Part 1 stages 2–3).
///
/// The one FFT of the package: spectrum, bass, onsets and the pitch detector's lag analysis
/// (which once had its own copy, PitchFFT; its gather packing and 8-wide stages and split
/// are merged in here, issue 19). All tables and scratch are allocated at construction;
/// `forward` allocates nothing.
/// Not thread-safe: give each thread its own instance.
public final class RealFFT {
    /// Transform size (samples).
    public let size: Int
    private let half: Int
    private let log2Half: Int
    private let bitReverse: OwnedBuffer<Int32>
    /// Twiddles e^(−2πik/n) for the split step, k ≤ half.
    private let splitRe: OwnedBuffer<Float>
    private let splitIm: OwnedBuffer<Float>
    private let zr: OwnedBuffer<Float>
    private let zi: OwnedBuffer<Float>
    /// The Stockham path's second buffer (`spv_real_fft` takes it from 128 to 4096 points).
    private let yr: OwnedBuffer<Float>
    private let yi: OwnedBuffer<Float>
    /// Per-stage twiddles, contiguous: the stage of half-length h (butterfly span) keeps
    /// e^(−2πik/(2h)), k < h, at offset h − 1 (so the inner loop runs over SIMD4 lanes).
    private let stageRe: OwnedBuffer<Float>
    private let stageIm: OwnedBuffer<Float>

    /// - Parameter size: a power of two ≥ 4.
    public init(size: Int) {
        precondition(size >= 4 && size & (size - 1) == 0, "FFT size must be a power of two ≥ 4")
        self.size = size
        half = size / 2
        log2Half = half.trailingZeroBitCount
        bitReverse = OwnedBuffer(zeroed: half)
        splitRe = OwnedBuffer(zeroed: half + 1)
        splitIm = OwnedBuffer(zeroed: half + 1)
        zr = OwnedBuffer(zeroed: half)
        zi = OwnedBuffer(zeroed: half)
        yr = OwnedBuffer(zeroed: half)
        yi = OwnedBuffer(zeroed: half)
        stageRe = OwnedBuffer(zeroed: max(half, 1))
        stageIm = OwnedBuffer(zeroed: max(half, 1))
        var h = 1
        while h < half {
            for k in 0..<h {
                let a = -Double.pi * Double(k) / Double(h)
                stageRe[h - 1 + k] = Float(cos(a)); stageIm[h - 1 + k] = Float(sin(a))
            }
            h <<= 1
        }
        for i in 0..<half {
            var r = 0, v = i
            for _ in 0..<log2Half { r = (r << 1) | (v & 1); v >>= 1 }
            bitReverse[i] = Int32(r)
        }
        for k in 0...half {
            let a = -2 * Double.pi * Double(k) / Double(size)
            splitRe[k] = Float(cos(a)); splitIm[k] = Float(sin(a))
        }
    }

    /// Transforms `input` (`size` real samples) into the one-sided spectrum:
    /// `re[k]`, `im[k]` for k = 0 … size/2 (`size/2 + 1` bins each), unnormalised
    /// (X[k] = Σ x[n]·e^(−2πikn/N)). Does not allocate.
    public func forward(_ input: UnsafePointer<Float>, re: UnsafeMutablePointer<Float>, im: UnsafeMutablePointer<Float>) {
        // The passes run in CKernels (AVX2 or the baseline, chosen by CPUID): the even/odd
        // samples as a half-size complex sequence, its radix-2 stages eight butterflies at
        // a time with each stage's contiguous twiddles (Stockham from 128 to 4096 points,
        // else after a bit-reversed gather), and the split into the one-sided spectrum.
        spv_real_fft(
            input, re, im, Int32(half), bitReverse.base, zr.base, zi.base, yr.base, yi.base,
            stageRe.base, stageIm.base, splitRe.base, splitIm.base)
    }
}
