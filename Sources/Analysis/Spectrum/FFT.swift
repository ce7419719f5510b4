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
        // Pack even/odd samples into a half-size complex sequence, bit-reversed, as a
        // gather (sequential stores; the permutation is its own inverse).
        for j in 0..<half {
            let i = Int(bitReverse[j])
            zr[j] = input[2 * i]
            zi[j] = input[2 * i + 1]
        }
        // Iterative radix-2 butterflies; spans of 4 and more run four butterflies at a
        // time on SIMD4 lanes with the stage's contiguous twiddles.
        var h = 1
        if half >= 4 {
            // The first two stages as one radix-4 pass (twiddles 1 and −i).
            var s = 0
            while s < half {
                let s01r = zr[s] + zr[s + 1], s01i = zi[s] + zi[s + 1]
                let d01r = zr[s] - zr[s + 1], d01i = zi[s] - zi[s + 1]
                let s23r = zr[s + 2] + zr[s + 3], s23i = zi[s + 2] + zi[s + 3]
                let d23r = zr[s + 2] - zr[s + 3], d23i = zi[s + 2] - zi[s + 3]
                zr[s] = s01r + s23r; zi[s] = s01i + s23i
                zr[s + 2] = s01r - s23r; zi[s + 2] = s01i - s23i
                // −i·d23 = (d23i, −d23r)
                zr[s + 1] = d01r + d23i; zi[s + 1] = d01i - d23r
                zr[s + 3] = d01r - d23i; zi[s + 3] = d01i + d23r
                s += 4
            }
            h = 4
        }
        while h < half {
            let len = 2 * h
            if h < 4 {
                let tr = stageRe.base + (h - 1), ti = stageIm.base + (h - 1)
                var start = 0
                while start < half {
                    for k in 0..<h {
                        let wr = tr[k], wi = ti[k]
                        let a = start + k, b = a + h
                        let br = zr[b] * wr - zi[b] * wi
                        let bi = zr[b] * wi + zi[b] * wr
                        zr[b] = zr[a] - br; zi[b] = zi[a] - bi
                        zr[a] += br; zi[a] += bi
                    }
                    start += len
                }
            } else {
                // Eight (or, in the stage of 4, four) butterflies at a time.
                let tr = UnsafeRawPointer(stageRe.base + (h - 1)), ti = UnsafeRawPointer(stageIm.base + (h - 1))
                let xr = UnsafeMutableRawPointer(zr.base), xi = UnsafeMutableRawPointer(zi.base)
                if h >= 8 {
                    Self.butterflies(SIMD8<Float>.self, h: h, half: half, len: len, tr: tr, ti: ti, xr: xr, xi: xi)
                } else {
                    Self.butterflies(SIMD4<Float>.self, h: h, half: half, len: len, tr: tr, ti: ti, xr: xr, xi: xi)
                }
            }
            h = len
        }
        // Split: X[k] = (Z[k] + Z*[h−k])/2 − i/2 · W^k · (Z[k] − Z*[h−k]).
        re[0] = zr[0] + zi[0]; im[0] = 0
        re[half] = zr[0] - zi[0]; im[half] = 0
        if half > 1 {
            // Four bins at a time; Z*[h−k] read backwards and its lanes reversed.
            var k = 1
            let xr = UnsafeRawPointer(zr.base), xi = UnsafeRawPointer(zi.base)
            let sr = UnsafeRawPointer(splitRe.base), si = UnsafeRawPointer(splitIm.base)
            let outR = UnsafeMutableRawPointer(re), outI = UnsafeMutableRawPointer(im)
            // Eight bins at a time first (same operations per bin as the narrower loops).
            while k + 8 <= half {
                let ar = xr.loadUnaligned(fromByteOffset: 4 * k, as: SIMD8<Float>.self)
                let ai = xi.loadUnaligned(fromByteOffset: 4 * k, as: SIMD8<Float>.self)
                let rr = xr.loadUnaligned(fromByteOffset: 4 * (half - k - 7), as: SIMD8<Float>.self)
                let ri = xi.loadUnaligned(fromByteOffset: 4 * (half - k - 7), as: SIMD8<Float>.self)
                let br = SIMD8(rr[7], rr[6], rr[5], rr[4], rr[3], rr[2], rr[1], rr[0])
                let bi = -SIMD8(ri[7], ri[6], ri[5], ri[4], ri[3], ri[2], ri[1], ri[0])
                let er = 0.5 * (ar + br), ei = 0.5 * (ai + bi)
                let dr = 0.5 * (ar - br), di = 0.5 * (ai - bi)
                let wr = sr.loadUnaligned(fromByteOffset: 4 * k, as: SIMD8<Float>.self)
                let wi = si.loadUnaligned(fromByteOffset: 4 * k, as: SIMD8<Float>.self)
                let tr = wr * dr - wi * di, ti = wr * di + wi * dr
                outR.storeBytes(of: er + ti, toByteOffset: 4 * k, as: SIMD8<Float>.self)
                outI.storeBytes(of: ei - tr, toByteOffset: 4 * k, as: SIMD8<Float>.self)
                k += 8
            }
            while k + 3 <= half - 1 && half >= 8 {
                let ar = xr.loadUnaligned(fromByteOffset: 4 * k, as: SIMD4<Float>.self)
                let ai = xi.loadUnaligned(fromByteOffset: 4 * k, as: SIMD4<Float>.self)
                let rr = xr.loadUnaligned(fromByteOffset: 4 * (half - k - 3), as: SIMD4<Float>.self)
                let ri = xi.loadUnaligned(fromByteOffset: 4 * (half - k - 3), as: SIMD4<Float>.self)
                let br = SIMD4(rr[3], rr[2], rr[1], rr[0]), bi = -SIMD4(ri[3], ri[2], ri[1], ri[0])
                let er = 0.5 * (ar + br), ei = 0.5 * (ai + bi)
                let dr = 0.5 * (ar - br), di = 0.5 * (ai - bi)
                let wr = sr.loadUnaligned(fromByteOffset: 4 * k, as: SIMD4<Float>.self)
                let wi = si.loadUnaligned(fromByteOffset: 4 * k, as: SIMD4<Float>.self)
                let tr = wr * dr - wi * di, ti = wr * di + wi * dr
                outR.storeBytes(of: er + ti, toByteOffset: 4 * k, as: SIMD4<Float>.self)
                outI.storeBytes(of: ei - tr, toByteOffset: 4 * k, as: SIMD4<Float>.self)
                k += 4
            }
            while k < half {
                let ar = zr[k], ai = zi[k]
                let br = zr[half - k], bi = -zi[half - k]
                let er = 0.5 * (ar + br), ei = 0.5 * (ai + bi)
                let dr = 0.5 * (ar - br), di = 0.5 * (ai - bi)
                // −i · W · d
                let wr = splitRe[k], wi = splitIm[k]
                let tr = wr * dr - wi * di, ti = wr * di + wi * dr
                re[k] = er + ti
                im[k] = ei - tr
                k += 1
            }
        }
    }

    /// One radix-2 stage on `V`-wide lanes: butterflies (a, b) = (a + w·b, a − w·b) for the
    /// h = `len`/2 pairs of every block, twiddles `tr`/`ti`, data `xr`/`xi` (split complex).
    @inline(__always)
    private static func butterflies<V: SIMD>(
        _: V.Type, h: Int, half: Int, len: Int, tr: UnsafeRawPointer, ti: UnsafeRawPointer,
        xr: UnsafeMutableRawPointer, xi: UnsafeMutableRawPointer
    ) where V.Scalar == Float {
        var start = 0
        while start < half {
            var k = 0
            while k < h {
                let wr = tr.loadUnaligned(fromByteOffset: 4 * k, as: V.self)
                let wi = ti.loadUnaligned(fromByteOffset: 4 * k, as: V.self)
                let oa = 4 * (start + k), ob = oa + 4 * h
                let ar = xr.loadUnaligned(fromByteOffset: oa, as: V.self)
                let ai = xi.loadUnaligned(fromByteOffset: oa, as: V.self)
                let rr = xr.loadUnaligned(fromByteOffset: ob, as: V.self)
                let ri = xi.loadUnaligned(fromByteOffset: ob, as: V.self)
                let br = rr * wr - ri * wi
                let bi = rr * wi + ri * wr
                xr.storeBytes(of: ar - br, toByteOffset: ob, as: V.self)
                xi.storeBytes(of: ai - bi, toByteOffset: ob, as: V.self)
                xr.storeBytes(of: ar + br, toByteOffset: oa, as: V.self)
                xi.storeBytes(of: ai + bi, toByteOffset: oa, as: V.self)
                k += V.scalarCount
            }
            start += len
        }
    }
}
