import CKernels
import SpecvizCore

#if canImport(Glibc)
import Glibc
#endif

/// The Spectral Harmonic Fingerprint (seed 004 §6): Goertzel probes of harmonics 2…8 of a
/// candidate f0 on a Hann-windowed copy of the analysis window.
///
/// Per harmonic: amplitude versus the mean of two reference probes half a semitone either
/// side (at least 2.5 bins away, outside the Hann main lobe); present when 3× above.
/// Probes within ±3 Hz of a 50 or 60 Hz multiple are discarded (more than three discarded
/// rejects the candidate). Decay check: a harmonic more than 2× the one below is a
/// violation; more than two reject. Composite score = 0.4·present/7 + 0.4·SNR term
/// + 0.2·(1 − violations/3)·present/7, where the SNR term is Σ min(ratio, 10) over present
/// harmonics divided by 35, clamped to 1. (The seed weights the decay term flatly; scaled by
/// the harmonics present it no longer hands 0.2 to noise with no harmonics at all.) The rescue adds 0.06 per earlier frame (of the last 8) that
/// chose the same MIDI note, at most 0.25, and accepts at 0.35.
/// All storage at construction; nothing here allocates.
public final class HarmonicFingerprint {
    /// Evidence for one candidate.
    public struct Evidence: Sendable, Equatable, BitwiseCopyable {
        /// Harmonics 2…8 found 3× above their reference band.
        public var present: Int
        /// Composite score 0…1 (without persistence).
        public var score: Double
        /// Rejected by the mains or decay rules.
        public var rejected: Bool
        /// Bit h set when harmonic h (2…8) is present.
        public var mask: Int = 0

        /// Only even harmonics present (at least two): the candidate is an octave below the
        /// note, whose own harmonics are the even ones found here.
        public var looksOctaveLow: Bool {
            let odd = mask & ((1 << 3) | (1 << 5) | (1 << 7))
            let even =
                (mask & (1 << 2) != 0 ? 1 : 0) + (mask & (1 << 4) != 0 ? 1 : 0)
                + (mask & (1 << 6) != 0 ? 1 : 0) + (mask & (1 << 8) != 0 ? 1 : 0)
            return odd == 0 && even >= 2
        }
    }

    public let size: Int
    public let sampleRate: Double
    private let hann: OwnedBuffer<Float>
    private let buffer: OwnedBuffer<Float>
    private let history: OwnedBuffer<Int>
    private var historyIndex = 0

    public init(size: Int, sampleRate: Double) {
        self.size = size
        self.sampleRate = sampleRate
        hann = OwnedBuffer(zeroed: size)
        buffer = OwnedBuffer(zeroed: size)
        half = OwnedBuffer(zeroed: size / 2)
        quarter = OwnedBuffer(zeroed: size / 4)
        history = OwnedBuffer(count: 8, repeating: -1)
        for i in 0..<size { hann[i] = Float(0.5 - 0.5 * cos(2 * Double.pi * Double(i) / Double(size))) }
    }

    /// Loads a window (`size` samples) for the following probes.
    public func load(_ x: UnsafePointer<Float>) {
        for i in 0..<size { buffer[i] = x[i] * hann[i] }
        decimated = 0
    }

    /// The windowed buffer at 1/2 and 1/4 of the rate (`half`, `quarter`), made on the first
    /// probe that can use them. The resonators' cost is per sample: probes that all lie
    /// below 0.2 (0.1) of the rate run on the shorter buffers, over the same span of time
    /// (so with the same resolution). The half-band low-pass is flat to ±0.05 dB there and
    /// rejects what would fold onto it by 70 dB; the presence and decay tests compare
    /// probes with each other, so the decimation's gain of ½ per stage cancels.
    private let half: OwnedBuffer<Float>
    private let quarter: OwnedBuffer<Float>
    private var decimated = 0
    /// Highest probe frequency, as a share of the rate, each buffer serves.
    static let halfLimit = 0.2, quarterLimit = 0.1

