#if canImport(Glibc)
import Glibc
#endif

/// The spectrum stage of SPEC §3 / seed 000 Part 1, generalised by an `AnalysisConfig`.
///
/// Per hop: the last `fftSize` samples × window → real FFT → bin power → band levels →
/// weighting, tilt and gain → display range (auto-level or fixed) → normalised 0…1.
///
/// Two band-level measures:
/// - the seed's (`Tilt.seed`, `.seedUntilted`): power |X|²/(Σw)² (floor 1e-20) in dB,
///   band = mean dB of the bins overlapping it, at least one bin (narrow bass bands share
///   bins: the seed's "stairs"), auto-level on the loudest bin;
/// - band power (every other tilt), in dBFS (a full-scale sine reads 0 dB):
///   P_k = 4|X_k|²/(Σw)², band = Σ P_k·overlap_k / ENBW over the bins' extents
///   (k ± ½) that overlap the band, where ENBW = N·Σw²/(Σw)² bins. A band narrower than
///   three bins also reads the spectrum interpolated at its centre (parabola through the
///   three nearest bins in dB) where that is a tonal peak (`tonalDB`) and shows the larger
///   of the two, so a sine reads its level in every band it passes and a slow sweep moves
///   smoothly through bands narrower than a bin (no stairs), while noise reads band power
///   (pink noise flat on the log bands).
///
/// All buffers are allocated at construction; `process` allocates nothing once the
/// frame has the layout's band count.
public final class SpectrumAnalyzer {
    /// The seed's hop (and the default hop at FFT sizes ≥ 2048).
    public static let hopSize = 2048
    public static let waveformLength = 512
    /// Music-mode tilt: +rate·(octaves above 200 Hz)^power dB (seed 000, rate 5.0, power 1.4).
    public static let tiltRate: Float = 5.0
    public static let tiltPower: Float = 1.4
    public static let tiltCornerHz: Double = 200
    /// Share of the fitted long-term slope that `--tilt auto` removes.
    public static let autoFraction = 0.7
    /// Time constant (s) of the long-term average behind `--tilt auto`.
    public static let autoSeconds = 10.0

    public let sampleRate: Int
    public let config: AnalysisConfig
    public let layout: BandLayout
    /// Samples per `process` call.
    public let hopSize: Int
    /// Static gain added to every band (dB).
    public var gainDB: Float
    /// Music mode: the seed's tilt is applied (seed level measure only).
    public var musicMode: Bool

    /// The auto-level window (unused under `--db-range`); the seed's measure tops out at 0 dB.
    public internal(set) var autoLevel: AutoLevel
    /// The slope (dB/octave) `--tilt auto` applies now.
    public internal(set) var autoSlope: Double = 0

    let fft: RealFFT
    let n: Int
    let window: [Float]
    let seedScale: Float
    let powerScale: Float
    let enbw: Float
    let binHz: Double
    /// Per band: first bin, bin count; fractional weights of the first and last bin
    /// (power measure); interpolation centre in bins (−1: not narrow).
    let first: [Int]
    let count: [Int]
    let plan: [BandPlan]
    /// The decimated bass spectrum (band-power path, when it is finer than the main FFT).
    let bass: BassSpectrum?
    var bassDB: [Float]
    var bassLevels: [Float]
    var bassCountdown = 0
    let bandWeightDB: [Float]
    let binWeight: [Float]
    var tilt: [Float]
    let octaves: [Double]
    let fitWeight: [Double]
    var longTerm: [Float]
    var longTermHops = 0
    var autoHop = 0
    var history: [Float]
    var windowed: [Float]
    /// The samples `measure` reads (`fftSize`).
    var moment: [Float]
    var re: [Float]
    var im: [Float]
    var bin: [Float]
    /// dB of the bins the narrow bands interpolate (0 … the highest one's k + 1).
    var lowDB: [Float]
    /// Bins from a peak to where `tonalDB` checks that it stands out (the window's main lobe).
    let tonalReach: Int
    var hopIndex = 0
    /// The level axis' unit (`SpectrumFrame.levelUnit`), naming the weighting and any tilt.
    public let levelUnit: String
    var samplesSeen = 0

