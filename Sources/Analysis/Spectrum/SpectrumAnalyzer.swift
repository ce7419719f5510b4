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
///   three nearest bins in dB) and shows the larger of the two, so a sine reads its level
///   in every band it passes and a slow sweep moves smoothly through bands narrower than a
///   bin (no stairs). Noise reads band power where bands are ≥ ENBW wide.
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

    /// The auto-level ceiling (dB), starting low so the first loud frame sets it.
    public private(set) var ceiling: Float = -60
    /// The slope (dB/octave) `--tilt auto` applies now.
    public private(set) var autoSlope: Double = 0

    private let fft: RealFFT
    private let n: Int
    private let window: [Float]
    private let seedScale: Float
    private let powerScale: Float
    private let enbw: Float
    private let binHz: Double
    /// Per band: first bin, bin count; fractional weights of the first and last bin
    /// (power measure); interpolation centre in bins (−1: not narrow).
    private let first: [Int]
    private let count: [Int]
    private let plan: [BandPlan]
    /// The decimated bass spectrum (band-power path, when it is finer than the main FFT).
    private let bass: BassSpectrum?
    private var bassDB: [Float]
    private var bassLevels: [Float]
    private var bassCountdown = 0
    private let bandWeightDB: [Float]
    private let binWeight: [Float]
    private var tilt: [Float]
    private let octaves: [Double]
    private let fitWeight: [Double]
    private var longTerm: [Float]
    private var longTermHops = 0
    private var autoHop = 0
    private var history: [Float]
    private var windowed: [Float]
    private var re: [Float]
    private var im: [Float]
    private var bin: [Float]
    /// dB of the bins the narrow bands interpolate (0 … the highest one's k + 1).
    private var lowDB: [Float]
    private var hopIndex = 0
    private let levelUnit: String
    private var samplesSeen = 0

    /// The seed's analysis (music mode: seed tilt; mic mode: none).
    public convenience init(sampleRate: Int, musicMode: Bool = true, gainDB: Float = 0) {
        self.init(sampleRate: sampleRate, config: .seed(musicMode: musicMode, gainDB: gainDB))
    }

    public init(sampleRate: Int, config: AnalysisConfig) {
        self.sampleRate = sampleRate
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
        var f = [Int](repeating: 0, count: b), c = [Int](repeating: 0, count: b)
        var w0 = [Float](repeating: 1, count: b), w1 = [Float](repeating: 1, count: b)
        var cb = [Float](repeating: -1, count: b)
        let seedLevels = config.tilt.usesSeedLevels
        for i in 0..<b {
            let lo = lay.lower[i], hi = lay.upper[i]
            if lo >= Double(sr) / 2 { continue }
            let a = lo / binHz, z = min(hi / binHz, Double(half) + 0.5)
            // Bin k stands for [k − ½, k + ½)·binHz; a band takes every bin overlapping it.
            let k0 = max(Int((a - 0.5).rounded(.down)) + 1, 0)
            let k1 = min(Int((z + 0.5).rounded(.up)) - 1, half)
            f[i] = min(k0, k1); c[i] = max(k1 - k0 + 1, 1)
            if !seedLevels {
                if c[i] == 1 {
                    w0[i] = Float(z - a); w1[i] = w0[i]
                } else {
                    w0[i] = Float(min(Double(f[i]) + 0.5, z) - a)
                    w1[i] = Float(z - (Double(f[i] + c[i] - 1) - 0.5))
                }
                if z - a < 3 { cb[i] = Float(min(max(lay.centers[i] / binHz, 1), Double(half - 1))) }
            }
        }
        first = f; count = c
        let weighting = config.weighting
        let bwDB = lay.centers.map { Float(weighting.gain($0)) }
        bandWeightDB = bwDB
        // Multi-resolution: bands below eight main bins (and inside the bass path's flat
        // range) read the decimated 8192-sample spectrum when it is finer.
        let bassRate = Double(sr) / Double(BassSpectrum.factor * BassSpectrum.size)
        let useBass = !seedLevels && binHz > 1.5 * bassRate
        var bassUsed = false
        plan = (0..<b).map { i in
            let lo = lay.lower[i], hi = lay.upper[i]
            if useBass && hi <= min(8 * (Double(sr) / Double(n)), 0.065 * Double(sr) / Double(BassSpectrum.factor)) {
                bassUsed = true
                var p = BandPlan.make(lo: lo, hi: hi, centre: lay.centers[i], binHz: bassRate, lastBin: BassSpectrum.size / 2)
                p.weightDB = bwDB[i]
                p.bass = true
                return p
            }
            return BandPlan(
                first: Int32(f[i]), count: lo >= Double(sr) / 2 ? 0 : Int32(c[i]), wFirst: w0[i], wLast: w1[i],
                centreBin: cb[i], weightDB: bwDB[i], bass: false)
        }
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
        switch config.weighting {
        case .none: levelUnit = seedLevels ? "dB" : "dBFS"
        case .itu468: levelUnit = "dB(468)"
        default: levelUnit = "dB(\(config.weighting.rawValue))"
        }
        history = [Float](repeating: 0, count: max(n, 2048))
        windowed = [Float](repeating: 0, count: n)
        re = [Float](repeating: 0, count: half + 1)
        im = [Float](repeating: 0, count: half + 1)
        bin = [Float](repeating: 0, count: half + 1)
        lowDB = [Float](repeating: -200, count: min(plan.map { $0.bass || $0.centreBin < 0 ? 0 : Int($0.centreBin) + 3 }.max() ?? 0, half + 1))
        bassDB = [Float](
            repeating: -200,
            count: min(
                plan.map { !$0.bass || $0.centreBin < 0 ? 0 : Int($0.centreBin) + 3 }.max() ?? 0,
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
        if !inPlace {
            history.withUnsafeMutableBufferPointer { h in
                let dst = h.baseAddress!
                memmove(dst, dst + hopSize, (len - hopSize) * MemoryLayout<Float>.size)
                memcpy(dst + (len - hopSize), hop.baseAddress!, hopSize * MemoryLayout<Float>.size)
            }
        }
        samplesSeen += hopSize
        bass?.push(hop)
        // Level of the hop itself (time domain).
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

        let half = n / 2
        let seedLevels = config.tilt.usesSeedLevels
        var peakBin = 0
        var peakValue: Float = -1
        history.withUnsafeBufferPointer { stored in
            let h = inPlace ? UnsafeBufferPointer(rebasing: hop[(hopSize - len)...]) : stored
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
        frame.peakHz = peakFrequency(peakBin)
        if seedLevels {
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

    /// The loudest bin's frequency refined by a parabola through its dB neighbours (Hz).
    private func peakFrequency(_ k: Int) -> Double {
        guard k > 0 && k < n / 2 else { return Double(k) * binHz }
        let a = 10 * log10f(max(bin[k - 1], 1e-30)), b = 10 * log10f(max(bin[k], 1e-30)), c = 10 * log10f(max(bin[k + 1], 1e-30))
        let d = a - 2 * b + c
        let off = d < 0 ? min(max(0.5 * (a - c) / d, -0.5), 0.5) : 0
        return (Double(k) + Double(off)) * binHz
    }

    /// The seed's measure: mean dB of the bins, seed tilt, auto-level on the loudest bin.
    private func seedBands(into frame: inout SpectrumFrame) {
        let half = n / 2
        var peak: Float = -200
        bin.withUnsafeMutableBufferPointer { db in
            for k in 0...half {
                let d = 10 * log10f(max(db[k], 1e-20))
                db[k] = d
                if d > peak { peak = d }
            }
        }
        let top: Float, bottom: Float
        if let range = config.dbRange {
            top = range.upperBound; bottom = range.lowerBound
        } else {
            if peak > ceiling { ceiling = peak } else { ceiling -= 0.5 }
            ceiling = min(max(ceiling, -60), 0)
            top = min(ceiling + 5, 0)
            bottom = top - 40
        }
        frame.dbTop = top
        frame.dbBottom = bottom
        let music = musicMode
        let gain = gainDB
        let weighted = config.weighting != .none
        bin.withUnsafeBufferPointer { db in
            tilt.withUnsafeBufferPointer { tl in
                frame.bandDB.withUnsafeMutableBufferPointer { out in
                    frame.bands.withUnsafeMutableBufferPointer { disp in
                        for i in 0..<layout.count {
                            let c = count[i]
                            var value: Float
                            if layout.lower[i] >= Double(sampleRate) / 2 {
                                value = -200
                            } else {
                                let f = first[i]
                                var acc: Float = 0
                                for k in f..<(f + c) { acc += db[k] }
                                value = acc / Float(c) + gain
                                if music { value += tl[i] }
                                if weighted { value += bandWeightDB[i] }
                            }
                            out[i] = value
                            disp[i] = min(max((value - bottom) / (top - bottom), 0), 1)
                        }
                    }
                }
            }
        }
    }

    /// Band power in dBFS with interpolation for narrow bands, weighting, tilt, gain.
    private func powerBands(into frame: inout SpectrumFrame) {
        bin.withUnsafeBufferPointer { p in
            lowDB.withUnsafeMutableBufferPointer { d in
                for k in 0..<d.count { d[k] = fastDecibels(p[k]) }
            }
        }
        if let bass {
            // The bass window is 8192 samples: a new spectrum every 4096 input samples
            // (50 % overlap) is all it resolves; in between its bands keep their levels.
            if bassCountdown <= 0 {
                bass.analyse()
                bass.power.withUnsafeBufferPointer { p in
                    bassDB.withUnsafeMutableBufferPointer { d in
                        for k in 0..<d.count { d[k] = fastDecibels(p[k]) }
                    }
                }
                bassBands(bass)
                bassCountdown += 4096
            }
            bassCountdown -= hopSize
        }
        let gain = gainDB
        let inv = 1 / enbw
        let weighted = config.weighting != .none
        var loudest: Float = -200
        bin.withUnsafeBufferPointer { p in
            lowDB.withUnsafeBufferPointer { lowDB in
                binWeight.withUnsafeBufferPointer { bw in
                    plan.withUnsafeBufferPointer { plan in
                        frame.bandDB.withUnsafeMutableBufferPointer { out in
                            for i in 0..<plan.count {
                                let b = plan[i]
                                if b.bass { out[i] = bassLevels[i]; continue }
                                let f = Int(b.first), c = Int(b.count)
                                if c == 0 { out[i] = -200; continue }
                                var acc: Float
                                if c == 1 {
                                    acc = p[f] * b.wFirst * (weighted ? bw[f] : 1)
                                } else if weighted {
                                    acc = p[f] * bw[f] * b.wFirst + p[f + c - 1] * bw[f + c - 1] * b.wLast
                                    if c > 2 { for k in (f + 1)..<(f + c - 1) { acc += p[k] * bw[k] } }
                                } else {
                                    acc = p[f] * b.wFirst + p[f + c - 1] * b.wLast
                                    if c > 2 { for k in (f + 1)..<(f + c - 1) { acc += p[k] } }
                                }
                                var value = fastDecibels(acc * inv)
                                let x = b.centreBin
                                if x >= 0 {
                                    // Parabola in dB through the three bins around the centre.
                                    let interp = interpolatedDB(lowDB, at: x) + b.weightDB
                                    if interp > value { value = interp }
                                }
                                out[i] = value
                            }
                        }
                    }
                }
            }
        }
        if config.tilt == .auto { updateAutoTilt(frame.bandDB) }
        frame.bandDB.withUnsafeMutableBufferPointer { out in
            tilt.withUnsafeBufferPointer { tl in
                for i in 0..<layout.count where out[i] > -200 {
                    out[i] += tl[i] + gain
                    if out[i] > loudest { loudest = out[i] }
                }
            }
        }
        let top: Float, bottom: Float
        if let range = config.dbRange {
            top = range.upperBound; bottom = range.lowerBound
        } else {
            let fall = 0.5 * Float(hopSize) / 2048
            if loudest > ceiling { ceiling = loudest } else { ceiling -= fall }
            ceiling = min(max(ceiling, -60), 10)
            top = ceiling + 5
            bottom = top - 40
        }
        frame.dbTop = top
        frame.dbBottom = bottom
        frame.bandDB.withUnsafeBufferPointer { out in
            frame.bands.withUnsafeMutableBufferPointer { disp in
                for i in 0..<layout.count { disp[i] = min(max((out[i] - bottom) / (top - bottom), 0), 1) }
            }
        }
    }

    /// The bands on the bass path: the same measure on the decimated spectrum, weighted
    /// at the band centre.
    private func bassBands(_ bass: BassSpectrum) {
        let inv = 1 / bass.enbw
        bass.power.withUnsafeBufferPointer { p in
            bassDB.withUnsafeBufferPointer { db in
                plan.withUnsafeBufferPointer { plan in
                    bassLevels.withUnsafeMutableBufferPointer { out in
                        for i in 0..<plan.count where plan[i].bass {
                            out[i] = plan[i].level(p, db, inv)
                        }
                    }
                }
            }
        }
    }

    /// `--tilt auto`: the long-term average band power (exponential, `autoSeconds`; a plain
    /// mean while fewer updates have been seen; every 8th hop; silent hops, every band below
    /// −90 dB, do not count), its energy per octave below and above 800 Hz (50–800 Hz and
    /// 800 Hz–12.8 kHz, each centred 2 octaves from the pivot: empty bands weigh nothing, so
    /// a track without deep bass or air is not read as tilted), the slope between the two
    /// in dB per octave, and `autoFraction` of it taken away (clamped to −3…+6 dB/octave),
    /// pivoting at 1 kHz, the tilt held constant beyond 125 Hz … 10 kHz. Does not allocate.
    private func updateAutoTilt(_ levels: [Float]) {
        let b = layout.count
        autoHop += 1
        guard autoHop % 8 == 1, levels.contains(where: { $0 > -90 }) else { return }
        longTermHops += 1
        let alpha = Float(max(1 / Double(longTermHops), 8 * Double(hopSize) / (SpectrumAnalyzer.autoSeconds * Double(sampleRate))))
        var lowE = 0.0, lowW = 0.0, highE = 0.0, highW = 0.0
        levels.withUnsafeBufferPointer { lv in
            longTerm.withUnsafeMutableBufferPointer { lt in
                for i in 0..<b {
                    lt[i] += (exp2f(max(lv[i], -150) * 0.33219281) - lt[i]) * alpha
                    let w = fitWeight[i]
                    if w == 0 { continue }
                    if octaves[i] < -0.32 { lowE += Double(lt[i]); lowW += w } else { highE += Double(lt[i]); highW += w }
                }
            }
        }
        guard lowW > 0, highW > 0, lowE > 1e-15, highE > 1e-15 else { return }
        // Energy per octave in each region; their centres are 4 octaves apart.
        let slope = (10 * log10(highE / highW) - 10 * log10(lowE / lowW)) / 4
        autoSlope = min(max(-SpectrumAnalyzer.autoFraction * slope, -3), 6)
        for i in 0..<b { tilt[i] = Float(autoSlope * min(max(octaves[i], -3), 3.32)) }
    }
}

/// What the band-power path needs per band, packed (first bin, bin count — 0 above
/// Nyquist —, fractional weights of the first and last bin, interpolation centre in bins
/// or −1, weighting at the centre in dB).
struct BandPlan {
    var first: Int32
    var count: Int32
    var wFirst: Float
    var wLast: Float
    var centreBin: Float
    var weightDB: Float
    /// Read from the decimated bass spectrum.
    var bass: Bool
}

extension BandPlan {
    /// The plan of band [lo, hi] (Hz) on a spectrum of `binHz` bins 0 … lastBin, unweighted
    /// per bin (the weighting goes in at the centre).
    static func make(lo: Double, hi: Double, centre: Double, binHz: Double, lastBin: Int) -> BandPlan {
        let a = lo / binHz, z = min(hi / binHz, Double(lastBin) + 0.5)
        let k0 = max(Int((a - 0.5).rounded(.down)) + 1, 0)
        let k1 = min(Int((z + 0.5).rounded(.up)) - 1, lastBin)
        let first = min(k0, k1), count = max(k1 - k0 + 1, 1)
        var w0: Float = 1, w1: Float = 1
        if count == 1 {
            w0 = Float(z - a); w1 = w0
        } else {
            w0 = Float(min(Double(first) + 0.5, z) - a)
            w1 = Float(z - (Double(first + count - 1) - 0.5))
        }
        let cb: Float = z - a < 3 ? Float(min(max(centre / binHz, 1), Double(lastBin - 1))) : -1
        return BandPlan(first: Int32(first), count: Int32(count), wFirst: w0, wLast: w1, centreBin: cb, weightDB: 0, bass: false)
    }

    /// Band power (dB) from bin powers `p` and their dB `db` (for the interpolation),
    /// `inv` = 1/ENBW, plus the centre weighting.
    @inline(__always)
    func level(_ p: UnsafeBufferPointer<Float>, _ db: UnsafeBufferPointer<Float>, _ inv: Float) -> Float {
        let f = Int(first), c = Int(count)
        if c == 0 { return -200 }
        var acc = p[f] * wFirst
        if c > 1 {
            acc += p[f + c - 1] * wLast
            if c > 2 { for k in (f + 1)..<(f + c - 1) { acc += p[k] } }
        }
        var value = fastDecibels(acc * inv)
        if centreBin >= 0 {
            let interp = interpolatedDB(db, at: centreBin)
            if interp > value { value = interp }
        }
        return value + weightDB
    }
}

/// The spectrum in dB at fractional bin `x` (≥ 1): a parabola through the louder of the
/// two bins around x and its neighbours (the shape of the window's main lobe near a
/// peak), or the straight line between the two bins where that parabola opens upward.
@inline(__always)
func interpolatedDB(_ db: UnsafeBufferPointer<Float>, at x: Float) -> Float {
    let k0 = min(Int(x), db.count - 2)
    let k = min(max(db[k0 + 1] > db[k0] ? k0 + 1 : k0, 1), db.count - 2)
    let l = db[k - 1], m = db[k], r = db[k + 1]
    let curve = l - 2 * m + r
    if curve >= 0 {
        let t = x - Float(k0)
        return db[k0] + t * (db[k0 + 1] - db[k0])
    }
    let t = x - Float(k)
    return m + 0.5 * t * (r - l) + 0.5 * t * t * curve
}