    private func decimate(to level: Int) {
        if decimated < 1 {
            spv_decimate2(buffer.base, Int32(size), HalfBand.taps.base, Int32(HalfBand.count), half.base)
            decimated = 1
        }
        if level >= 2 && decimated < 2 {
            spv_decimate2(half.base, Int32(size / 2), HalfBand.taps.base, Int32(HalfBand.count), quarter.base)
            decimated = 2
        }
    }

    /// True when `f` (Hz) lies within `tolerance` Hz of a multiple of 50 or 60 Hz (≤ 1.2 kHz).
    public static func isMains(_ f: Double, tolerance: Double = 3) -> Bool {
        for step in 0..<2 { // 50 and 60 Hz (no array literal: nothing here allocates)
            let base = step == 0 ? 50.0 : 60.0
            let k = (f / base).rounded()
            if k >= 1 && k <= 20 && abs(f - k * base) <= tolerance { return true }
        }
        return false
    }

    /// Whether a candidate f0 is mains hum: within 0.3 % (5 cents) of 50, 60, 100, 120, 150
    /// or 180 Hz. Grid frequency holds within ±0.2 %, and hum's harmonics are exact multiples
    /// of it, so a period found there is the hum (or, rarely, a note within 5 cents of it).
    public static func isMainsLike(_ f0: Double, tolerance: Double = 0.003) -> Bool {
        guard f0 < 190 else { return false }
        for step in 0..<2 {
            let base = step == 0 ? 50.0 : 60.0
            let k = (f0 / base).rounded()
            if k >= 1 && k <= 3 && abs(f0 - k * base) <= tolerance * f0 { return true }
        }
        return false
    }

    /// Probes harmonics 2…8 of `f0` (Hz). Harmonics above 0.45·rate count as absent.
    /// All probes (each harmonic and its two references, ≤ 21 resonators) run in one pass
    /// over the window, 24 SIMD lanes wide: the same recurrences as one Goertzel each.
    public func evaluate(f0: Double) -> Evidence {
        let binHz = sampleRate / Double(size)
        var mains = 0
        // Per harmonic h (slot h − 2): -1 = above the limit, 0 = mains, 1 = probed.
        var kind = SIMD8<Int>(repeating: -1)
        var fc = SIMD8<Double>(), fl = SIMD8<Double>(), fh = SIMD8<Double>()
        var top = 0.0
        for h in 2...8 {
            let f = Double(h) * f0
            if f > 0.45 * sampleRate { break }
            if HarmonicFingerprint.isMains(f) { kind[h - 2] = 0; continue }
            kind[h - 2] = 1
            let offset = max(f * (exp2(1.0 / 24) - 1), 2.5 * binHz)
            fc[h - 2] = f
            fl[h - 2] = max(f - offset, binHz)
            fh[h - 2] = f + offset
            top = f + offset
        }
        // The shortest buffer that holds every probe.
        let level = top < HarmonicFingerprint.quarterLimit * sampleRate ? 2 : top < HarmonicFingerprint.halfLimit * sampleRate ? 1 : 0
        if level > 0 { decimate(to: level) }
        let source = level == 2 ? quarter.base : level == 1 ? half.base : buffer.base
        let count = size >> level
        let w = 2 * Double.pi / (sampleRate / Double(1 << level))
        var c0 = SIMD8<Double>(), c1 = SIMD8<Double>(), c2 = SIMD8<Double>()
        for j in 0..<7 where kind[j] == 1 {
            c0[j] = 2 * cos(w * fc[j])
            c1[j] = 2 * cos(w * fl[j])
            c2[j] = 2 * cos(w * fh[j])
        }
        // The resonators s = x + c·s1 − s2 run in CKernels (AVX2 or the baseline).
        var state = (
            SIMD8<Double>(), SIMD8<Double>(), SIMD8<Double>(), SIMD8<Double>(), SIMD8<Double>(), SIMD8<Double>()
        )
        withUnsafeMutableBytes(of: &state) { st in
            withUnsafeBytes(of: c0) { p0 in
                withUnsafeBytes(of: c1) { p1 in
                    withUnsafeBytes(of: c2) { p2 in
                        spv_goertzel_banks(
                            source, Int32(count),
                            p0.baseAddress!.assumingMemoryBound(to: Double.self),
                            p1.baseAddress!.assumingMemoryBound(to: Double.self),
                            p2.baseAddress!.assumingMemoryBound(to: Double.self),
                            st.baseAddress!.assumingMemoryBound(to: Double.self))
                    }
                }
            }
        }
        let (a1, a2, b1, b2, d1, d2) = state
        let pa = a1 * a1 + a2 * a2 - c0 * a1 * a2
        let pb = b1 * b1 + b2 * b2 - c1 * b1 * b2
        let pd = d1 * d1 + d2 * d2 - c2 * d1 * d2
        var present = 0, violations = 0, mask = 0
        var snrSum = 0.0
        var previous = -1.0
        for h in 2...8 {
            let j = h - 2
            if kind[j] < 0 { break }
            if kind[j] == 0 { mains += 1; previous = -1; continue }
            let a = max(pa[j], 0).squareRoot(), ra = max(pb[j], 0).squareRoot(), rb = max(pd[j], 0).squareRoot()
            let ref = 0.5 * (ra + rb) + 1e-12
            let ratio = a / ref
            if ratio >= 3 { present += 1; snrSum += min(ratio, 10); mask |= 1 << h }
            if previous > 0 && a > 2 * previous { violations += 1 }
            previous = a
        }
        let rejected = mains > 3 || violations > 2
        let snrTerm = min(1, snrSum / 35)
        let share = Double(present) / 7
        let score = 0.4 * share + 0.4 * snrTerm + 0.2 * (1 - Double(min(violations, 3)) / 3) * share
        return Evidence(present: present, score: rejected ? 0 : score, rejected: rejected, mask: mask)
    }

