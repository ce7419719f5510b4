import Analysis
import SpecvizTestSupport
import XCTest

final class PitchFFTTests: XCTestCase {
    /// The fast transform gives the same spectrum as the reference `RealFFT`.
    func testMatchesRealFFT() {
        for n in [32, 64, 4096] {
            var rng = SeededRandom(seed: UInt64(n))
            let x = (0..<n).map { _ in Float(rng.uniform() - 0.5) }
            let a = RealFFT(size: n), b = PitchFFT(size: n)
            var re1 = [Float](repeating: 0, count: n / 2 + 1), im1 = re1, re2 = re1, im2 = re1
            a.forward(x, re: &re1, im: &im1)
            b.forward(x, re: &re2, im: &im2)
            var worst: Float = 0, peak: Float = 0
            for k in 0...(n / 2) {
                worst = max(worst, abs(re1[k] - re2[k]), abs(im1[k] - im2[k]))
                peak = max(peak, abs(re1[k]), abs(im1[k]))
            }
            XCTAssertLessThan(worst, 1e-5 * peak, "size \(n)")
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
