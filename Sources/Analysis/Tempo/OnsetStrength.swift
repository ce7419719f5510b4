import CKernels
import SpecvizCore

#if canImport(Glibc)
import Glibc
#endif

/// The onset-strength signal of the tempo detector (SPEC §6, seed 000 Part 5
/// "Onset signal pipeline" steps 1–3; seed 002 step 21).
///
/// Each call to `push(frame:)` takes one Hann-windowed 1024-point real FFT of the
/// newest 1024 samples (hop 1024, ~43 frames/s at 44.1 kHz) and returns
///
///     flux[n]  = Σ_k max(0, |X_n[k]| − |X_{n−1}[k]|)     (broadband, half-wave rectified)
///     onset[n] = log(1 + 10 · flux[n])                    (log compression)
///
/// Magnitudes are scaled by 2/Σw so a full-scale sine has magnitude 1, which keeps
/// the log compression independent of the FFT size. The bins cover 30 Hz … 16 kHz
/// (below 30 Hz is rumble and DC; above 16 kHz mostly codec noise).
///
/// All buffers are allocated at construction; `push` allocates nothing.
final class OnsetStrength {
    /// FFT size and hop (samples).
    let size: Int
    private let fft: RealFFT
    private let window: OwnedBuffer<Float>
    private let windowed: OwnedBuffer<Float>
    private let re: OwnedBuffer<Float>
    private let im: OwnedBuffer<Float>
    private let previous: OwnedBuffer<Float>
    private let lowBin: Int
    private let highBin: Int
    private let scale: Float
    private let lowTop: Int
    private let midTop: Int
    private var hasPrevious = false

    /// Mean square of the newest frame (linear, full scale = 0.5 for a sine): used
    /// by the tracker's silence suppression. Stays 0 unless `measuresPower`.
    private(set) var lastPower: Float = 0
    /// Whether `push` measures `lastPower` (a sum over the frame the offline envelopes do not use).
    let measuresPower: Bool
    /// The newest frame's flux below 200 Hz (kick and bass), log-compressed like the onset.
    private(set) var lastLowFlux: Float = 0
    /// The newest frame's flux from 200 Hz to 3 kHz (snare body, chords; few hi-hats).
    private(set) var lastMidFlux: Float = 0
    /// The newest frame's summed magnitude below 200 Hz (linear): how fast the low band
    /// decays after an onset tells a kick from a bass note (`PercussiveLow`).
    private(set) var lastLowLevel: Float = 0
    /// With `logFlux` on: the newest frame's rise of the log spectrum, the mean over the bins
    /// of max(0, log(1 + 1000·|X_n[k]|) − log(1 + 1000·|X_{n−1}[k]|)). Each bin is compressed
    /// before the difference, so a soft attack counts beside a loud held note (the linear
    /// flux's sum is ruled by the loudest bins: a bowed section's swells drown a harp's or a
    /// pizzicato's beat). 1000: a bin at −60 dBFS reads log 2.
    private(set) var lastLogFlux: Float = 0
    /// 1 + `logGain`·|X_{n−1}[k]| by bin (the log's argument, kept instead of the log).
    private let previousLevel: OwnedBuffer<Float>

    /// Gain inside `lastLogFlux`'s log (magnitudes in full-scale units).
    static let logGain: Float = 1000

    /// Number of log-spaced bands (100 Hz – 5 kHz) of `bandLevels`.
    static let bandCount = 24
    /// With `bands` on: the newest frame's level per band, log(1 + 10·mean magnitude) —
    /// a coarse spectrum whose change from beat to beat marks chord changes (downbeats).
    /// Empty unless the bands were asked for.
    let bandLevels: OwnedBuffer<Float>
    private var bandEdges: [Int] = []

    /// - Parameters:
    ///   - sampleRate: audio rate (Hz).
    ///   - size: FFT size (power of two), also the hop.
    ///   - bands: also compute `bandLevels`.
    ///   - logFlux: also compute `lastLogFlux`.
    ///   - power: also measure `lastPower`.
    init(sampleRate: Int, size: Int = 1024, bands: Bool = false, logFlux: Bool = false, power: Bool = true) {
        self.size = size
        measuresPower = power
        fft = RealFFT(size: size)
        window = OwnedBuffer(zeroed: size)
        windowed = OwnedBuffer(zeroed: size)
        re = OwnedBuffer(zeroed: size / 2 + 1)
        im = OwnedBuffer(zeroed: size / 2 + 1)
        previous = OwnedBuffer(zeroed: size / 2 + 1)
        previousLevel = OwnedBuffer(zeroed: logFlux ? size / 2 + 1 : 0)
        for k in 0..<previousLevel.count { previousLevel[k] = 1 }
        var sum: Float = 0
        for i in 0..<size {
            let w = Float(0.5 * (1 - cos(2 * Double.pi * Double(i) / Double(size))))
            window[i] = w
            sum += w
        }
        scale = 2 / sum
        let binHz = Double(sampleRate) / Double(size)
        lowBin = max(1, Int((30 / binHz).rounded(.up)))
        highBin = max(lowBin + 1, min(size / 2, Int(16_000 / binHz)))
        lowTop = max(lowBin, min(highBin, Int(200 / binHz)))
        midTop = max(lowTop, min(highBin, Int(3000 / binHz)))
        bandLevels = OwnedBuffer(zeroed: bands ? Self.bandCount : 0)
        if bands {
            for b in 0...Self.bandCount {
                let hz = 100 * pow(50, Double(b) / Double(Self.bandCount))
                bandEdges.append(max(lowBin, min(highBin, Int((hz / binHz).rounded()))))
            }
        }
    }

