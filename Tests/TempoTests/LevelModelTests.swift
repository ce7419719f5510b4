import XCTest

@testable import Analysis

/// The metrical level model (issue 37): probabilities, and the priors that keep it from
/// choosing a level where it has no evidence.
final class LevelModelTests: XCTestCase {
    private func grid(mid: Double, alternation: Double, triplet: Double = 0.1, quarter: Double = 0.1) -> GridFeatures {
        GridFeatures(mid: mid, alternation: alternation, triplet: triplet, quarter: quarter)
    }

    private func p(_ tempo: Double, _ b: GridFeatures, _ l: GridFeatures, _ m: GridFeatures, fit: LevelModel.Fit = .track) -> [Double] {
        LevelModel.probabilities(LevelModel.features(tempo: tempo, broad: b, low: l, mid: m), fit: fit)
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

    /// The live fit shares the inputs and the priors: probabilities that sum to 1, no tapped
    /// beat outside 55–184 BPM, and the same reading of a ballad's and a drum & bass grid.
    func testTheLiveFitSharesInputsAndPriors() {
        XCTAssertEqual(LevelModel.liveWeights.count, 3)
        XCTAssertTrue(LevelModel.liveWeights.allSatisfy { $0.count == LevelModel.inputs })
        for tempo in [80.0, 100, 140] {
            let g = grid(mid: 0.9, alternation: 0.4, quarter: 0.6)
            let q = p(tempo, g, g, g, fit: .live)
            XCTAssertEqual(q.reduce(0, +), 1, accuracy: 1e-9)
            if tempo == 100 { XCTAssertEqual(q[0] + q[2], 0, "\(q)") }
        }
        let ballad = p(140, grid(mid: 0.12, alternation: 0.5), grid(mid: 0.2, alternation: 0.3), grid(mid: 0.2, alternation: 0.65), fit: .live)
        XCTAssertGreaterThan(ballad[0], 0.5, "\(ballad)")
        let dnb = p(
            87, grid(mid: 0.75, alternation: 0.99, quarter: 0.8), grid(mid: 1.7, alternation: 0.8, quarter: 0.6),
            grid(mid: 0.35, alternation: 0.98), fit: .live)
        XCTAssertGreaterThan(dnb[2], 0.5, "\(dnb)")
    }

    /// The live level's filter: two confident readings move it, readings that waver between
    /// two levels never do, and a level the readings ruled out comes back through the leak,
    /// not on one reading.
    func testTheLiveFilterMovesOnConfidentReadingsOnly() {
        let live = TempoTracker(sampleRate: 44_100)
        live.observeLevel(SIMD3(0.01, 0.01, 0.98))
        live.observeLevel(SIMD3(0.01, 0.01, 0.98))
        XCTAssertGreaterThan(live.levelBelief[2], TempoTracker.levelSure, "\(live.levelBelief)")
        live.levelBelief = TempoTracker.startBelief
        for i in 0..<40 { live.observeLevel(i % 2 == 0 ? SIMD3(0.05, 0.35, 0.6) : SIMD3(0.05, 0.6, 0.35)) }
        XCTAssertLessThan(max(live.levelBelief[0], live.levelBelief[2]), TempoTracker.levelSure, "\(live.levelBelief)")
        XCTAssertGreaterThan(live.levelBelief[1], live.levelBelief[2])
        for _ in 0..<20 { live.observeLevel(SIMD3(0, 0.9, 0.1)) }
        XCTAssertEqual(live.levelBelief[0], 0, "ruled out by the readings")
        live.observeLevel(SIMD3(0.9, 0.1, 0))
        XCTAssertGreaterThan(live.levelBelief[0], 0, "the leak lets ½ come back")
        XCTAssertLessThan(live.levelBelief[0], TempoTracker.levelSure, "but not on one reading")
        live.observeLevel(SIMD3(0, 0, 0))
        XCTAssertEqual(live.levelBelief, TempoTracker.startBelief, "every level ruled out: back to the start")
    }
}
