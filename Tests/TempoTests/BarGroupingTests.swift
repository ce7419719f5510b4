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

    /// The cues of a generated reggae one-drop (dev6969 reggae_02, `tempo --json`'s
    /// "downbeat"), per phase of four from its first beat: nothing at all in the low band on the
    /// downbeat (phase 3), the kick two beats later (phase 1), the chords changing on the
    /// downbeat and, less, on the beat after it (phase 0, where the weights fitted on the public
    /// set alone put the downbeat).
    func testAOneDropsDownbeatIsItsEmptyBeat() {
        let means: [[Double]] = [
            [1.11, 1.02, 0.89, 1.41, 1.07, 1.20, 1.59, 1.31],
            [1.66, 1.48, 1.22, 1.15, 1.44, 1.48, 0.30, 0.60],
            [1.17, 1.06, 1.10, 0.53, 0.45, 0.35, 0.46, 0.42],
            [0.00, 0.41, 0.77, 0.87, 1.00, 0.92, 1.65, 1.68],
        ]
        XCTAssertEqual(BeatAnalyzer.downbeatPhase(means: means), 3)
        // A rock bar (kick on 1 and 3, snare on 2 and 4, the chords changing on 1) keeps its
        // downbeat on the kick where the chords change.
        let rock: [[Double]] = [
            [1.6, 0.6, 1.2, 1.5, 1.3, 1.4, 1.6, 1.5],
            [0.4, 1.4, 0.9, 0.8, 0.9, 0.9, 0.8, 0.8],
            [1.6, 0.6, 1.0, 0.9, 0.9, 0.9, 0.8, 0.9],
            [0.4, 1.4, 0.9, 0.8, 0.9, 0.8, 0.8, 0.8],
        ]
        XCTAssertEqual(BeatAnalyzer.downbeatPhase(means: rock), 0)
    }
}
