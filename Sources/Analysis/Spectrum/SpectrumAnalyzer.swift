#if canImport(Glibc)
import Glibc
#endif

/// The spectrum stage of SPEC §3 / seed 000 Part 1, per hop of 2048 samples:
/// Hann window → 2048-point real FFT → power |X|²·4/N² (floor 1e-20) → dB →
/// 128 log bands (mean dB of their bins) → music-mode tilt and static gain →
/// auto-level (ceiling: instant rise, −0.5 dB/frame fall, clamp −60…0; window
/// top = min(ceiling + 5, 0), bottom = top − 40) → normalised 0…1.
///
/// All buffers are allocated at construction; `process` allocates nothing.
public final class SpectrumAnalyzer {
    public static let hopSize = 2048
    public static let waveformLength = 512
    /// Music-mode tilt: +rate·(octaves above 200 Hz)^power dB (seed 000, rate 5.0, power 1.4).
    public static let tiltRate: Float = 5.0
    public static let tiltPower: Float = 1.4
    public static let tiltCornerHz: Double = 200

    public let sampleRate: Int
    /// Music mode (file input) applies the spectral tilt; mic mode does not.
    public var musicMode: Bool
    /// Static gain added to every band (dB).
    public var gainDB: Float

    /// The auto-level ceiling (dB), starting low so the first loud frame sets it.
    public private(set) var ceiling: Float = -60

    private let fft: RealFFT
    private let bands: LogBands
    private let window: [Float]
    private let tilt: [Float]
    private var windowed: [Float]
    private var re: [Float]
    private var im: [Float]
    private var binDB: [Float]
    private var hopIndex = 0

    public init(sampleRate: Int, musicMode: Bool = true, gainDB: Float = 0) {
        self.sampleRate = sampleRate
        self.musicMode = musicMode
        self.gainDB = gainDB
        let n = SpectrumAnalyzer.hopSize
        fft = RealFFT(size: n)
        bands = LogBands(fftSize: n, sampleRate: sampleRate)
        window = Window.hann(n)
        tilt = (0..<LogBands.count).map { SpectrumAnalyzer.tilt(frequency: LogBands.center($0)) }
        windowed = [Float](repeating: 0, count: n)
        re = [Float](repeating: 0, count: n / 2 + 1)
        im = [Float](repeating: 0, count: n / 2 + 1)
        binDB = [Float](repeating: 0, count: n / 2 + 1)
    }

    /// Music-mode tilt in dB for a frequency (Hz): 0 at or below 200 Hz.
    public static func tilt(frequency: Double) -> Float {
        guard frequency > tiltCornerHz else { return 0 }
        let octaves = Float(log2(frequency / tiltCornerHz))
        return tiltRate * powf(octaves, tiltPower)
    }

    /// Analyses one hop of exactly `hopSize` samples into `frame` (its arrays must have
    /// the standard sizes, as `SpectrumFrame()` makes them). Does not allocate.
    public func process(_ hop: UnsafeBufferPointer<Float>, into frame: inout SpectrumFrame) {
        precondition(hop.count == SpectrumAnalyzer.hopSize, "a hop is \(SpectrumAnalyzer.hopSize) samples")
        let n = SpectrumAnalyzer.hopSize
        let half = n / 2
        let scale = 4 / Float(n * n)
        var peak: Float = -200
        windowed.withUnsafeMutableBufferPointer { w in
            window.withUnsafeBufferPointer { win in
                for i in 0..<n { w[i] = hop[i] * win[i] }
            }
            re.withUnsafeMutableBufferPointer { r in
                im.withUnsafeMutableBufferPointer { m in
                    fft.forward(w.baseAddress!, re: r.baseAddress!, im: m.baseAddress!)
                    binDB.withUnsafeMutableBufferPointer { db in
                        for k in 0...half {
                            let p = max((r[k] * r[k] + m[k] * m[k]) * scale, 1e-20)
                            let d = 10 * log10f(p)
                            db[k] = d
                            if d > peak { peak = d }
                        }
                    }
                }
            }
        }
        // Auto-level (per analysis frame).
        if peak > ceiling { ceiling = peak } else { ceiling -= 0.5 }
        ceiling = min(max(ceiling, -60), 0)
        let top = min(ceiling + 5, 0)
        let bottom = top - 40
        frame.dbTop = top
        frame.dbBottom = bottom

        let music = musicMode
        let gain = gainDB
        binDB.withUnsafeBufferPointer { db in
            tilt.withUnsafeBufferPointer { tl in
                frame.bandDB.withUnsafeMutableBufferPointer { out in
                    frame.bands.withUnsafeMutableBufferPointer { disp in
                        for i in 0..<LogBands.count {
                            let c = bands.binCount[i]
                            var value: Float
                            if c == 0 {
                                value = -200
                            } else {
                                let f = bands.firstBin[i]
                                var acc: Float = 0
                                for k in f..<(f + c) { acc += db[k] }
                                value = acc / Float(c) + gain
                                if music { value += tl[i] }
                            }
                            out[i] = value
                            disp[i] = min(max((value - bottom) / (top - bottom), 0), 1)
                        }
                    }
                }
            }
        }
        frame.waveform.withUnsafeMutableBufferPointer { wf in
            let step = n / SpectrumAnalyzer.waveformLength
            for i in 0..<SpectrumAnalyzer.waveformLength { wf[i] = hop[i * step] }
        }
        frame.index = hopIndex
        hopIndex += 1
        frame.time = Double(hopIndex * n) / Double(sampleRate)
    }
}
