import Analysis
import Tuning
import XCTest

@testable import Geometry

/// The glide check without video: A4 −50¢ → +50¢ over 4 s (three harmonics,
/// 48 kHz) through the stroboscope analyser and the state mapping at 60 video frames/s.
/// The wheel must turn smoothly, the LED arc sweep from left to right and the strobe
/// bands reverse direction through zero.
final class TunerViewGlideTests: XCTestCase {
    func testSlowGlideAcrossA4() {
        let rate = 48000.0, fps = 60.0, seconds = 4.0
        let perFrame = Int(rate / fps)
        let analyzer = StroboscopeAnalyzer(sampleRate: rate)
        analyzer.setTarget(frequency: 440)
        var state = TunerViewState()
        var chunk = [Float](repeating: 0, count: perFrame)
        var phase = 0.0
        var n = 0
        var previousWheel: Double? = nil
        var velocities: [(cents: Double, v: Float)] = []
        var litSides: [(cents: Double, left: Bool, right: Bool)] = []
        let a4 = Note(midi: 69)
        for _ in 0..<Int(seconds * fps) {
            var cents = 0.0
            for i in 0..<perFrame {
                let t = Double(n) / rate
                cents = -50 + 100 * t / seconds
                let f = 440 * pow(2, cents / 1200)
                phase += 2 * Double.pi * f / rate
                chunk[i] = Float(0.5 * sin(phase) + 0.25 * sin(2 * phase) + 0.12 * sin(3 * phase))
                n += 1
            }
            analyzer.process(chunk)
            let reading = analyzer.reading()
            state.update(frequency: 440 * pow(2, cents / 1200), target: a4, cents: cents, reading: reading, dt: 1 / fps)
            if let p = previousWheel {
                XCTAssertGreaterThanOrEqual(state.wheelPosition, p - 1e-9, "the wheel turns one way")
                XCTAssertLessThan(state.wheelPosition - p, 0.01, "no jumps: under 1¢ per frame")
            }
            previousWheel = state.wheelPosition
            XCTAssertLessThanOrEqual(abs(state.strobeVelocity.max()), 120)
            XCTAssertLessThanOrEqual(abs(state.strobeVelocity.min()), 120)
            velocities.append((cents, state.strobeVelocity[0]))
            let lit = (0..<19).filter { LEDArcMeter.isLit($0, cents: state.cents, detected: state.detected) }
            litSides.append((cents, lit.contains { $0 < 9 }, lit.contains { $0 > 9 }))
        }
        // Strobe: negative (flat) well below zero cents, positive well above, near zero between.
        for (c, v) in velocities where abs(c) > 5 && abs(c) < 45 {
            XCTAssertEqual(v > 0, c > 0, "harmonic 1 drifts with the sign of the cents at \(c)¢")
            let expected = Float(2 * Double.pi * 440 * (pow(2, c / 1200) - 1))
            XCTAssertEqual(v, expected, accuracy: max(1.5, abs(expected) * 0.1), "velocity at \(c)¢")
        }
        // LED arc sweeps: left side lit early, right side late, centre only near zero.
        XCTAssertTrue(litSides.filter { $0.cents < -8 }.allSatisfy { $0.left && !$0.right })
        XCTAssertTrue(litSides.filter { $0.cents > 8 }.allSatisfy { $0.right && !$0.left })
        XCTAssertTrue(litSides.filter { abs($0.cents) < 3 }.allSatisfy { !$0.left && !$0.right })
    }
}
