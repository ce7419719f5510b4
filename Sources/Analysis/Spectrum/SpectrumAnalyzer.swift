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
    private let wFirst: [Float]
    private let wLast: [Float]
    private let centreBin: [Float]
    private let bandWeightDB: [Float]
    private let binWeight: [Float]
    private var tilt: [Float]
    private let octaves: [Double]
    private let fitWeight: [Double]
    private var longTerm: [Float]
    private var longTermHops = 0
    private var history: [Float]
    private var windowed: [Float]
    private var re: [Float]
    private var im: [Float]
    private var bin: [Float]
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
        first = f; count = c; wFirst = w0; wLast = w1; centreBin = cb
        let weighting = config.weighting
        bandWeightDB = lay.centers.map { Float(weighting.gain($0)) }
        binWeight = (0...half).map { k in
            k == 0 || weighting == .none ? 1 : Float(pow(10, weighting.gain(Double(k) * Double(sr) / Double(n)) / 10))
        }
        let oct = lay.centers.map { log2($0 / 1000) }
        octaves = oct
        fitWeight = (0..<b).map { i in
            let fc = lay.centers[i]
            return fc >= 40 && fc <= 16_000 && fc < Double(sr) * 0.45 ? log2(lay.upper[i] / lay.lower[i]) : 0
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
        history.withUnsafeMutableBufferPointer { h in
            if hopSize < len {
                for i in 0..<(len - hopSize) { h[i] = h[i + hopSize] }
                for i in 0..<hopSize { h[len - hopSize + i] = hop[i] }
            } else {
                for i in 0..<len { h[i] = hop[hopSize - len + i] }
            }
        }
        samplesSeen += hopSize
        // Level of the hop itself (time domain).
        var sq: Float = 0, pk: Float = 0
        for i in 0..<hopSize { let v = hop[i]; sq += v * v; pk = max(pk, abs(v)) }
        frame.rmsDB = 10 * log10f(max(sq / Float(hopSize), 1e-20))
        frame.peakDB = 20 * log10f(max(pk, 1e-10))

        let half = n / 2
        let seedLevels = config.tilt.usesSeedLevels
        var peakBin = 0
        var peakValue: Float = -1
        history.withUnsafeBufferPointer { h in
            windowed.withUnsafeMutableBufferPointer { w in
                window.withUnsafeBufferPointer { win in
                    let base = h.count - n
                    for i in 0..<n { w[i] = h[base + i] * win[i] }
                }
                re.withUnsafeMutableBufferPointer { r in
                    im.withUnsafeMutableBufferPointer { m in
                        fft.forward(w.baseAddress!, re: r.baseAddress!, im: m.baseAddress!)
                        bin.withUnsafeMutableBufferPointer { p in
                            let scale = seedLevels ? seedScale : powerScale
                            for k in 0...half {
                                let v = (r[k] * r[k] + m[k] * m[k]) * scale
                                p[k] = v
                                if v > peakValue { peakValue = v; peakBin = k }
                            }
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
            history.withUnsafeBufferPointer { h in
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
        let gain = gainDB
        let inv = 1 / enbw
        let nyquist = Double(sampleRate) / 2
        var loudest: Float = -200
        bin.withUnsafeBufferPointer { p in
            binWeight.withUnsafeBufferPointer { bw in
                frame.bandDB.withUnsafeMutableBufferPointer { out in
                    for i in 0..<layout.count {
                        if layout.lower[i] >= nyquist { out[i] = -200; continue }
                        let f = first[i], c = count[i]
                        var acc: Float
                        if c == 1 {
                            acc = p[f] * bw[f] * wFirst[i]
                        } else {
                            acc = p[f] * bw[f] * wFirst[i] + p[f + c - 1] * bw[f + c - 1] * wLast[i]
                            if c > 2 { for k in (f + 1)..<(f + c - 1) { acc += p[k] * bw[k] } }
                        }
                        var value = 10 * log10f(max(acc * inv, 1e-20))
                        let x = centreBin[i]
                        if x >= 0 {
                            // Parabola in dB through the three bins around the centre.
                            let k = Int(x.rounded())
                            let a = 10 * log10f(max(p[k - 1], 1e-20)), b = 10 * log10f(max(p[k], 1e-20))
                            let d = 10 * log10f(max(p[k + 1], 1e-20))
                            let t = x - Float(k)
                            let interp = b + 0.5 * t * (d - a) + 0.5 * t * t * (a - 2 * b + d) + bandWeightDB[i]
                            if interp > value { value = interp }
                        }
                        out[i] = value
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

    /// `--tilt auto`: the long-term average of each band's level in dB (exponential,
    /// `autoSeconds`; a plain mean while fewer hops have been seen; levels floored at
    /// −120 dB), a weighted least-squares line through it against octaves from 1 kHz
    /// (bands 40 Hz–16 kHz, weighted by their width in octaves), refitted every 4th hop,
    /// and `autoFraction` of that slope taken away. Silent hops (every band below −90 dB)
    /// do not count. Does not allocate.
    private func updateAutoTilt(_ levels: [Float]) {
        let b = layout.count
        guard levels.contains(where: { $0 > -90 }) else { return }
        longTermHops += 1
        let alpha = Float(max(1 / Double(longTermHops), Double(hopSize) / (SpectrumAnalyzer.autoSeconds * Double(sampleRate))))
        levels.withUnsafeBufferPointer { lv in
            longTerm.withUnsafeMutableBufferPointer { lt in
                for i in 0..<b { lt[i] += (max(lv[i], -120) - lt[i]) * alpha }
            }
        }
        guard longTermHops % 4 == 1 else { return }
        var sw = 0.0, sx = 0.0, sy = 0.0, sxx = 0.0, sxy = 0.0
        for i in 0..<b {
            let w = fitWeight[i]
            if w == 0 { continue }
            let x = octaves[i], y = Double(longTerm[i])
            sw += w; sx += w * x; sy += w * y; sxx += w * x * x; sxy += w * x * y
        }
        let den = sw * sxx - sx * sx
        guard sw > 0, den > 1e-9 else { return }
        let slope = (sw * sxy - sx * sy) / den
        autoSlope = min(max(-SpectrumAnalyzer.autoFraction * slope, -6), 9)
        for i in 0..<b { tilt[i] = Float(autoSlope * octaves[i]) }
    }
}
