import XCTest

@testable import Analysis

/// The metrical level model (issue 37): probabilities, and the priors that keep it from
/// choosing a level where it has no evidence.
final class LevelModelTests: XCTestCase {
    private func grid(mid: Double, alternation: Double, triplet: Double = 0.1, quarter: Double = 0.1) -> GridFeatures {
        GridFeatures(mid: mid, alternation: alternation, triplet: triplet, quarter: quarter)
    }

    private func p(_ tempo: Double, _ b: GridFeatures, _ l: GridFeatures, _ m: GridFeatures) -> [Double] {
        LevelModel.probabilities(LevelModel.features(tempo: tempo, broad: b, low: l, mid: m))
    }

    /// Three probabilities that sum to 1, for any grid the fitted weights are given.
    func testProbabilitiesSumToOne() {
        for tempo in [80.0, 95, 120, 159] {
            for mid in [0.0, 0.3, 0.9] {
                let g = grid(mid: mid, alternation: 0.5)
                let q = p(tempo, g, g, g)
                XCTAssertEqual(q.count, 3)
                XCTAssertEqual(q.reduce(0, +), 1, accuracy: 1e-9)
                XCTAssertTrue(q.allSatisfy { $0 >= 0 && $0 <= 1 }, "\(tempo) \(mid): \(q)")
            }
        }
    }

    /// The likeliest level, and the folded one when nothing is larger (probabilities that are
    /// not numbers).
    func testLikeliestKeepsTheFoldedLevelUnlessAnotherIsLarger() {
        XCTAssertEqual(LevelModel.likeliest([0.7, 0.2, 0.1]), 0)
        XCTAssertEqual(LevelModel.likeliest([0.1, 0.2, 0.7]), 2)
        XCTAssertEqual(LevelModel.likeliest([0.4, 0.4, 0.2]), 1)
        XCTAssertEqual(LevelModel.likeliest([.nan, .nan, .nan]), 1)
    }

    /// A folded beat of 100 BPM is tapped at 100: not 50 (slower than 55) nor 200 (faster
    /// than 184), whatever its bands say.
    func testTheTempoPriorKeepsTappedBeatsBetween55And184() {
        for mid in [0.0, 0.5, 1.5] {
            for alternation in [0.1, 0.5, 1.0] {
                let g = grid(mid: mid, alternation: alternation, quarter: 0.6)
                let q = p(100, g, g, g)
                XCTAssertEqual(q[0], 0, "\(mid) \(alternation): \(q)")
                XCTAssertEqual(q[2], 0, "\(mid) \(alternation): \(q)")
            }
        }
    }

    /// Half the beat needs alternate beats that differ in some band; twice it needs something
    /// half-way between beats in some band.
    func testLevelsNeedTheirEvidence() {
        let alike = grid(mid: 0.05, alternation: 0.95)
        XCTAssertEqual(p(140, alike, alike, alike)[0], 0, "alternate beats alike: nothing to tap at half the rate")
        let bare = grid(mid: 0.1, alternation: 0.9, quarter: 0.5)
        XCTAssertEqual(p(85, bare, bare, bare)[2], 0, "nothing half-way: nothing to tap at twice the rate")
        // A slow ballad's grid at 140 (kick and snare on alternate folded beats, little between)
        // is half the folded beat; drum & bass at 87 (snare and kicks half-way, hats between) twice.
        let ballad = p(140, grid(mid: 0.12, alternation: 0.5), grid(mid: 0.2, alternation: 0.3), grid(mid: 0.2, alternation: 0.65))
        XCTAssertGreaterThan(ballad[0], 0.5, "\(ballad)")
        let dnb = p(87, grid(mid: 0.75, alternation: 0.99, quarter: 0.8), grid(mid: 1.7, alternation: 0.8, quarter: 0.6), grid(mid: 0.35, alternation: 0.98))
        XCTAssertGreaterThan(dnb[2], 0.5, "\(dnb)")
    }
}
