import Analysis
import SpecvizCore
import Tuning
import XCTest

@testable import Geometry

/// Behaviour of the tuner view's meters and of the stroboscope analyser, on synthetic
/// states and synthesised tones.
final class TunerViewTests: XCTestCase {
    // MARK: LED arc

    func testLEDArcLightsTheRightSegments() {
        let c = LEDArcMeter.centre
        func lit(_ cents: Double) -> [Int] { (0..<19).filter { LEDArcMeter.isLit($0, cents: cents, detected: true) } }
        XCTAssertEqual(lit(0), [c], "in tune: only the centre")
        XCTAssertEqual(lit(-4.9), [c])
        XCTAssertEqual(lit(7), [c + 1], "5–10¢ sharp: first right segment")
        XCTAssertEqual(lit(12), [c + 1, c + 2], "12¢ sharp: two right segments")
        XCTAssertEqual(lit(-30), Array((c - 5)..<c), "30¢ flat: five left segments")
        XCTAssertEqual(lit(48), Array((c + 1)...18))
        XCTAssertEqual(lit(-300), Array(0..<c), "far out: all nine on that side")
        XCTAssertEqual((0..<19).filter { LEDArcMeter.isLit($0, cents: 0, detected: false) }, [], "--- lights nothing")
    }

    func testLEDsFollowTheArchSymmetrically() {
        let chassis = CRTChassis(x: 100, y: 50, width: 650, height: 500)
        var points = [SIMD2<Float>](repeating: .zero, count: 19)
        LEDArcMeter.forEachLED(on: chassis, drop: 0) { k, p, _ in points[k] = p }
        XCTAssertEqual(points[9].x, chassis.centreX, accuracy: 0.5)
        XCTAssertEqual(points[9].y, chassis.y, accuracy: 0.5, "centre LED at the apex")
        for k in 0..<9 {
            XCTAssertEqual(points[k].x + points[18 - k].x, 2 * chassis.centreX, accuracy: 0.5)
            XCTAssertEqual(points[k].y, points[18 - k].y, accuracy: 0.5)
            XCTAssertGreaterThan(points[k + 1].x, points[k].x)
            XCTAssertEqual(points[k].y, chassis.archY(atX: points[k].x), accuracy: 0.5, "LED on the arch")
        }
        // Equal arc length: neighbouring chords are about equal.
        func d(_ a: Int, _ b: Int) -> Float { let v = points[a] - points[b]; return (v * v).sum().squareRoot() }
        XCTAssertEqual(d(0, 1), d(8, 9), accuracy: d(8, 9) * 0.03)
    }

    // MARK: Note wheel

    func testWheelAngleFollowsCentsContinuously() {
        let spacing: Float = 0.1
        var previous: Float? = nil
        // A glide from −50¢ to +50¢ around A4, 0.5¢ a step: the target note's spoke turns
        // monotonically, by exactly spacing/100 per cent, with no jump at the note boundary.
        for i in 0...200 {
            let cents = -50 + Double(i) * 0.5
            var s = TunerViewState(target: Note(midi: 69), cents: cents)
            s.wheelPosition = 69 + cents / 100
            let a = NoteWheelMeter.angle(ofMidi: 69, position: s.wheelPosition, spacing: spacing)
            XCTAssertEqual(a, -Float(cents / 100) * spacing, accuracy: 1e-6)
            if let p = previous { XCTAssertEqual(a - p, -0.005 * spacing, accuracy: 1e-6) }
            previous = a
        }
        // Crossing from A4 +50¢ to A#4 −50¢ (the target flips) keeps the wheel where it is.
        let sharpA = TunerViewState(target: Note(midi: 69), cents: 49.9)
        let flatBb = TunerViewState(target: Note(midi: 70), cents: -50.1)
        XCTAssertEqual(sharpA.wheelPosition, flatBb.wheelPosition, accuracy: 1e-9)
    }

    func testWheelLabelsAndTicksShareSpokes() {
        let c = CRTChassis(x: 0, y: 0, width: 650, height: 500)
        let hub = NoteWheelMeter.hub(c)
        for theta: Float in [-0.2, -0.05, 0, 0.13] {
            let tick = NoteWheelMeter.spokePoint(c, theta: theta, drop: 50)
            let label = NoteWheelMeter.spokePoint(c, theta: theta, drop: 245)
            let a = tick - hub, b = label - hub
            // Collinear with the hub: cross product ≈ 0.
            XCTAssertEqual(a.x * b.y - a.y * b.x, 0, accuracy: 0.5 * (a * a).sum().squareRoot())
            XCTAssertEqual(tick.y, c.archY(atX: tick.x) + 50, accuracy: 0.5, "tick end on the translated arch")
        }
    }

    // MARK: State mapping

    func testStateMappingSmoothsAndReleases() {
        var s = TunerViewState()
        let a4 = Note(midi: 69)
        s.update(frequency: 445, target: a4, cents: 20, reading: nil, dt: 1.0 / 60)
        XCTAssertTrue(s.detected)
        XCTAssertEqual(s.cents, 20, accuracy: 1e-9, "a new note snaps")
        s.update(frequency: 440, target: a4, cents: 0, reading: nil, dt: 1.0 / 60)
        XCTAssertGreaterThan(s.cents, 5, "then glides (60 ms time constant)")
        XCTAssertLessThan(s.cents, 20)
        for _ in 0..<60 { s.update(frequency: 440, target: a4, cents: 0, reading: nil, dt: 1.0 / 60) }
        XCTAssertEqual(s.cents, 0, accuracy: 0.01)
        XCTAssertTrue(s.inTune)
        let position = s.wheelPosition
        s.update(frequency: nil, target: a4, cents: 0, reading: nil, dt: 1.0 / 60)
        XCTAssertFalse(s.detected)
        XCTAssertFalse(s.inTune)
        XCTAssertEqual(s.wheelPosition, position, "the wheel rests through ---")
    }

