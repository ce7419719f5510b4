import SpecvizCore

#if canImport(Glibc)
import Glibc
#endif

/// The bass half of the multi-resolution analysis: the input low-passed and decimated by
/// 16 (windowed-sinc FIR, Kaiser β = 6, 72 taps, cut-off at the new Nyquist, rate/32:
/// flat to ≈ 180 Hz at 44.1 kHz and ≥ 60 dB down where it would alias onto 0…180 Hz), then a
/// 512-point Hann FFT over the last 512 decimated samples (8192 input samples, 186 ms at
/// 44.1 kHz): bins of rate/8192 (5.4 Hz) where the main 2048-point FFT has 21.5 Hz.
/// Bands below a few main bins read this spectrum, so a low sine keeps clear of its
/// mirror image at −f and narrow bass bands get real resolution rather than interpolation.
///
/// Power is normalised like the main path (4|X|²/(Σw)²: a full-scale sine's peak bin is
/// 1). All buffers are allocated at construction; `push` and `analyse` do not allocate.
final class BassSpectrum {
    static let factor = 16
    static let size = 512
    let binHz: Double
    /// ENBW of the window in bins.
    let enbw: Float
    /// Its Hann window's `SpectrumAnalyzer.tonalReach`.
    static let tonalReach = 2
    /// Power per bin, 0 … size/2, after `analyse`.
    private(set) var power: [Float]

    private let taps: OwnedBuffer<Float>
    private let tapCount: Int
    private var pending: [Float]
    private var pendingCount: Int
    private var decimated: [Float]
    private let window: [Float]
    private let fft: RealFFT
    private var windowed: [Float]
    private var re: [Float]
    private var im: [Float]
    private let scale: Float

    init(sampleRate: Int, maxHop: Int) {
        let f = BassSpectrum.factor, n = BassSpectrum.size
        binHz = Double(sampleRate) / Double(f * n)
        let length = 72
        let cutoff = 1 / Double(2 * f) // cycles per input sample
        let periodic = WindowKind.kaiser(beta: 6).make(length - 1).map(Double.init)
        let kaiser = periodic + [periodic[0]] // symmetric over 0…length − 1
        var h = (0..<length).map { i -> Double in
            let m = Double(i) - Double(length - 1) / 2
            let sinc = m == 0 ? 2 * cutoff : sin(2 * Double.pi * cutoff * m) / (Double.pi * m)
            return sinc * kaiser[i]
        }
        let sum = h.reduce(0, +)
        h = h.map { $0 / sum }
        tapCount = length + (4 - length % 4) % 4
        taps = OwnedBuffer(zeroed: tapCount)
        for i in 0..<tapCount { taps[i] = i < length ? Float(h[i]) : 0 }
        pending = [Float](repeating: 0, count: tapCount + maxHop + f)
        pendingCount = tapCount - 1
        decimated = [Float](repeating: 0, count: n)
        window = WindowKind.hann.make(n)
        let ws = window.reduce(0.0) { $0 + Double($1) }, ws2 = window.reduce(0.0) { $0 + Double($1) * Double($1) }
        enbw = Float(Double(n) * ws2 / (ws * ws))
        scale = Float(4 / (ws * ws))
        fft = RealFFT(size: n)
        windowed = [Float](repeating: 0, count: n)
        re = [Float](repeating: 0, count: n / 2 + 1)
        im = re
        power = re
    }

    /// Feeds samples (any count ≤ maxHop). Does not allocate.
    func push(_ x: UnsafeBufferPointer<Float>) {
        let f = BassSpectrum.factor, t = tapCount
        pending.withUnsafeMutableBufferPointer { p in
            for i in 0..<x.count { p[pendingCount + i] = x[i] }
            pendingCount += x.count
            var outputs = 0
            var start = 0
            decimated.withUnsafeMutableBufferPointer { d in
                // Count the outputs first, shift the decimated history once, then fill.
                var s = 0
                while s + t <= pendingCount { outputs += 1; s += f }
                let n = d.count
                let keep = max(n - outputs, 0)
                if keep > 0 && outputs > 0 { for i in 0..<keep { d[i] = d[i + outputs] } }
                let tp = UnsafeRawPointer(taps.base)
                let pr = UnsafeRawPointer(p.baseAddress!)
                var o = 0
                while start + t <= pendingCount {
                    var acc = SIMD4<Float>()
                    var j = 0
                    while j < t {
                        acc +=
                            tp.loadUnaligned(fromByteOffset: 4 * j, as: SIMD4<Float>.self)
                            * pr.loadUnaligned(fromByteOffset: 4 * (start + j), as: SIMD4<Float>.self)
                        j += 4
                    }
                    let slot = n - outputs + o
                    if slot >= 0 { d[slot] = acc.sum() }
                    o += 1
                    start += f
                }
            }
            // Keep the samples the next output still needs.
            let rest = pendingCount - start
            for i in 0..<rest { p[i] = p[start + i] }
            pendingCount = rest
        }
    }

    /// The power spectrum of the last 512 decimated samples into `power`. Does not allocate.
    func analyse() {
        let n = BassSpectrum.size
        windowed.withUnsafeMutableBufferPointer { w in
            decimated.withUnsafeBufferPointer { d in
                window.withUnsafeBufferPointer { win in for i in 0..<n { w[i] = d[i] * win[i] } }
            }
            re.withUnsafeMutableBufferPointer { r in
                im.withUnsafeMutableBufferPointer { m in
                    fft.forward(w.baseAddress!, re: r.baseAddress!, im: m.baseAddress!)
                    power.withUnsafeMutableBufferPointer { p in
                        for k in 0...(n / 2) { p[k] = (r[k] * r[k] + m[k] * m[k]) * scale }
                    }
                }
            }
        }
    }
}
