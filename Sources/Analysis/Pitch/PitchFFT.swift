#if canImport(Glibc)
import Glibc
#endif

/// The real-input FFT of the pitch detector's lag analysis: the same transform and packing as
/// `RealFFT` (an `n/2`-point complex radix-2 FFT of the even/odd-packed input, then the split
/// step), with the butterflies written for speed: the first two stages without
/// multiplications, later stages with per-stage contiguous twiddles and 8-wide SIMD.
/// The lag analysis runs 2–6 of these 4096-point transforms per hop, most of the tuner's
/// cost before (issue 19). Allocates only at construction. Not thread-safe.
public final class PitchFFT {
    public let size: Int
    private let half: Int
    private let bitReverse: UnsafeMutablePointer<Int32>
    /// Twiddles of the stage with half-length h at [h, 2h): e^(−πik/h), k < h.
    private let twRe: UnsafeMutablePointer<Float>
    private let twIm: UnsafeMutablePointer<Float>
    private let splitRe: UnsafeMutablePointer<Float>
    private let splitIm: UnsafeMutablePointer<Float>
    private let zr: UnsafeMutablePointer<Float>
    private let zi: UnsafeMutablePointer<Float>

    /// - Parameter size: a power of two ≥ 32.
    public init(size: Int) {
        precondition(size >= 32 && size & (size - 1) == 0, "FFT size must be a power of two ≥ 32")
        self.size = size
        half = size / 2
        let log2Half = half.trailingZeroBitCount
        bitReverse = .allocate(capacity: half)
        twRe = .allocate(capacity: half)
        twIm = .allocate(capacity: half)
        splitRe = .allocate(capacity: half + 1)
        splitIm = .allocate(capacity: half + 1)
        zr = .allocate(capacity: half)
        zi = .allocate(capacity: half)
        for i in 0..<half {
            var r = 0, v = i
            for _ in 0..<log2Half { r = (r << 1) | (v & 1); v >>= 1 }
            bitReverse[i] = Int32(r)
        }
        twRe[0] = 1; twIm[0] = 0
        var h = 1
        while h < half {
            for k in 0..<h {
                // Same angle as RealFFT's strided table: −2π·(k·half/(2h))/half.
                let t = k * (half / (2 * h))
                let a = -2 * Double.pi * Double(t) / Double(half)
                twRe[h + k] = Float(cos(a)); twIm[h + k] = Float(sin(a))
            }
            h <<= 1
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

    /// One-sided spectrum of `input` (`size` real samples): `re[k]`, `im[k]` for
    /// k = 0 … size/2, unnormalised. Does not allocate.
    public func forward(_ input: UnsafePointer<Float>, re: UnsafeMutablePointer<Float>, im: UnsafeMutablePointer<Float>) {
        let half = self.half
        let zr = self.zr, zi = self.zi
        // Bit-reversed packing as a gather (sequential stores; the permutation is its own inverse).
        for j in 0..<half {
            let i = Int(bitReverse[j])
            zr[j] = input[2 * i]
            zi[j] = input[2 * i + 1]
        }
        // Stages 1 and 2 (twiddles 1 and −i) per group of four.
        var s = 0
        while s < half {
            // len 2
            let r0 = zr[s] + zr[s + 1], i0 = zi[s] + zi[s + 1]
            let r1 = zr[s] - zr[s + 1], i1 = zi[s] - zi[s + 1]
            let r2 = zr[s + 2] + zr[s + 3], i2 = zi[s + 2] + zi[s + 3]
            let r3 = zr[s + 2] - zr[s + 3], i3 = zi[s + 2] - zi[s + 3]
            // len 4: b = z2·1, z3·(−i) = (i3, −r3)
            zr[s] = r0 + r2; zi[s] = i0 + i2
            zr[s + 2] = r0 - r2; zi[s + 2] = i0 - i2
            zr[s + 1] = r1 + i3; zi[s + 1] = i1 - r3
            zr[s + 3] = r1 - i3; zi[s + 3] = i1 + r3
            s += 4
        }
        // Stage with half-length 4 (4-wide), then 8-wide.
        var h = 4
        if h < half {
            let wr = load4(twRe + h), wi = load4(twIm + h)
            var start = 0
            while start < half {
                let a = start, b = start + h
                let xr = load4(zr + b), xi = load4(zi + b)
                let br = xr * wr - xi * wi, bi = xr * wi + xi * wr
                let ar = load4(zr + a), ai = load4(zi + a)
                store4(ar - br, zr + b); store4(ai - bi, zi + b)
                store4(ar + br, zr + a); store4(ai + bi, zi + a)
                start += 8
            }
            h = 8
        }
        while h < half {
            var start = 0
            let len = 2 * h
            while start < half {
                var k = 0
                while k < h {
                    let wr = load8(twRe + h + k), wi = load8(twIm + h + k)
                    let a = start + k, b = a + h
                    let xr = load8(zr + b), xi = load8(zi + b)
                    let br = xr * wr - xi * wi, bi = xr * wi + xi * wr
                    let ar = load8(zr + a), ai = load8(zi + a)
                    store8(ar - br, zr + b); store8(ai - bi, zi + b)
                    store8(ar + br, zr + a); store8(ai + bi, zi + a)
                    k += 8
                }
                start += len
            }
            h <<= 1
        }
        re[0] = zr[0] + zi[0]; im[0] = 0
        re[half] = zr[0] - zi[0]; im[half] = 0
        // Split, 8 bins at a time (the mirrored bins read as a reversed vector); same
        // operations per bin as the scalar tail.
        var k = 1
        while k + 8 <= half {
            let ar = load8(zr + k), ai = load8(zi + k)
            let br = reversed(load8(zr + half - k - 7)), bi = -reversed(load8(zi + half - k - 7))
            let er = 0.5 * (ar + br), ei = 0.5 * (ai + bi)
            let dr = 0.5 * (ar - br), di = 0.5 * (ai - bi)
            let wr = load8(splitRe + k), wi = load8(splitIm + k)
            let tr = wr * dr - wi * di, ti = wr * di + wi * dr
            store8(er + ti, re + k)
            store8(ei - tr, im + k)
            k += 8
        }
        while k < half {
            let ar = zr[k], ai = zi[k]
            let br = zr[half - k], bi = -zi[half - k]
            let er = 0.5 * (ar + br), ei = 0.5 * (ai + bi)
            let dr = 0.5 * (ar - br), di = 0.5 * (ai - bi)
            let wr = splitRe[k], wi = splitIm[k]
            let tr = wr * dr - wi * di, ti = wr * di + wi * dr
            re[k] = er + ti
            im[k] = ei - tr
            k += 1
        }
    }

    @inline(__always) private func reversed(_ v: SIMD8<Float>) -> SIMD8<Float> {
        SIMD8(v[7], v[6], v[5], v[4], v[3], v[2], v[1], v[0])
    }
    @inline(__always) private func load4(_ p: UnsafeMutablePointer<Float>) -> SIMD4<Float> {
        UnsafeRawPointer(p).loadUnaligned(as: SIMD4<Float>.self)
    }
    @inline(__always) private func store4(_ v: SIMD4<Float>, _ p: UnsafeMutablePointer<Float>) {
        UnsafeMutableRawPointer(p).storeBytes(of: v, as: SIMD4<Float>.self)
    }
    @inline(__always) private func load8(_ p: UnsafeMutablePointer<Float>) -> SIMD8<Float> {
        UnsafeRawPointer(p).loadUnaligned(as: SIMD8<Float>.self)
    }
    @inline(__always) private func store8(_ v: SIMD8<Float>, _ p: UnsafeMutablePointer<Float>) {
        UnsafeMutableRawPointer(p).storeBytes(of: v, as: SIMD8<Float>.self)
    }
}
