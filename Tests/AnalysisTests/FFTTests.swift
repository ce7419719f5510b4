import SpecvizTestSupport
import XCTest

@testable import Analysis

final class FFTTests: XCTestCase {
    func testMatchesNaiveDFT() {
        let n = 64
        var x = [Float](repeating: 0, count: n)
        var seed: UInt32 = 7
        for i in 0..<n { seed = seed &* 1664525 &+ 1013904223; x[i] = Float(seed >> 8) / Float(1 << 24) - 0.5 }
        let fft = RealFFT(size: n)
        var re = [Float](repeating: 0, count: n / 2 + 1), im = re
        fft.forward(x, re: &re, im: &im)
        for k in 0...(n / 2) {
            var sr = 0.0, si = 0.0
            for t in 0..<n {
                let a = -2 * Double.pi * Double(k * t) / Double(n)
                sr += Double(x[t]) * cos(a); si += Double(x[t]) * sin(a)
            }
            XCTAssertEqual(Double(re[k]), sr, accuracy: 1e-4, "re[\(k)]")
            XCTAssertEqual(Double(im[k]), si, accuracy: 1e-4, "im[\(k)]")
        }
    }

    /// Both paths of the kernel (Stockham from 128 to 4096 points, bit-reversed in place
    /// outside) against a double-precision DFT, at every size and across both boundaries.
    func testEverySizeMatchesTheDFT() {
        var n = 4
        while n <= 8192 {
            var seed = UInt32(n)
            let x = (0..<n).map { _ in
                seed = seed &* 1664525 &+ 1013904223
                return Float(seed >> 8) / Float(1 << 24) - 0.5
            }
            let fft = RealFFT(size: n)
            var re = [Float](repeating: 0, count: n / 2 + 1), im = re
            fft.forward(x, re: &re, im: &im)
            let tolerance = 1e-5 * Double(n).squareRoot() * 4
            for k in stride(from: 0, through: n / 2, by: max(1, n / 256)) {
                var sr = 0.0, si = 0.0
                for t in 0..<n {
                    let a = -2 * Double.pi * Double((k * t) % n) / Double(n)
                    sr += Double(x[t]) * cos(a); si += Double(x[t]) * sin(a)
                }
                XCTAssertEqual(Double(re[k]), sr, accuracy: tolerance, "size \(n), re[\(k)]")
                XCTAssertEqual(Double(im[k]), si, accuracy: tolerance, "size \(n), im[\(k)]")
            }
            n *= 2
        }
    }

    func testSineLandsInItsBin() {
        let n = 2048
        let x = (0..<n).map { Float(sin(2 * Double.pi * 100 * Double($0) / Double(n))) }
        let fft = RealFFT(size: n)
        var re = [Float](repeating: 0, count: n / 2 + 1), im = re
        fft.forward(x, re: &re, im: &im)
        let mags = (0...(n / 2)).map { re[$0] * re[$0] + im[$0] * im[$0] }
        XCTAssertEqual(mags.indices.max { mags[$0] < mags[$1] }, 100)
        // A full-scale sine has |X| = N/2 in its bin.
        XCTAssertEqual(mags[100].squareRoot(), Float(n / 2), accuracy: 0.01 * Float(n / 2))
    }
}
