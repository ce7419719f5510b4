import CKernels
import SpecvizCore

#if canImport(Glibc)
import Glibc
#endif

/// The lag-domain functions both pitch estimators read, for one analysis window of `size`
/// samples (seed 004 §6 "time-domain core", seed 000 Part 4):
///
/// - `acf[τ]` = Σ_{i<N−τ} x[i]·x[i+τ], the raw autocorrelation over the overlap, computed
///   as the inverse transform of the zero-padded power spectrum (Wiener–Khinchin on a 2N
///   transform, so no circular wrap). Only the raw ACF comes from the spectrum; every
///   normalisation below is per lag, so harmonics are not exaggerated (the seed 000 lesson).
/// - `pearson[τ]` = acf[τ] / √(E1(τ)·E2(τ)), with E1/E2 the energies of the two overlapping
///   segments, kept as prefix sums (the incremental energy update of seed 000).
/// - `cmnd[τ]`: YIN's cumulative-mean-normalised difference (de Cheveigné & Kawahara 2002),
///   on d(τ) = (E1 + E2 − 2·acf[τ]) / (N − τ): the seed's E1 + E2 − 2R, divided by the
///   overlap length so that the shrinking overlap does not favour long lags.
///
/// All storage is allocated at construction; `analyse` does not allocate.
public final class LagAnalysis {
    /// Window length N (samples).
    public let size: Int
    /// Largest lag computed (samples), < N.
    public let maxLag: Int
    private let fft: RealFFT
    private let padded: OwnedBuffer<Float>
    private let re: OwnedBuffer<Float>
    private let im: OwnedBuffer<Float>
    /// Prefix sums of x²: prefix[i] = Σ_{j<i} x[j]², i = 0…N.
    public let prefix: OwnedBuffer<Double>
    /// Raw autocorrelation for τ = 0…maxLag.
    public let acf: OwnedBuffer<Float>
    /// Pearson-normalised autocorrelation for τ = 0…maxLag (range −1…1).
    public let pearson: OwnedBuffer<Float>
    /// YIN CMND for τ = 0…maxLag (cmnd[0] = 1).
    public let cmnd: OwnedBuffer<Float>
    /// Overlap-normalised difference d(τ) (mean square), τ = 0…maxLag.
    public let diff: OwnedBuffer<Float>
    /// `diff` before rounding to single precision (the CMND's running sum).
    private let diffD: OwnedBuffer<Double>
    /// The analysed window (a copy, for exact refinement).
    public let window: OwnedBuffer<Float>

    /// - Parameters:
    ///   - size: window length N in samples (a power of two).
    ///   - maxLag: longest lag to analyse, < N.
    public init(size: Int, maxLag: Int) {
        precondition(size & (size - 1) == 0 && maxLag < size)
        self.size = size
        self.maxLag = maxLag
        fft = RealFFT(size: 2 * size)
        padded = OwnedBuffer(zeroed: 2 * size)
        re = OwnedBuffer(zeroed: size + 1)
        im = OwnedBuffer(zeroed: size + 1)
        prefix = OwnedBuffer(zeroed: size + 1)
        acf = OwnedBuffer(zeroed: maxLag + 1)
        pearson = OwnedBuffer(zeroed: maxLag + 1)
        cmnd = OwnedBuffer(zeroed: maxLag + 1)
        diff = OwnedBuffer(zeroed: maxLag + 1)
        diffD = OwnedBuffer(zeroed: maxLag + 1)
        window = OwnedBuffer(zeroed: size)
    }

    /// Total energy Σ x² of the window.
    public var energy: Double { prefix[size] }
    /// Sum Σ x of the window (its DC content).
    public private(set) var sum = 0.0
    /// Energy without the window's mean: Σ (x − mean)².
    public var acEnergy: Double { max(0, energy - sum * sum / Double(size)) }