    /// Persistence boost for a MIDI note: 0.06 per earlier frame of the last 8, ≤ 0.25.
    public func persistence(midi: Int) -> Double {
        var n = 0
        for i in 0..<8 where history[i] == midi { n += 1 }
        return min(0.25, 0.06 * Double(n))
    }

    /// Records this frame's rescue choice (or −1 for none) in the 8-frame history.
    public func record(midi: Int) {
        history[historyIndex] = midi
        historyIndex = (historyIndex + 1) & 7
    }

    /// Clears the persistence history.
    public func reset() {
        for i in 0..<8 { history[i] = -1 }
        historyIndex = 0
    }
}

/// The half-band low-pass of the fingerprint's decimation: a Kaiser-windowed sinc (β = 7)
/// of 47 taps cut at a quarter of the rate, normalised to unit gain at DC.
enum HalfBand {
    static let count = 47
    nonisolated(unsafe) static let taps: OwnedBuffer<Float> = {
        let n = count, mid = Double(n - 1) / 2, beta = 7.0
        func i0(_ x: Double) -> Double { // modified Bessel function of order 0 (series)
            var sum = 1.0, term = 1.0, k = 1.0
            while term > 1e-12 * sum { term *= (x / (2 * k)) * (x / (2 * k)); sum += term; k += 1 }
            return sum
        }
        var h = [Double](repeating: 0, count: n)
        for i in 0..<n {
            let t = Double(i) - mid
            let sinc = t == 0 ? 0.5 : sin(Double.pi * t / 2) / (Double.pi * t)
            let r = t / mid
            h[i] = sinc * i0(beta * (1 - r * r).squareRoot()) / i0(beta)
        }
        let sum = h.reduce(0, +)
        let out = OwnedBuffer<Float>(zeroed: n)
        for i in 0..<n { out[i] = Float(h[i] / sum) }
        return out
    }()
}
