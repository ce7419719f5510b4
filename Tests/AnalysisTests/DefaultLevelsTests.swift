import Analysis
import SpecvizTestSupport
import XCTest

/// Issue 39: the one default level mapping (render, live and analyze) reads pink noise
/// flat, and every tilt or weighting is named on the level axis.
final class DefaultLevelsTests: XCTestCase {
    static let rate = 44100

    /// Band power (dB) of pink noise under the default analysis (bands, scale, tilt),
    /// averaged in power over `seconds` after the first second.
    func pinkLevels(_ config: AnalysisConfig, seconds: Double) -> (BandLayout, [Double]) {
        let pink = ToneGenerators.pinkNoise(sampleRate: Self.rate, duration: seconds, rms: 0.1)
        let a = SpectrumAnalyzer(sampleRate: Self.rate, config: config)
        var frame = SpectrumFrame(bands: a.layout.count)
        var sum = [Double](repeating: 0, count: a.layout.count)
        var used = 0
        pink.withUnsafeBufferPointer { s in
            var i = 0
            while i + a.hopSize <= s.count {
                a.process(UnsafeBufferPointer(rebasing: s[i..<(i + a.hopSize)]), into: &frame)
                i += a.hopSize
                if i < Self.rate { continue }
                for b in 0..<sum.count { sum[b] += pow(10, Double(frame.bandDB[b]) / 10) }
                used += 1
            }
        }
        return (a.layout, sum.map { 10 * log10($0 / Double(used)) })
    }

    /// Pink noise reads flat within ±2 dB of its mean from 63 Hz to 8 kHz on the default
    /// bands with the default tilt; the same noise under `--tilt 3` rises 3 dB per octave.
    func testPinkNoiseReadsFlatUnderTheDefaultMapping() {
        let config = AnalysisConfig()
        XCTAssertEqual(config.tilt, AnalysisConfig.defaultTilt)
        let (layout, db) = pinkLevels(config, seconds: 20)
        let chosen = (0..<layout.count).filter { layout.centers[$0] >= 63 && layout.centers[$0] <= 8000 }
        let mean = chosen.map { db[$0] }.reduce(0, +) / Double(chosen.count)
        var worst = (0.0, 0.0)
        for b in chosen where abs(db[b] - mean) > abs(worst.0) { worst = (db[b] - mean, layout.centers[b]) }
        print("pink noise, default mapping: worst \(worst.0) dB at \(worst.1) Hz")
        for b in chosen { XCTAssertEqual(db[b], mean, accuracy: 2, "\(layout.centers[b]) Hz") }
        var tilted = config
        tilted.tilt = .slope(3)
        let (_, up) = pinkLevels(tilted, seconds: 4)
        let low = chosen.first!, high = chosen.last!
        let octaves = log2(layout.centers[high] / layout.centers[low])
        XCTAssertEqual((up[high] - up[low]) - (db[high] - db[low]), 3 * octaves, accuracy: 3)
    }

    /// The level axis says what was added to the band power.
    func testTheLevelUnitNamesTiltAndWeighting() {
        func unit(_ tilt: Tilt, _ weighting: Weighting = .none) -> String {
            var c = AnalysisConfig()
            c.tilt = tilt
            c.weighting = weighting
            return SpectrumAnalyzer(sampleRate: Self.rate, config: c).levelUnit
        }
        XCTAssertEqual(unit(.off), "dBFS")
        XCTAssertEqual(unit(.slope(3)), "dBFS, +3 dB/oct")
        XCTAssertEqual(unit(.slope(-1.5)), "dBFS, -1.5 dB/oct")
        XCTAssertEqual(unit(.auto), "dBFS, auto tilt")
        XCTAssertEqual(unit(.seed), "dB, seed tilt")
        XCTAssertEqual(unit(.seedUntilted), "dB")
        XCTAssertEqual(unit(.slope(3), .a), "dB(A), +3 dB/oct")
    }
}