    /// The newest frame's magnitudes by bin (valid until the next `push`).
    var magnitudes: UnsafePointer<Float> { UnsafePointer(previous.base) }
    /// The bins the flux counts (30 Hz … 16 kHz).
    var bins: ClosedRange<Int> { lowBin...highBin }

    /// The mean over the bins of max(0, log q_n[k] − log q_{n−1}[k]), q = 1 + `logGain`·|X|,
    /// taken as the log of the product of max(1, q_n[k] / q_{n−1}[k]). The product is kept
    /// per SIMD lane as a mantissa in [1, 2) and a sum of binary exponents (each ratio is at
    /// most ~3000, so a step never overflows), which leaves eight logs per frame instead of
    /// one per bin. Reads the newest magnitudes from `previous`.
    private func logRise() -> Float {
        let level = previousLevel.base, magnitude = previous.base
        let gain = SIMD8<Float>(repeating: Self.logGain), one = SIMD8<Float>(repeating: 1)
        var mantissa = one
        var exponent = SIMD8<Int32>(repeating: 0)
        var k = lowBin
        while k + 8 <= highBin + 1 {
            let q = UnsafeRawPointer(magnitude + k).loadUnaligned(as: SIMD8<Float>.self) * gain + one
            var r = q / UnsafeRawPointer(level + k).loadUnaligned(as: SIMD8<Float>.self)
            r.replace(with: one, where: r .< one)
            UnsafeMutableRawPointer(level + k).storeBytes(of: q, as: SIMD8<Float>.self)
            let bits = unsafeBitCast(mantissa * r, to: SIMD8<Int32>.self)
            exponent &+= (bits &>> 23) &- 127
            mantissa = unsafeBitCast((bits & 0x007F_FFFF) | 0x3F80_0000, to: SIMD8<Float>.self)
            k += 8
        }
        var tail: Float = 1
        while k <= highBin {
            let q = magnitude[k] * Self.logGain + 1
            tail *= max(1, q / level[k])
            level[k] = q
            k += 1
        }
        var rise = Float(exponent.wrappedSum()) * Float(M_LN2) + log(tail)
        for j in 0..<8 { rise += log(mantissa[j]) }
        return rise / Float(highBin - lowBin + 1)
    }

    /// Forgets the previous spectrum (after a flush or a gap in the input).
    func reset() {
        hasPrevious = false
        lastPower = 0
    }

    /// Analyses one frame of `size` samples and returns its onset strength
    /// log(1 + 10·flux) (dimensionless, ≥ 0). The first frame after a reset returns 0.
    func push(frame: UnsafePointer<Float>) -> Float {
        for i in 0..<size { windowed[i] = frame[i] * window[i] }
        if measuresPower {
            // Eight running sums (one chain of 1024 additions waited ~4 cycles on each).
            var sums = SIMD8<Float>()
            var i = 0
            while i + 8 <= size {
                let x = UnsafeRawPointer(frame + i).loadUnaligned(as: SIMD8<Float>.self)
                sums += x * x
                i += 8
            }
            var power = sums.sum()
            while i < size {
                power += frame[i] * frame[i]
                i += 1
            }
            lastPower = power / Float(size)
        }
        fft.forward(UnsafePointer(windowed.base), re: re.base, im: im.base)
        // The flux of the low, mid and high bins, eight bins at a time (`spv_flux_range`).
        var lowLevel: Float = 0
        let low = spv_flux_range(re.base, im.base, scale, previous.base, Int32(lowBin), Int32(lowTop), &lowLevel)
        lastLowLevel = lowLevel
        let mid = midTop > lowTop ? spv_flux_range(re.base, im.base, scale, previous.base, Int32(lowTop + 1), Int32(midTop), nil) : 0
        let high = highBin > midTop ? spv_flux_range(re.base, im.base, scale, previous.base, Int32(midTop + 1), Int32(highBin), nil) : 0
        let flux = low + mid + high
        if previousLevel.count > 0 { lastLogFlux = logRise() }
        if bandLevels.count > 0 {
            let levels = bandLevels.base
            for b in 0..<Self.bandCount {
                let lo = bandEdges[b], hi = max(bandEdges[b] + 1, bandEdges[b + 1])
                var sum: Float = 0
                for k in lo..<hi { sum += previous[k] }
                levels[b] = log(1 + 10 * sum / Float(hi - lo))
            }
        }
        if !hasPrevious {
            hasPrevious = true
            lastLowFlux = 0
            lastMidFlux = 0
            lastLogFlux = 0
            return 0
        }
        lastLowFlux = log(1 + 10 * low)
        lastMidFlux = log(1 + 10 * max(0, mid))
        return log(1 + 10 * flux)
    }
}
