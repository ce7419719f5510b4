import Analysis
import SpecvizCore
import Tuning
import XCTest

@testable import Geometry

/// Issue 39 item 6: every tuner display classes a reading by the same limits
/// (`TuningTolerance`), so none shows green while another shows red.
final class TuningToleranceTests: XCTestCase {
    /// The readings the issue found disagreeing, and the class a tuner user expects.
    let cases: [(cents: Double, expected: TuningClass)] = [
        (-29, .far), (6.9, .near), (-6.9, .near), (4, .inTune), (-4, .inTune), (15, .near), (15.1, .far),
    ]

    func testLimits() {
        XCTAssertEqual(TuningTolerance.classify(cents: 5), .inTune)
        XCTAssertEqual(TuningTolerance.classify(cents: -5.01), .near)
        XCTAssertEqual(TuningTolerance.classify(cents: .nan), .far)
        for c in cases { XCTAssertEqual(TuningTolerance.classify(cents: c.cents), c.expected, "\(c.cents)¢") }
    }

    func testEveryDisplayGivesTheSameClass() {
        let overlay: [TuningClass: SIMD4<Float>] = [.inTune: SIMD4(0.2, 1, 0.4, 1), .near: SIMD4(1, 0.85, 0.2, 1), .far: SIMD4(1, 0.3, 0.25, 1)]
        let chart: [TuningClass: SIMD4<Float>] = [.inTune: IntonationChart.inTune, .near: IntonationChart.close, .far: IntonationChart.off]
        let meter: [TuningClass: SIMD4<Float>] = [.inTune: TunerColors.white, .near: TunerColors.amber, .far: TunerColors.red]
        let bar: [TuningClass: Int] = [.inTune: 0, .near: 1, .far: 2]
        for (cents, expected) in cases {
            let what = "\(cents)¢"
            // The overlay in bars/curve/surface.
            XCTAssertEqual(TunerOverlay(note: "A1", cents: cents, frequency: 55).color, overlay[expected], what)
            // The tuner view: its settled state, the LED arc, the info bar, the meters' pointers.
            let s = TunerViewState(target: Note(midi: 33), cents: cents)
            XCTAssertEqual(s.tuningClass, expected, what)
            XCTAssertEqual(s.inTune, expected == .inTune, what)
            XCTAssertEqual(LEDArcMeter.isLit(LEDArcMeter.centre, cents: s.cents, detected: true), expected == .inTune, what)
            XCTAssertEqual(LEDArcMeter.sideCount(cents: s.cents) > 0, expected != .inTune, what)
            if expected != .inTune { XCTAssertEqual(LEDArcMeter.sideHue(s.tuningClass), meter[expected], what) }
            XCTAssertEqual(InfoBar.lit(cents: s.cents), bar[expected], what)
            XCTAssertEqual(TunerColors.reading(s.tuningClass), meter[expected], what)
            // `tune`'s summary verdict and the `--report` chart.
            XCTAssertEqual(TuneSummary.verdict(cents: cents) == "in tune", expected == .inTune, what)
            XCTAssertEqual(IntonationChart.color(cents: cents), chart[expected], what)
        }
    }
}

/// Issue 39 item 3: the dB axis shows round values.
final class DBTicksTests: XCTestCase {
    func testTicksAreRoundMultiples() {
        XCTAssertEqual(Labels.dBTicks(bottom: -62, top: -22), [-60, -50, -40, -30])
        XCTAssertEqual(Labels.dBTicks(bottom: -60, top: -20), [-60, -50, -40, -30, -20])
        XCTAssertEqual(Labels.dBTicks(bottom: -30, top: -12), [-30, -25, -20, -15])
        XCTAssertEqual(Labels.dBTicks(bottom: -10, top: -4), [-10, -8, -6, -4])
        XCTAssertEqual(Labels.dBTicks(bottom: 0, top: 0), [])
    }
}
