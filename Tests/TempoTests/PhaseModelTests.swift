import XCTest

@testable import Analysis

/// `PhaseModel`: P(a stretch of the offline grid is half a beat off) from where the bands fall
/// on its beats and half-beats (issue 37).
final class PhaseModelTests: XCTestCase {
    /// Inputs (`BeatAnalyzer.phaseInputs`) of the programme's first 32 beats on three tracks of
    /// the development set dev3: house on the off-beat (kicks far off the grid, on 90 % of its
    /// half-beats, the backbeat on its half-beats); funk on the beat, whose kicks fall as often
    /// half-way as on it (the network decides); rock on the beat, its kicks 7 times stronger on
    /// the beats than half-way (the prior decides).
    private let houseOffTheBeat: [Double] = [0.21, -1.51, 0.9, 0.29, 0.2, 0.53, 1.48, -0.45, 0.69, -2.08, -1.31]
    private let funkOnTheBeat: [Double] = [0.01, 0.02, 0.52, 0.61, 0.33, 0.56, 0.53, 0.06, 0.31, -0.31, -0.14]
    private let rockOnTheBeat: [Double] = [-0.25, 2.01, 0.29, 0.97, 0.31, 0.01, 0.84, 1.77, 0.69, 2.19, 1.26]

    func testHouseOffTheBeatFunkAndRockOnIt() {
        XCTAssertGreaterThan(PhaseModel.offBeat(houseOffTheBeat), 0.9)
        XCTAssertLessThan(PhaseModel.offBeat(funkOnTheBeat), 0.1)
        XCTAssertEqual(PhaseModel.offBeat(rockOnTheBeat), 0)
        // Without the kicks' prior the network alone still reads rock on the beat.
        var weaker = rockOnTheBeat
        weaker[1] = PhaseModel.kicksMark - 0.01
        XCTAssertLessThan(PhaseModel.offBeat(weaker), 0.1)
    }

    /// More of the kicks or of any band on the beats never makes the off-beat likelier, and more
    /// kicks on the half-beats never makes it less likely, anywhere (the fit keeps the signs of
    /// the weights), so a recording unlike the generated ones cannot turn the evidence round.
    func testMonotoneInEveryInputButTheTempo() {
        var random = SystemRandomNumberGenerator()
        let towardsOff: [Double] = [0, -1, 1, -1, -1, -1, -1, -1, -1, -1, -1]
        for _ in 0..<2000 {
            let x = (0..<towardsOff.count).map { j in j == 0 ? Double.random(in: -1...1, using: &random) : Double.random(in: -4...4, using: &random) }
            let p = PhaseModel.offBeat(x)
            for j in 1..<x.count {
                var y = x
                y[j] += towardsOff[j] * 0.5
                XCTAssertGreaterThanOrEqual(PhaseModel.offBeat(y), p - 1e-12, "input \(j) at \(x)")
            }
        }
    }

    func testLogOddsAreBounded() {
        XCTAssertEqual(PhaseModel.logOdds(0.5), 0, accuracy: 1e-12)
        XCTAssertEqual(PhaseModel.logOdds(1), log(99.0), accuracy: 1e-12)
        XCTAssertEqual(PhaseModel.logOdds(0), -log(99.0), accuracy: 1e-12)
        XCTAssertEqual(PhaseModel.logOdds(0.75), log(3.0), accuracy: 1e-12)
    }
}