    /// Whether `acf`, `pearson`, `cmnd` and `diff` belong to the loaded window.
    public private(set) var lagsReady = false

    /// Analyses `x` (N samples): `load` then `computeLags`. Does not allocate.
    public func analyse(_ x: UnsafePointer<Float>) {
        load(x)
        computeLags()
    }

    /// Copies `x` (N samples) and computes its energies (cheap); the lag functions wait for
    /// `computeLags` (the detector needs them only on some paths). Does not allocate.
    public func load(_ x: UnsafePointer<Float>) {
        sum = spv_load_window(x, Int32(size), window.base, prefix.base)
        lagsReady = false
        pearsonReady = false
    }

    /// Whether `pearson` belongs to the loaded window.
    public private(set) var pearsonReady = false

    /// The Pearson normalisation r(τ) = acf(τ)/√(E1·E2) (after `computeLags`; no-op when
    /// already computed). Does not allocate.
    public func computePearson() {
        guard lagsReady, !pearsonReady else { return }
        pearsonReady = true
        let n = size, acc = prefix[n], m = maxLag
        pearson[0] = acc > 0 ? 1 : 0
        spv_lag_pearson(prefix.base, acf.base, Int32(n), Int32(m), pearson.base)
    }

    /// The lag functions of the loaded window (no-op when already computed). Does not allocate.
    /// `withPearson: false` leaves `pearson` stale until `computePearson` (YIN reads only
    /// `cmnd` and `diff`).
    public func computeLags(withPearson: Bool = true) {
        defer { if withPearson { computePearson() } }
        guard !lagsReady else { return }
        lagsReady = true
        pearsonReady = false
        let n = size
        padded.base.update(from: window.base, count: n)
        (padded.base + n).update(repeating: 0, count: n)
        // Power spectrum, then its (real, even) inverse transform = forward transform / 2N.
        fft.forward(padded.base, re: re.base, im: im.base)
        spv_power_even(re.base, im.base, Int32(n), padded.base)
        fft.forward(padded.base, re: re.base, im: im.base)
        let scale = 1 / Float(2 * n)
        for t in 0...maxLag { acf[t] = re[t] * scale }

        // Per-lag normalisations (CKernels, 4 lags at a time in double); the running
        // sum for the CMND is sequential, its division is not.
        cmnd[0] = 1
        diff[0] = 0
        spv_lag_difference(prefix.base, acf.base, Int32(n), Int32(maxLag), diff.base, diffD.base, cmnd.base)
    }

    /// The difference function normalised by twice the window's mean square (0 = identical
    /// segments, ≈ 1 = unrelated): its minimum within ±`radius` lags of `lag`.
    public func normalizedDifference(near lag: Int, radius: Int = 2) -> Double {
        let ms = energy / Double(size)
        guard ms > 0 else { return 1 }
        var best = Float.infinity
        for t in max(1, lag - radius)...min(maxLag, lag + radius) { best = min(best, diff[t]) }
        return Double(best) / (2 * ms)
    }

    /// The true period when `lag` is only a fraction of it: among 2·lag, 3·lag and 4·lag, the
    /// multiple whose difference is lowest, if lower than at `lag` by more than `margin`
    /// (normalised); otherwise 1. For a true period all multiples are equal, or longer lags
    /// are worse (decay, vibrato, noise); a lower one means partials that `lag` cannot
    /// explain (a weak or missing fundamental leaves its first dip at T/2 or T/3).
    public func periodMultiple(of lag: Int, margin: Double = 0.04) -> Int {
        let base = normalizedDifference(near: lag, radius: 1)
        var best = 1, bestValue = base - margin
        for k in 2...4 where k * lag + 2 <= maxLag {
            let v = normalizedDifference(near: k * lag)
            if v < bestValue - 1e-9 { best = k; bestValue = v }
        }
        return best
    }

