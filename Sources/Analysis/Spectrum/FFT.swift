#if canImport(Glibc)
import Glibc
#endif

/// A real-input FFT of a power-of-two size `n`, computed as an `n/2`-point complex
/// radix-2 FFT of the even/odd-packed input followed by the split step
/// (the same packing vDSP's `fft_zrip` uses, seed 000 Part 1 stages 2–3).
///
/// All tables and scratch are allocated at construction; `forward` allocates nothing.
/// Not thread-safe: give each thread its own instance.
public final class RealFFT {
    /// Transform size (samples).
    public let size: Int
    private let half: Int
    private let log2Half: Int
    private let bitReverse: UnsafeMutablePointer<Int32>
    /// Twiddles e^(−2πik/half) for the complex FFT, k < half/2.
    private let twRe: UnsafeMutablePointer<Float>
    private let twIm: UnsafeMutablePointer<Float>
    /// Twiddles e^(−2πik/n) for the split step, k ≤ half.
    private let splitRe: UnsafeMutablePointer<Float>
    private let splitIm: UnsafeMutablePointer<Float>
    private let zr: UnsafeMutablePointer<Float>
    private let zi: UnsafeMutablePointer<Float>

    /// - Parameter size: a power of two ≥ 4.
    public init(size: Int) {
        precondition(size >= 4 && size & (size - 1) == 0, "FFT size must be a power of two ≥ 4")
        self.size = size
        half = size / 2
        log2Half = half.trailingZeroBitCount
        bitReverse = .allocate(capacity: half)
        twRe = .allocate(capacity: max(half / 2, 1))
        twIm = .allocate(capacity: max(half / 2, 1))
        splitRe = .allocate(capacity: half + 1)
        splitIm = .allocate(capacity: half + 1)
        zr = .allocate(capacity: half)
        zi = .allocate(capacity: half)
        for i in 0..<half {
            var r = 0, v = i
            for _ in 0..<log2Half { r = (r << 1) | (v & 1); v >>= 1 }
            bitReverse[i] = Int32(r)
        }
        for k in 0..<max(half / 2, 1) {
            let a = -2 * Double.pi * Double(k) / Double(half)
            twRe[k] = Float(cos(a)); twIm[k] = Float(sin(a))
        }
        for k in 0...half {
            let a = -2 * Double.pi * Double(k) / Double(size)
            splitRe[k] = Float(cos(a)); splitIm[k] = Float(sin(a))
        }
    }

    deinit {
        bitReverse.deallocate(); twRe.deallocate(); twIm.deallocate()
        splitRe.deallocate(); splitIm.deallocate(); zr.deallocate(); zi.deallocate()
    }

    /// Transforms `input` (`size` real samples) into the one-sided spectrum:
    /// `re[k]`, `im[k]` for k = 0 … size/2 (`size/2 + 1` bins each), unnormalised
    /// (X[k] = Σ x[n]·e^(−2πikn/N)). Does not allocate.
    public func forward(_ input: UnsafePointer<Float>, re: UnsafeMutablePointer<Float>, im: UnsafeMutablePointer<Float>) {
        // Pack even/odd samples into a half-size complex sequence, bit-reversed.
        for i in 0..<half {
            let j = Int(bitReverse[i])
            zr[j] = input[2 * i]
            zi[j] = input[2 * i + 1]
        }
        // Iterative radix-2 butterflies.
        var len = 2
        var twStep = half / 2
        while len <= half {
            let h = len / 2
            var start = 0
            while start < half {
                var t = 0
                for k in 0..<h {
                    let wr = twRe[t], wi = twIm[t]
                    let a = start + k, b = a + h
                    let br = zr[b] * wr - zi[b] * wi
                    let bi = zr[b] * wi + zi[b] * wr
                    zr[b] = zr[a] - br; zi[b] = zi[a] - bi
                    zr[a] += br; zi[a] += bi
                    t += twStep
                }
                start += len
            }
            len <<= 1
            twStep >>= 1
        }
        // Split: X[k] = (Z[k] + Z*[h−k])/2 − i/2 · W^k · (Z[k] − Z*[h−k]).
        re[0] = zr[0] + zi[0]; im[0] = 0
        re[half] = zr[0] - zi[0]; im[half] = 0
        if half > 1 {
            for k in 1..<half {
                let ar = zr[k], ai = zi[k]
                let br = zr[half - k], bi = -zi[half - k]
                let er = 0.5 * (ar + br), ei = 0.5 * (ai + bi)
                let dr = 0.5 * (ar - br), di = 0.5 * (ai - bi)
                // −i · W · d
                let wr = splitRe[k], wi = splitIm[k]
                let tr = wr * dr - wi * di, ti = wr * di + wi * dr
                re[k] = er + ti
                im[k] = ei - tr
            }
        }
    }
}
