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

/// Issue 39 item 6: an unsure reading (the pitched source does not dominate its band) is
/// never shown as confident cents on the tuner view: grey, "?¢", no lit triangles, no glow.
final class TunerUnsureViewTests: XCTestCase {
    func testUnsureReadingIsGreyEverywhere() {
        let reading = TunerReading(
            frequency: 55 * pow(2, -28.0 / 1200), note: Note(midi: 33), cents: -28, target: Note(midi: 33), inTune: false,
            confidence: 0.9, unsure: true)
        var s = TunerViewState()
        s.update(reading, strobe: nil, dt: 1)
        XCTAssertTrue(s.detected)
        XCTAssertTrue(s.unsure)
        XCTAssertFalse(s.inTune)
        XCTAssertEqual(TunerColors.reading(s), TunerColors.unsure)
        var scene = Scene(width: 640, height: 60)
        InfoBar().build(s, rect: PixelRect(x0: 0, y0: 0, x1: 640, y1: 60), scale: 1, text: true, into: &scene)
        let texts = scene.items.compactMap { item -> String? in if case .text(let r) = item { return r.text } else { return nil } }
        XCTAssertTrue(texts.contains("?\u{00A2}"), "\(texts)")
        XCTAssertFalse(texts.contains { $0.contains("28") }, "\(texts)")
        // The same reading, sure: red cents.
        var sure = reading
        sure.unsure = false
        s.update(sure, strobe: nil, dt: 1)
        XCTAssertFalse(s.unsure)
        XCTAssertEqual(TunerColors.reading(s), TunerColors.red)
    }
}