    /// `periodMultiple(of:)` computed directly (time domain) on another window `x` of `size`
    /// samples: the tracker passes the rumble-free (150 Hz high-passed) window, so that
    /// low-frequency noise, whose own slow correlation changes the difference function by
    /// more than the margin, cannot fake a longer period. Does not allocate.
    public static func periodMultiple(
        in x: UnsafePointer<Float>, size n: Int, lag: Int, maxLag: Int,
        margin: Double = 0.04
    ) -> Int {
        let e = energy(x, n)
        guard e > 0, 2 * lag + 2 <= maxLag else { return 1 }
        let scale = 1 / (2 * e / Double(n))
        let base = minDifference(x, n, center: lag, radius: 1, maxLag: maxLag) * scale
        var best = 1, bestValue = base - margin
        for k in 2...4 where k * lag + 2 <= maxLag {
            let v = minDifference(x, n, center: k * lag, radius: 2, maxLag: maxLag) * scale
            if v < bestValue - 1e-9 { best = k; bestValue = v }
        }
        return best
    }

    /// The reverse check on window `x`: the largest divisor d of 2…4 for which lag/d
    /// (≥ `minLag`) is as good a period as `lag` (difference within `slack`), else 1.
    /// A raw window full of rumble can hide the first dip at T and show it at 2T; on the
    /// rumble-free window, T is then as periodic as 2T, and the shorter period wins (YIN's
    /// own principle). The slack is smaller than `periodMultiple`'s margin, so the two
    /// checks cannot undo each other. Does not allocate.
    /// `maxDivisor` (default 4) extends the divisors tried (from the largest down).
    public static func periodDivisor(
        in x: UnsafePointer<Float>, size n: Int, lag: Int, minLag: Int, maxLag: Int,
        slack: Double = 0.02, maxDivisor: Int = 4
    ) -> Int {
        let e = energy(x, n)
        guard e > 0 else { return 1 }
        let scale = 1 / (2 * e / Double(n))
        let base = minDifference(x, n, center: lag, radius: 1, maxLag: maxLag) * scale
        for d in stride(from: maxDivisor, through: 2, by: -1) where lag / d >= minLag {
            let v = minDifference(x, n, center: lag / d, radius: 1 + 2 / d, maxLag: maxLag) * scale
            if v < base + slack { return d }
        }
        return 1
    }

    /// Minimum over lags center ± radius of the overlap-normalised difference of `x`
    /// (CKernels: 8 single-precision lanes of squared differences, summed in double per
    /// 64 samples).
    private static func minDifference(_ x: UnsafePointer<Float>, _ n: Int, center: Int, radius: Int, maxLag: Int) -> Double {
        spv_min_difference(x, Int32(n), Int32(max(1, center - radius)), Int32(min(maxLag, center + radius)))
    }

    /// Σ x² of `n` samples (double accumulation per 64).
    static func energy(_ x: UnsafePointer<Float>, _ n: Int) -> Double { spv_energy(x, Int32(n)) }

    /// True when `lag` is a fraction of the period (see `periodMultiple`).
    public func isHalfPeriod(_ lag: Int, margin: Double = 0.04) -> Bool { periodMultiple(of: lag, margin: margin) > 1 }

    /// Exact overlap-normalised difference at an integer lag, in double precision straight
    /// from the window (the FFT path is single precision). Does not allocate.
    public func exactDifference(_ lag: Int) -> Double {
        let m = size - lag
        var s = 0.0
        window.base.withMemoryRebound(to: Float.self, capacity: size) { w in
            var i = 0
            var a0 = 0.0, a1 = 0.0
            while i + 1 < m {
                let d0 = Double(w[i] - w[i + lag]), d1 = Double(w[i + 1] - w[i + 1 + lag])
                a0 += d0 * d0; a1 += d1 * d1
                i += 2
            }
            if i < m { let d = Double(w[i] - w[i + lag]); a0 += d * d }
            s = a0 + a1
        }
        return s / Double(m)
    }
}