    /// The seed's analysis (music mode: seed tilt; mic mode: none).
    public convenience init(sampleRate: Int, musicMode: Bool = true, gainDB: Float = 0) {
        self.init(sampleRate: sampleRate, config: .seed(musicMode: musicMode, gainDB: gainDB))
    }

    public init(sampleRate: Int, config: AnalysisConfig) {
        self.sampleRate = sampleRate
        autoLevel = AutoLevel(lowest: -50, highest: config.tilt.usesSeedLevels ? 0 : 20)
        self.config = config
        self.gainDB = config.gainDB
        self.musicMode = config.tilt == .seed
        let n = config.fftSize
        self.n = n
        hopSize = config.hopSize
        let lay = config.layout, sr = sampleRate
        layout = lay
        fft = RealFFT(size: n)
        window = config.window.make(n)
        let sum = window.reduce(0.0) { $0 + Double($1) }
        let sum2 = window.reduce(0.0) { $0 + Double($1) * Double($1) }
        seedScale = config.window == .hann ? 4 / Float(n * n) : Float(1 / (sum * sum))
        powerScale = Float(4 / (sum * sum))
        enbw = Float(Double(n) * sum2 / (sum * sum))
        binHz = Double(sr) / Double(n)
        let half = n / 2
        let b = lay.count
        let seedLevels = config.tilt.usesSeedLevels
        let bins = BinRanges(layout: lay, sampleRate: sr, binHz: binHz, half: half, seedLevels: seedLevels)
        first = bins.first; count = bins.count
        let weighting = config.weighting
        let bwDB = lay.centers.map { Float(weighting.gain($0)) }
        bandWeightDB = bwDB
        // Multi-resolution: bands below eight main bins (and inside the bass path's flat
        // range) read the decimated 8192-sample spectrum when it is finer.
        let bassRate = Double(sr) / Double(BassSpectrum.factor * BassSpectrum.size)
        let useBass = !seedLevels && binHz > 1.5 * bassRate
        plan = bins.plans(layout: lay, sampleRate: sr, n: n, weightDB: bwDB, useBass: useBass, bassRate: bassRate)
        let bassUsed = plan.contains { $0.bass }
        bass = bassUsed ? BassSpectrum(sampleRate: sr, maxHop: config.hopSize) : nil
        bassLevels = [Float](repeating: -200, count: b)
        binWeight = (0...half).map { k in
            k == 0 || weighting == .none ? 1 : Float(pow(10, weighting.gain(Double(k) * Double(sr) / Double(n)) / 10))
        }
        let oct = lay.centers.map { log2($0 / 1000) }
        octaves = oct
        fitWeight = (0..<b).map { i in
            let fc = lay.centers[i]
            return fc >= 50 && fc <= 12_800 && fc < Double(sr) * 0.45 ? log2(lay.upper[i] / lay.lower[i]) : 0
        }
        longTerm = [Float](repeating: 0, count: b)
        switch config.tilt {
        case .seed: tilt = lay.centers.map { SpectrumAnalyzer.tilt(frequency: $0) }
        case .slope(let s): tilt = oct.map { Float(s * $0) }
        case .seedUntilted, .auto: tilt = [Float](repeating: 0, count: b)
        }
        levelUnit = SpectrumAnalyzer.levelUnit(config.weighting, tilt: config.tilt)
        history = [Float](repeating: 0, count: max(n, 2048))
        windowed = [Float](repeating: 0, count: n)
        moment = [Float](repeating: 0, count: n)
        re = [Float](repeating: 0, count: half + 1)
        im = [Float](repeating: 0, count: half + 1)
        bin = [Float](repeating: 0, count: half + 1)
        // Bins just outside the main lobe: about 4/3 of the ENBW (Hann 2, Blackman 3, flat top 6).
        let reach = max(2, Int((Double(enbw) * 4 / 3 - 0.01).rounded(.up)))
        tonalReach = reach
        lowDB = [Float](
            repeating: -200, count: min(plan.map { $0.bass || $0.centreBin < 0 ? 0 : Int($0.centreBin) + 2 + reach }.max() ?? 0, half + 1))
        bassDB = [Float](
            repeating: -200,
            count: min(
                plan.map { !$0.bass || $0.centreBin < 0 ? 0 : Int($0.centreBin) + 2 + BassSpectrum.tonalReach }.max() ?? 0,
                BassSpectrum.size / 2 + 1))
    }

