import SpecvizTestSupport
import XCTest

@testable import Analysis

/// Issue 39 item 3: the automatic level scale does not pump, and its values are round.
final class AutoLevelTests: XCTestCase {
    /// `seconds` of a 1 kHz tone that switches between amplitude 0.5 and 0.02 every `period` s.
    func alternating(seconds: Double, period: Double, rate: Int = 44100) -> [Float] {
        let n = Int(seconds * Double(rate))
        return (0..<n).map { i in
            let t = Double(i) / Double(rate)
            let loud = Int(t / period) % 2 == 0
            return Float(sin(2 * Double.pi * 1000 * t)) * (loud ? 0.5 : 0.02)
        }
    }

    /// Tops of every hop of `samples` through an analyser with `config`.
    func tops(_ samples: [Float], config: AnalysisConfig) -> [Float] {
        let a = SpectrumAnalyzer(sampleRate: 44100, config: config)
        var f = SpectrumFrame()
        var out: [Float] = []
        var i = 0
        let hop = a.hopSize
        while i + hop <= samples.count {
            samples.withUnsafeBufferPointer { a.process(UnsafeBufferPointer(rebasing: $0[i..<(i + hop)]), into: &f) }
            out.append(f.dbTop)
            XCTAssertEqual(f.dbTop - f.dbBottom, AutoLevel.span)
            i += hop
        }
        return out
    }

    func testLoudQuietEveryHalfSecondKeepsTheTopTick() {
        for config in [AnalysisConfig(), AnalysisConfig.seed(musicMode: false)] {
            let t = tops(alternating(seconds: 11, period: 0.5), config: config)
            let perSecond = Double(t.count) / 11
            // After the first second, the top never moves for the 10 s left.
            let settled = Array(t[Int(perSecond)...])
            XCTAssertEqual(Set(settled).count, 1, "top moved: \(Set(settled).sorted())")
            for top in t { XCTAssertEqual(top.truncatingRemainder(dividingBy: AutoLevel.grid), 0, "\(top) is not round") }
        }
    }

    func testRisesAtOnceFallsAfterTheHold() {
        var level = AutoLevel()
        XCTAssertEqual(level.top, -50)
        level.update(loudest: -12, seconds: 0.05)
        XCTAssertEqual(level.top, -10, "−12 dB + 1 dB headroom rounds up to −10")
        // Quiet: the top holds for holdSeconds, then falls to the followed peak's grid line.
        var t: Float = 0
        while t < AutoLevel.holdSeconds - 0.1 {
            level.update(loudest: -60, seconds: 0.05)
            t += 0.05
        }
        XCTAssertEqual(level.top, -10)
        for _ in 0..<200 { level.update(loudest: -60, seconds: 0.05) }
        XCTAssertEqual(level.top, -50, "settles at its lowest")
        // A loud hop lifts it in one step.
        level.update(loudest: -1, seconds: 0.05)
        XCTAssertEqual(level.top, 0)
    }
}
