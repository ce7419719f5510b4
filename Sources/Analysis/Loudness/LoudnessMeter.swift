import SpecvizCore

#if canImport(Glibc)
import Glibc
#endif

/// Loudness per ITU-R BS.1770-4 and EBU R128 / Tech 3341: momentary (400 ms), short-term
/// (3 s) and gated integrated loudness in LUFS, from interleaved samples at any rate.
///
/// - K-weighting: the two BS.1770 biquads (a high shelf of about +4 dB above 1.5 kHz and the
///   RLB high-pass near 38 Hz), designed for the stream's rate by the bilinear transform
///   from their analogue parameters (f0, gain, Q as fitted to the standard's 48 kHz table
///   by B. De Man, "Evaluation of implementations of the EBU R128 loudness measurement",
///   AES 145, 2018); at 48 kHz they reproduce the standard's coefficients.
/// - Channel weights: 1.0 for left, right and centre, 1.41 for the surrounds, 0 for the LFE
///   (5.1 in FFmpeg's order FL FR FC LFE BL BR); any other layout weighs every channel 1.
/// - The weighted mean square is kept per 100 ms sub-block; a 400 ms gating block ends at
///   every sub-block (75 % overlap). Loudness = −0.691 + 10·log10(Σ Gᵢ·zᵢ).
/// - Integrated: blocks above the absolute gate (−70 LUFS) go into a histogram of 0.01 LU
///   bins that keeps each bin's energy sum, so memory is constant for any duration; the
///   relative gate is 10 LU under the mean of those blocks.
///
/// Does not allocate after construction.
public final class LoudnessMeter {
    public let sampleRate: Int
    public let channelCount: Int

    /// Mean-square energies of the last `history` 100 ms sub-blocks (a ring).
    private static let history = 64
    private let subBlocks = OwnedBuffer<Double>(zeroed: LoudnessMeter.history)
    /// Sub-blocks completed since the start.
    public private(set) var completedSubBlocks = 0
    private let subBlockLength: Int
    private var subBlockFill = 0
    private var subBlockSum = 0.0

    private let weights: OwnedBuffer<Double>
    /// Biquad state per channel: x1, x2, y1, y2 for each of the two stages (8 per channel).
    private let state: OwnedBuffer<Double>
    private let shelf: Biquad
    private let highPass: Biquad

    /// Histogram of gating-block loudness from −70 to +30 LUFS in 0.01 LU bins.
    static let histogramFloor = -70.0, histogramStep = 0.01, histogramBins = 10_000
    private let binCount = OwnedBuffer<Int>(zeroed: LoudnessMeter.histogramBins)
    private let binEnergy = OwnedBuffer<Double>(zeroed: LoudnessMeter.histogramBins)
    private var gatedBlocks = 0
    private var gatedEnergy = 0.0

    /// A second-order section, direct form I, normalised (a0 = 1).
    struct Biquad: Equatable {
        var b0, b1, b2, a1, a2: Double

        /// BS.1770's pre-filter (stage 1, the head's acoustic effect) at `rate` Hz.
        static func shelf(rate: Double) -> Biquad {
            let f0 = 1681.974450955533, gainDB = 3.999843853973347, q = 0.7071752369554196
            let k = tan(Double.pi * f0 / rate)
            let vh = pow(10, gainDB / 20), vb = pow(vh, 0.4996667741545416)
            let a0 = 1 + k / q + k * k
            return Biquad(
                b0: (vh + vb * k / q + k * k) / a0, b1: 2 * (k * k - vh) / a0,
                b2: (vh - vb * k / q + k * k) / a0,
                a1: 2 * (k * k - 1) / a0, a2: (1 - k / q + k * k) / a0)
        }

        /// BS.1770's RLB weighting (stage 2, a high-pass) at `rate` Hz.
        static func highPass(rate: Double) -> Biquad {
            let f0 = 38.13547087602444, q = 0.5003270373238773
            let k = tan(Double.pi * f0 / rate)
            let a0 = 1 + k / q + k * k
            return Biquad(b0: 1, b1: -2, b2: 1, a1: 2 * (k * k - 1) / a0, a2: (1 - k / q + k * k) / a0)
        }
    }

    public init(sampleRate: Int, channelCount: Int) {
        precondition(sampleRate > 0 && channelCount > 0)
        self.sampleRate = sampleRate
        self.channelCount = channelCount
        subBlockLength = max(1, Int((Double(sampleRate) / 10).rounded()))
        weights = OwnedBuffer(count: channelCount, repeating: 1)
        if channelCount == 6 { weights[3] = 0; weights[4] = 1.41; weights[5] = 1.41 }
        state = OwnedBuffer(zeroed: 8 * channelCount)
        shelf = .shelf(rate: Double(sampleRate))
        highPass = .highPass(rate: Double(sampleRate))
    }