    /// Music-mode tilt in dB for a frequency (Hz): 0 at or below 200 Hz.
    public static func tilt(frequency: Double) -> Float {
        guard frequency > tiltCornerHz else { return 0 }
        let octaves = Float(log2(frequency / tiltCornerHz))
        return tiltRate * powf(octaves, tiltPower)
    }

    /// The tilt (dB) applied to each band now.
    public var bandTilt: [Float] { tilt }

    /// Analyses one hop of exactly `hopSize` samples into `frame`. Does not allocate
    /// (after the first call, which sizes the frame's arrays to the band count).
    public func process(_ hop: UnsafeBufferPointer<Float>, into frame: inout SpectrumFrame) {
        precondition(hop.count == hopSize, "a hop is \(hopSize) samples")
        let bands = layout.count
        if frame.bands.count != bands { frame.resize(bands: bands) }
        frame.axis = layout.axis
        frame.levelUnit = levelUnit
        let len = history.count
        // A hop at least as long as the history is the history: read it in place.
        let inPlace = hopSize >= len
        history.withUnsafeMutableBufferPointer { h in
            let dst = h.baseAddress!
            if inPlace {
                // (Kept for `measure`, which reads the newest samples between hops.)
                memcpy(dst, hop.baseAddress! + (hopSize - len), len * MemoryLayout<Float>.size)
            } else {
                memmove(dst, dst + hopSize, (len - hopSize) * MemoryLayout<Float>.size)
                memcpy(dst + (len - hopSize), hop.baseAddress!, hopSize * MemoryLayout<Float>.size)
            }
        }
        samplesSeen += hopSize
        bass?.push(hop)
        measureLevel(of: hop, into: &frame)
        let peakBin = powerSpectrum(hop, inPlace: inPlace)
        frame.peakHz = peakFrequency(peakBin)
        if config.tilt.usesSeedLevels {
            seedBands(into: &frame)
        } else {
            powerBands(into: &frame)
        }
        frame.waveform.withUnsafeMutableBufferPointer { wf in
            history.withUnsafeBufferPointer { stored in
                let h = inPlace ? UnsafeBufferPointer(rebasing: hop[(hopSize - len)...]) : stored
                let base = h.count - 2048
                for i in 0..<SpectrumAnalyzer.waveformLength { wf[i] = h[base + i * 4] }
            }
        }
        frame.index = hopIndex
        hopIndex += 1
        frame.time = Double(samplesSeen) / Double(sampleRate)
    }

    /// The hop's own level (time domain): RMS and peak in dB.
    private func measureLevel(of hop: UnsafeBufferPointer<Float>, into frame: inout SpectrumFrame) {
        var sq: Float = 0, pk: Float = 0
        do {
            var s4 = SIMD4<Float>(), p4 = SIMD4<Float>()
            let raw = UnsafeRawPointer(hop.baseAddress!)
            let body = hopSize & ~3
            var i = 0
            while i < body {
                let v = raw.loadUnaligned(fromByteOffset: 4 * i, as: SIMD4<Float>.self)
                s4 += v * v
                p4 = pointwiseMax(p4, pointwiseMax(v, -v))
                i += 4
            }
            sq = s4.sum(); pk = p4.max()
            while i < hopSize { let v = hop[i]; sq += v * v; pk = max(pk, abs(v)); i += 1 }
        }
        frame.rmsDB = 10 * log10f(max(sq / Float(hopSize), 1e-20))
        frame.peakDB = 20 * log10f(max(pk, 1e-10))
    }

