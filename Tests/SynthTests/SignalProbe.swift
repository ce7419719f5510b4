import Foundation

@testable import Synth

/// Measurement helpers for the synthesiser tests: rendering, a radix-2 FFT, a windowed
/// DTFT peak search (for sub-cent frequency estimates) and the click metric.
enum SignalProbe {
    /// Renders a whole score to mono samples.
    static func render(
        _ score: ToneScore, sampleRate: Double = 48_000, speaker: Bool = false,
        engine: ((ToneEngine) -> Void)? = nil
    ) -> [Float] {
        let r = ToneRenderer(score: score, sampleRate: sampleRate, speakerVoicing: speaker)
        var out: [Float] = []
        var block = [Float](repeating: 0, count: 1024)
        while true {
            let n = block.withUnsafeMutableBufferPointer { r.render(into: $0) }
            if n == 0 { break }
            out.append(contentsOf: block[0..<n])
        }
        engine?(r.engine)
        return out
    }

    /// 4-term Blackman–Harris window (sidelobes −92 dB), length n.
    static func blackmanHarris(_ n: Int) -> [Double] {
        (0..<n).map { i in
            let x = 2 * Double.pi * Double(i) / Double(n - 1)
            return 0.35875 - 0.48829 * cos(x) + 0.14128 * cos(2 * x) - 0.01168 * cos(3 * x)
        }
    }

    /// |X(f)| of the Blackman–Harris-windowed signal at frequency f (Hz), by a phasor recurrence.
    static func dtftMagnitude(_ x: [Double], window: [Double], frequency: Double, sampleRate: Double) -> Double {
        let w = 2 * Double.pi * frequency / sampleRate
        let c = cos(w), s = -sin(w)
        var pr = 1.0, pi = 0.0, re = 0.0, im = 0.0
        for i in 0..<x.count {
            let v = x[i] * window[i]
            re += v * pr; im += v * pi
            let nr = pr * c - pi * s
            pi = pr * s + pi * c
            pr = nr
            if i & 1023 == 1023 { let m = (pr * pr + pi * pi).squareRoot(); pr /= m; pi /= m }
        }
        return (re * re + im * im).squareRoot()
    }

    /// The frequency (Hz) of the spectral peak within ±`span` Hz of `guess`, by golden-section
    /// search of the windowed DTFT magnitude, to ~1e-6 Hz.
    static func peakFrequency(_ samples: ArraySlice<Float>, near guess: Double, span: Double, sampleRate: Double) -> Double {
        let x = samples.map(Double.init)
        let win = blackmanHarris(x.count)
        var a = guess - span, b = guess + span
        let r = (5.0.squareRoot() - 1) / 2
        var c = b - r * (b - a), d = a + r * (b - a)
        var fc = dtftMagnitude(x, window: win, frequency: c, sampleRate: sampleRate)
        var fd = dtftMagnitude(x, window: win, frequency: d, sampleRate: sampleRate)
        while b - a > 1e-6 {
            if fc > fd {
                b = d; d = c; fd = fc; c = b - r * (b - a); fc = dtftMagnitude(x, window: win, frequency: c, sampleRate: sampleRate)
            } else {
                a = c; c = d; fc = fd; d = a + r * (b - a); fd = dtftMagnitude(x, window: win, frequency: d, sampleRate: sampleRate)
            }
        }
        return (a + b) / 2
    }

    /// Power spectrum (linear, |X|²) of the Blackman–Harris-windowed first 2^k samples.
    static func powerSpectrum(_ samples: ArraySlice<Float>, size: Int) -> [Double] {
        precondition(size & (size - 1) == 0 && samples.count >= size)
        let win = blackmanHarris(size)
        var re = [Double](repeating: 0, count: size), im = re
        var i = 0
        for s in samples.prefix(size) { re[i] = Double(s) * win[i]; i += 1 }
        fft(&re, &im)
        return (0...size / 2).map { re[$0] * re[$0] + im[$0] * im[$0] }
    }

    /// In-place iterative radix-2 complex FFT.
    static func fft(_ re: inout [Double], _ im: inout [Double]) {
        let n = re.count
        var j = 0
        for i in 1..<n {
            var bit = n >> 1
            while j & bit != 0 { j ^= bit; bit >>= 1 }
            j |= bit
            if i < j { re.swapAt(i, j); im.swapAt(i, j) }
        }
        var len = 2
        while len <= n {
            let ang = -2 * Double.pi / Double(len)
            let wr = cos(ang), wi = sin(ang)
            var start = 0
            while start < n {
                var cr = 1.0, ci = 0.0
                for k in 0..<len / 2 {
                    let a = start + k, b = a + len / 2
                    let tr = re[b] * cr - im[b] * ci
                    let ti = re[b] * ci + im[b] * cr
                    re[b] = re[a] - tr; im[b] = im[a] - ti
                    re[a] += tr; im[a] += ti
                    let ncr = cr * wr - ci * wi
                    ci = cr * wi + ci * wr
                    cr = ncr
                }
                start += len
            }
            len <<= 1
        }
    }

    /// Largest sample-to-sample step |x[n] − x[n−1]| in a range of samples.
    static func maxJump(_ x: [Float], _ range: Range<Int>) -> Float {
        var m: Float = 0
        for i in max(range.lowerBound, 1)..<min(range.upperBound, x.count) { m = max(m, abs(x[i] - x[i - 1])) }
        return m
    }

    static func peak(_ x: [Float]) -> Float { x.reduce(0) { max($0, abs($1)) } }

    static func rms(_ x: ArraySlice<Float>) -> Double {
        (x.reduce(0.0) { $0 + Double($1) * Double($1) } / Double(x.count)).squareRoot()
    }

    static func hertz(midi: Int, reference: Double = 440) -> Double { reference * pow(2, Double(midi - 69) / 12) }
}
