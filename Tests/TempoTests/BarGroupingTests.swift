import XCTest

@testable import Analysis

/// The bar of three needs accents that stand out from chance (`groupingSignificance`): house
/// stabs and fills that follow no bar put some phase of a grouping in three a little above the
/// rest, often enough over `minContrast` to have been read as 3/4.
final class BarGroupingTests: XCTestCase {
    /// Seeded accents around 1 (uniform, ±`spread`), `count` beats.
    private func noise(seed: UInt32, count: Int, spread: Double) -> [Double] {
        var state = seed &* 2_654_435_761 &+ 12_345
        return (0..<count).map { _ in
            state = state &* 1_664_525 &+ 1_013_904_223
            return 1 + spread * (Double(state >> 8) / Double(1 << 23) - 1)
        }
    }

    /// The best phase of a grouping in `perBar` and its contrast (on-mean − off-mean, over the mean).
    private func best(_ a: [Double], perBar: Int) -> (phase: Int, contrast: Double) {
        let mean = a.reduce(0, +) / Double(a.count)
        return (0..<perBar).map { phase -> (Int, Double) in
            let on = a.indices.filter { ($0 - phase) % perBar == 0 }.map { a[$0] }
            let off = a.indices.filter { ($0 - phase) % perBar != 0 }.map { a[$0] }
            return (phase, (on.reduce(0, +) / Double(on.count) - off.reduce(0, +) / Double(off.count)) / mean)
        }.max { $0.1 < $1.1 }!
    }

    func testAccentsThatFollowNoBarAreNoBarOfThree() {
        var byContrast = 0, byBoth = 0
        for seed: UInt32 in 1...300 {
            let a = noise(seed: seed, count: 70, spread: 0.9)
            let three = best(a, perBar: 3), four = best(a, perBar: 4)
            guard three.contrast >= BeatAnalyzer.minContrast, three.contrast > four.contrast else { continue }
            byContrast += 1
            if BeatAnalyzer.groupingSignificance(a, perBar: 3, phase: three.phase) >= BeatAnalyzer.barSignificance { byBoth += 1 }
        }
        // The contrast alone calls a bar of three in one sequence in four (75 of 300); with the
        // significance, in one of those.
        XCTAssertGreaterThan(byContrast, 40)
        XCTAssertLessThanOrEqual(byBoth, 3, "\(byBoth) of \(byContrast)")
    }

    func testAWaltzsAccentsAreABarOfThree() {
        // An accent half again as strong on every third beat, under the same noise, 24 bars;
        // and a drumless waltz's weaker one (a quarter again) over 30 bars.
        for (lift, bars) in [(0.5, 24), (0.25, 30)] {
            var a = noise(seed: 7, count: 3 * bars, spread: 0.6)
            for k in stride(from: 1, to: a.count, by: 3) { a[k] += lift }
            let three = best(a, perBar: 3)
            XCTAssertEqual(three.phase, 1)
            XCTAssertGreaterThan(BeatAnalyzer.groupingSignificance(a, perBar: 3, phase: 1), BeatAnalyzer.barSignificance, "\(lift)")
        }
    }
}