    /// The last `n` samples (the history, or the hop itself when `inPlace`) × window → real
    /// FFT → bin power in `bin` (the seed's or the band-power scale). Returns the loudest bin.
    private func powerSpectrum(_ hop: UnsafeBufferPointer<Float>, inPlace: Bool) -> Int {
        let len = history.count
        return history.withUnsafeBufferPointer { stored in
            powerSpectrum(of: inPlace ? UnsafeBufferPointer(rebasing: hop[(hopSize - len)...]) : stored)
        }
    }

    /// The last `n` samples of `h` × window → real FFT → bin power in `bin`. Returns the
    /// loudest bin.
    func powerSpectrum(of h: UnsafeBufferPointer<Float>) -> Int {
        let half = n / 2
        let seedLevels = config.tilt.usesSeedLevels
        var peakBin = 0
        var peakValue: Float = -1
        do {
            windowed.withUnsafeMutableBufferPointer { w in
                window.withUnsafeBufferPointer { win in
                    let src = UnsafeRawPointer(h.baseAddress! + (h.count - n)), wr = UnsafeRawPointer(win.baseAddress!)
                    let dst = UnsafeMutableRawPointer(w.baseAddress!)
                    var i = 0
                    while i < n { // n is a power of two ≥ 512
                        let v =
                            src.loadUnaligned(fromByteOffset: 4 * i, as: SIMD4<Float>.self)
                            * wr.loadUnaligned(fromByteOffset: 4 * i, as: SIMD4<Float>.self)
                        dst.storeBytes(of: v, toByteOffset: 4 * i, as: SIMD4<Float>.self)
                        i += 4
                    }
                }
                re.withUnsafeMutableBufferPointer { r in
                    im.withUnsafeMutableBufferPointer { m in
                        fft.forward(w.baseAddress!, re: r.baseAddress!, im: m.baseAddress!)
                        bin.withUnsafeMutableBufferPointer { p in
                            let scale = seedLevels ? seedScale : powerScale
                            let rr = UnsafeRawPointer(r.baseAddress!), mr = UnsafeRawPointer(m.baseAddress!)
                            let pr = UnsafeMutableRawPointer(p.baseAddress!)
                            var best = SIMD4<Float>(repeating: -1)
                            var k = 0
                            while k + 4 <= half {
                                let a = rr.loadUnaligned(fromByteOffset: 4 * k, as: SIMD4<Float>.self)
                                let b = mr.loadUnaligned(fromByteOffset: 4 * k, as: SIMD4<Float>.self)
                                let v = (a * a + b * b) * scale
                                pr.storeBytes(of: v, toByteOffset: 4 * k, as: SIMD4<Float>.self)
                                best = pointwiseMax(best, v)
                                k += 4
                            }
                            peakValue = best.max()
                            while k <= half {
                                let v = (r[k] * r[k] + m[k] * m[k]) * scale
                                p[k] = v
                                if v > peakValue { peakValue = v }
                                k += 1
                            }
                            for j in 0...half where p[j] == peakValue { peakBin = j; break }
                        }
                    }
                }
            }
        }
        return peakBin
    }

    /// The loudest bin's frequency refined by a parabola through its dB neighbours (Hz).
    private func peakFrequency(_ k: Int) -> Double {
        guard k > 0 && k < n / 2 else { return Double(k) * binHz }
        let a = 10 * log10f(max(bin[k - 1], 1e-30)), b = 10 * log10f(max(bin[k], 1e-30)), c = 10 * log10f(max(bin[k + 1], 1e-30))
        let d = a - 2 * b + c
        let off = d < 0 ? min(max(0.5 * (a - c) / d, -0.5), 0.5) : 0
        return (Double(k) + Double(off)) * binHz
    }
}