    /// Feeds `frames` interleaved frames (`channelCount` samples each).
    public func process(_ samples: UnsafePointer<Float>, frames: Int) {
        let channels = channelCount, s = state.base, w = weights.base
        let f1 = shelf, f2 = highPass
        for i in 0..<frames {
            var sum = 0.0
            for c in 0..<channels {
                let x = Double(samples[i * channels + c])
                let st = s + 8 * c
                let y = f1.b0 * x + f1.b1 * st[0] + f1.b2 * st[1] - f1.a1 * st[2] - f1.a2 * st[3]
                st[1] = st[0]; st[0] = x; st[3] = st[2]; st[2] = y
                let z = f2.b0 * y + f2.b1 * st[4] + f2.b2 * st[5] - f2.a1 * st[6] - f2.a2 * st[7]
                st[5] = st[4]; st[4] = y; st[7] = st[6]; st[6] = z
                sum += w[c] * z * z
            }
            subBlockSum += sum
            subBlockFill += 1
            if subBlockFill == subBlockLength { completeSubBlock() }
        }
    }

    private func completeSubBlock() {
        subBlocks[completedSubBlocks % Self.history] = subBlockSum / Double(subBlockLength)
        completedSubBlocks += 1
        subBlockFill = 0
        subBlockSum = 0
        // The 400 ms gating block that ends here.
        guard completedSubBlocks >= 4, let z = mean(of: 4, endingAt: completedSubBlocks) else { return }
        // A block whose energy is not a finite number cannot be measured: it is left out.
        guard z.isFinite, let bin = Self.bin(ofLoudness: Self.loudness(z)) else { return }
        binCount[bin] += 1
        binEnergy[bin] += z
        gatedBlocks += 1
        gatedEnergy += z
    }

    /// Mean energy of the `n` sub-blocks before sub-block index `end`, or nil if they are
    /// not all complete or no longer kept.
    private func mean(of n: Int, endingAt end: Int) -> Double? {
        guard end >= n, end <= completedSubBlocks, completedSubBlocks - (end - n) <= Self.history else { return nil }
        var sum = 0.0
        for j in (end - n)..<end { sum += subBlocks[j % Self.history] }
        return sum / Double(n)
    }

    /// The histogram bin of a block's loudness: nil below the absolute gate or for NaN, the
    /// top bin for anything above its range (+∞ included). Every index it gives is in range
    /// whatever `l` is (issue 36).
    static func bin(ofLoudness l: Double) -> Int? {
        guard l > histogramFloor else { return nil }
        let x = (l - histogramFloor) / histogramStep
        guard x < Double(histogramBins - 1) else { return histogramBins - 1 }
        return Int(x)
    }

    /// The first bin whose lower edge is at or above `gate`, from 0 to `histogramBins`
    /// (none), whatever `gate` is (NaN: none).
    static func firstBin(atOrAbove gate: Double) -> Int {
        guard !gate.isNaN else { return histogramBins }
        let x = ((gate - histogramFloor) / histogramStep).rounded(.up)
        if x <= 0 { return 0 }
        return x >= Double(histogramBins) ? histogramBins : Int(x)
    }

    /// LUFS of a weighted mean-square energy (−∞ for silence).
    static func loudness(_ z: Double) -> Double { z > 0 ? -0.691 + 10 * log10(z) : -.infinity }

    /// Momentary loudness (400 ms) ending at the last 100 ms boundary at or before `time`
    /// seconds; nil until 400 ms have been read.
    public func momentary(at time: Double) -> Double? { window(4, at: time) }

    /// Short-term loudness (3 s) ending at the last 100 ms boundary at or before `time`.
    public func shortTerm(at time: Double) -> Double? { window(30, at: time) }

    private func window(_ n: Int, at time: Double) -> Double? {
        let end = min(completedSubBlocks, Int((time * 10 + 1e-9).rounded(.down)))
        return mean(of: n, endingAt: end).map(Self.loudness)
    }

    /// Integrated loudness (gated) of everything read so far; nil until a block passes the
    /// absolute gate.
    public var integrated: Double? {
        guard gatedBlocks > 0 else { return nil }
        let relativeGate = Self.loudness(gatedEnergy / Double(gatedBlocks)) - 10
        var count = 0, energy = 0.0
        // Bins whose lower edge is at or above the gate (the bin holding the gate is
        // decided by its edge: at most 0.01 LU off).
        for b in Self.firstBin(atOrAbove: relativeGate)..<Self.histogramBins where binCount[b] > 0 {
            count += binCount[b]
            energy += binEnergy[b]
        }
        return count > 0 ? Self.loudness(energy / Double(count)) : nil
    }
}
