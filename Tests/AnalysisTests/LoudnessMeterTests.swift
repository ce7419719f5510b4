import XCTest

@testable import Analysis

/// BS.1770-4 / EBU Tech 3341 reference cases on synthetic sine tones.
final class LoudnessMeterTests: XCTestCase {
    /// Interleaved `channels`-channel sine of peak amplitude `dBFS` in every channel.
    private func feed(_ meter: LoudnessMeter, dBFS: Double, seconds: Double, hz: Double = 997) {
        let rate = meter.sampleRate, ch = meter.channelCount
        let a = Float(pow(10, dBFS / 20)), n = Int(seconds * Double(rate))
        var x = [Float](repeating: 0, count: n * ch)
        for i in 0..<n {
            let v = a * Float(sin(2 * Double.pi * hz * Double(i) / Double(rate)))
            for c in 0..<ch { x[i * ch + c] = v }
        }
        x.withUnsafeBufferPointer { meter.process($0.baseAddress!, frames: n) }
    }

    /// At 48 kHz the designed filters are the standard's table 1 and 2 coefficients.
    func testFiltersAt48kHzAreTheStandardsCoefficients() {
        let s = LoudnessMeter.Biquad.shelf(rate: 48_000), h = LoudnessMeter.Biquad.highPass(rate: 48_000)
        XCTAssertEqual(s.b0, 1.53512485958697, accuracy: 1e-8)
        XCTAssertEqual(s.b1, -2.69169618940638, accuracy: 1e-8)
        XCTAssertEqual(s.b2, 1.19839281085285, accuracy: 1e-8)
        XCTAssertEqual(s.a1, -1.69065929318241, accuracy: 1e-8)
        XCTAssertEqual(s.a2, 0.73248077421585, accuracy: 1e-8)
        XCTAssertEqual(h.a1, -1.99004745483398, accuracy: 1e-8)
        XCTAssertEqual(h.a2, 0.99007225036621, accuracy: 1e-8)
    }

    /// Tech 3341 case 1: a stereo 1 kHz sine at −23 dBFS reads −23 LUFS (±0.1), momentary,
    /// short-term and integrated; at 44.1 kHz too (the filters follow the rate).
    func testStereoSineAtMinus23ReadsMinus23LUFS() {
        for rate in [48_000, 44_100] {
            let m = LoudnessMeter(sampleRate: rate, channelCount: 2)
            feed(m, dBFS: -23, seconds: 20)
            XCTAssertEqual(m.integrated ?? 0, -23, accuracy: 0.1, "\(rate) Hz")
            XCTAssertEqual(m.momentary(at: 19) ?? 0, -23, accuracy: 0.1)
            XCTAssertEqual(m.shortTerm(at: 19) ?? 0, -23, accuracy: 0.1)
            // Only the last 6.4 s of sub-blocks are kept: older windows are not guessed.
            XCTAssertNil(m.momentary(at: 10))
        }
    }

    /// A full-scale sine in one channel is −3.01 LUFS (the K-weighting gain at 1 kHz cancels
    /// the −0.691 offset).
    func testFullScaleMonoSine() {
        let m = LoudnessMeter(sampleRate: 48_000, channelCount: 1)
        feed(m, dBFS: 0, seconds: 5)
        XCTAssertEqual(m.integrated ?? 0, -3.01, accuracy: 0.05)
    }

    /// Tech 3341 case 3: −36, −23, −36 dBFS (10, 60, 10 s): the relative gate (−10 LU)
    /// drops the quiet parts, so the integrated reading is −23; momentary follows the level.
    func testRelativeGateDropsQuietParts() {
        let m = LoudnessMeter(sampleRate: 48_000, channelCount: 2)
        feed(m, dBFS: -36, seconds: 10)
        XCTAssertEqual(m.momentary(at: 5) ?? 0, -36, accuracy: 0.1)
        feed(m, dBFS: -23, seconds: 60)
        feed(m, dBFS: -36, seconds: 10)
        XCTAssertEqual(m.integrated ?? 0, -23, accuracy: 0.1)
        XCTAssertEqual(m.momentary(at: 80) ?? 0, -36, accuracy: 0.1)
    }

    /// Silence and sound under −70 LUFS are gated out entirely; nothing is defined before
    /// a window's length has been read.
    func testAbsoluteGateAndWarmUp() {
        let m = LoudnessMeter(sampleRate: 48_000, channelCount: 2)
        XCTAssertNil(m.momentary(at: 0.3))
        feed(m, dBFS: -80, seconds: 5)
        XCTAssertNil(m.integrated)
        XCTAssertNotNil(m.momentary(at: 1))
        XCTAssertNil(m.shortTerm(at: 2.9))
        XCTAssertNotNil(m.shortTerm(at: 3.0))
    }

    /// 5.1: the LFE does not count and the surrounds weigh 1.41.
    func testSurroundWeights() {
        let rate = 48_000, n = rate * 3
        func reading(channel: Int) -> Double {
            let m = LoudnessMeter(sampleRate: rate, channelCount: 6)
            var x = [Float](repeating: 0, count: n * 6)
            for i in 0..<n { x[i * 6 + channel] = 0.1 * Float(sin(2 * Double.pi * 997 * Double(i) / Double(rate))) }
            x.withUnsafeBufferPointer { m.process($0.baseAddress!, frames: n) }
            return m.integrated ?? -.infinity
        }
        XCTAssertEqual(reading(channel: 4) - reading(channel: 0), 10 * log10(1.41), accuracy: 0.01)
        XCTAssertEqual(reading(channel: 3), -.infinity)
    }

    /// Issue 36: whatever a block's loudness is — NaN, ±∞, huge, tiny — its histogram bin
    /// is in range or none, and the gate's first bin is in 0…bins.
    func testHistogramIndicesStayInRangeForAnyLoudness() {
        let bins = LoudnessMeter.histogramBins
        for l in [Double.nan, -.infinity, .infinity, -1e308, 1e308, -70, -69.999, 29.99, 30, 1e-300, -.ulpOfOne] {
            if let b = LoudnessMeter.bin(ofLoudness: l) {
                XCTAssertTrue((0..<bins).contains(b), "\(l) → \(b)")
            } else {
                XCTAssertFalse(l > -70, "\(l) has no bin")
            }
            XCTAssertTrue((0...bins).contains(LoudnessMeter.firstBin(atOrAbove: l)), "\(l)")
        }
        XCTAssertEqual(LoudnessMeter.bin(ofLoudness: .infinity), bins - 1)
        XCTAssertEqual(LoudnessMeter.bin(ofLoudness: -22.995), 4700)
        XCTAssertEqual(LoudnessMeter.firstBin(atOrAbove: .nan), bins)
        // Blocks of non-finite and huge samples: measured or left out, never a trap.
        for v: Float in [.nan, .infinity, -.infinity, 3e38, 1e-38] {
            let meter = LoudnessMeter(sampleRate: 48000, channelCount: 1)
            let x = [Float](repeating: v, count: 48000)
            x.withUnsafeBufferPointer { meter.process($0.baseAddress!, frames: $0.count) }
            if let i = meter.integrated { XCTAssertFalse(i.isNaN, "\(v)") }
            _ = meter.momentary(at: 1)
        }
    }
}
