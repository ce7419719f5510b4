import Analysis
import SpecvizTestSupport
import XCTest

final class LagFFTTests: XCTestCase {
    /// The shared `RealFFT` the lag analysis uses (it had its own copy before issue 19)
    /// matches a direct DFT at the lag analysis's 4096-point size and at the small sizes
    /// where its scalar, 4-wide and 8-wide paths meet.
    func testRealFFTMatchesDirectDFT() {
        for n in [4, 8, 16, 32, 4096] {
            var rng = SeededRandom(seed: UInt64(n))
            let x = (0..<n).map { _ in Float(rng.uniform() - 0.5) }
            let fft = RealFFT(size: n)
            var re = [Float](repeating: 0, count: n / 2 + 1), im = re
            fft.forward(x, re: &re, im: &im)
            var worst = 0.0, peak = 0.0
            for k in 0...(n / 2) {
                var sr = 0.0, si = 0.0
                for t in 0..<n {
                    let a = -2 * Double.pi * Double((k * t) % n) / Double(n)
                    sr += Double(x[t]) * cos(a); si += Double(x[t]) * sin(a)
                }
                worst = max(worst, abs(Double(re[k]) - sr), abs(Double(im[k]) - si))
                peak = max(peak, abs(sr), abs(si))
            }
            XCTAssertLessThan(worst, 1e-5 * peak + 1e-6, "size \(n)")
        }
    }
}

final class LagAnalysisACFTests: XCTestCase {
    /// The FFT autocorrelation equals the direct sum Σ x[i]·x[i+τ] at every lag.
    func testACFMatchesDirectSum() {
        let n = 2048
        var rng = SeededRandom(seed: 99)
        let x = (0..<n).map { i in Float(0.5 * sin(Double(i) * 0.05) + 0.2 * (rng.uniform() - 0.5)) }
        let a = LagAnalysis(size: n, maxLag: 1800)
        x.withUnsafeBufferPointer { a.analyse($0.baseAddress!) }
        var worst = 0.0
        let e = a.energy
        for t in 0...1800 {
            var s = 0.0
            for i in 0..<(n - t) { s += Double(x[i]) * Double(x[i + t]) }
            worst = max(worst, abs(s - Double(a.acf[t])) / e)
        }
        XCTAssertLessThan(worst, 2e-6)
    }
}