    func testStrobePhaseIntegratesWithCap() {
        let p = TunerViewState.advance(.zero, velocity: SIMD4(10, -10, 500, -500), dt: 0.01)
        XCTAssertEqual(p[0], 0.1, accuracy: 1e-5)
        XCTAssertEqual(p[1], 2 * Float.pi - 0.1, accuracy: 1e-5)
        XCTAssertEqual(p[2], 1.2, accuracy: 1e-5, "capped at 120 rad/s")
        XCTAssertEqual(p[3], 2 * Float.pi - 1.2, accuracy: 1e-5)
    }

    // MARK: Stroboscope analyser

    /// Velocity of each harmonic for a tone with 4 harmonics at `cents` from A4.
    private func strobe(cents: Double, sampleRate: Double = 48000) -> StrobeReading {
        let analyzer = StroboscopeAnalyzer(sampleRate: sampleRate)
        analyzer.setTarget(frequency: 440)
        let f = 440 * pow(2, cents / 1200)
        let n = Int(sampleRate * 0.5)
        var x = [Float](repeating: 0, count: n)
        for i in 0..<n {
            let t = Double(i) / sampleRate
            var v = 0.0
            for k in 1...4 { v += 0.4 / Double(k) * sin(2 * Double.pi * Double(k) * f * t + Double(k)) }
            x[i] = Float(v)
        }
        analyzer.process(Array(x[0..<(n / 2)]))
        _ = analyzer.reading()
        analyzer.process(Array(x[(n / 2)...]))
        return analyzer.reading()
    }

    func testStrobeVelocityReversesThroughZeroAndIsCapped() {
        for cents in [-3.0, -1.0, 1.0, 3.0] {
            let r = strobe(cents: cents)
            let df = 440 * pow(2, cents / 1200) - 440
            for k in 0..<4 {
                let expected = Float(2 * Double.pi * Double(k + 1) * df)
                XCTAssertEqual(
                    r.velocity[k], expected, accuracy: max(0.5, abs(expected) * 0.05),
                    "harmonic \(k + 1) at \(cents)¢")
                XCTAssertEqual(r.velocity[k] > 0, cents > 0, "sign follows sharp/flat")
            }
            XCTAssertGreaterThan(r.energy[0], 0.8)
            XCTAssertGreaterThan(r.energy[3], 0.5)
        }
        let still = strobe(cents: 0)
        for k in 0..<4 { XCTAssertEqual(still.velocity[k], 0, accuracy: 0.2, "in tune: still") }
        // 30¢ flat: harmonic 1 drifts at 2π·7.6 Hz ≈ −48 rad/s, harmonics 3 and 4 would exceed 120.
        let flat = strobe(cents: -30)
        XCTAssertEqual(flat.velocity[0], Float(2 * Double.pi * (440 * pow(2, -30.0 / 1200) - 440)), accuracy: 2)
        XCTAssertEqual(flat.velocity[2], -120, accuracy: 1e-4, "capped at 120 rad/s")
        XCTAssertEqual(flat.velocity[3], -120, accuracy: 1e-4)
        let sharp = strobe(cents: 30)
        XCTAssertEqual(sharp.velocity[3], 120, accuracy: 1e-4)
    }

    func testStrobeIsDarkAndStillWithoutSound() {
        let analyzer = StroboscopeAnalyzer(sampleRate: 44100)
        analyzer.setTarget(frequency: 110)
        analyzer.process([Float](repeating: 0, count: 8192))
        let r = analyzer.reading()
        XCTAssertEqual(r.energy, .zero)
        XCTAssertEqual(r.velocity, .zero)
    }

    // MARK: Sub-meters

    func testSubMeterIndicators() {
        XCTAssertEqual(FineTuneRuler.indicatorFraction(cents: 0), 0.5)
        XCTAssertEqual(FineTuneRuler.indicatorFraction(cents: 250), 1, "pins at +100¢")
        XCTAssertEqual(FineTuneRuler.indicatorFraction(cents: -250), 0, "pins at −100¢")
        XCTAssertEqual(FineTuneRuler.tickLevel(0), 1)
        XCTAssertGreaterThan(FineTuneRuler.tickLevel(25), FineTuneRuler.tickLevel(10))
        XCTAssertGreaterThan(FineTuneRuler.tickLevel(10), FineTuneRuler.tickLevel(5))
        XCTAssertGreaterThan(FineTuneRuler.tickLevel(5), FineTuneRuler.tickLevel(3))
        XCTAssertEqual(InfoBar.lit(cents: 4), 0)
        XCTAssertEqual(InfoBar.lit(cents: -12), 1)
        XCTAssertEqual(InfoBar.lit(cents: 30), 2)
        XCTAssertEqual(ChromaticStrip.indicatorFraction(cents: 0), 0.5)
        XCTAssertEqual(ChromaticStrip.indicatorFraction(cents: 100), 0.5 + 1.0 / 9, accuracy: 1e-6, "one cell per semitone")
        XCTAssertEqual(TunerFormat.cents(12.34), "+12.3\u{00A2}")
        XCTAssertEqual(TunerFormat.cents(-30), "\u{2212}30.0\u{00A2}")
        XCTAssertEqual(TunerFormat.hertz(440.24), "440.2 Hz")
    }
}
