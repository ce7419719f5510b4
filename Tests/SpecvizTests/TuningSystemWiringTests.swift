import Specviz
import SpecvizTestSupport
import Tuning
import XCTest

/// Issue 19: the tuner overlay and view (render, live) take the same temperament and
/// transposition as `tune`.
final class TuningSystemWiringTests: XCTestCase {
    func testOverlayShowsWrittenPitchAndTemperedCents() {
        // Sounding E4 in Werckmeister III on C (−9.8 ¢ from equal), on a B♭ instrument: F#4 at 0 ¢.
        let system = TuningSystem(temperament: .werckmeister3, transpose: 2)
        var settings = RenderSettings()
        settings.mode = .tuner
        settings.tuningSystem = system
        let e4 = system.frequency(of: Note(name: "E4")!)
        let samples = Signals.sines([(Double(e4), 0.4), (Double(2 * e4), 0.2)], seconds: 1.0)
        let plain = OverlayTrackers(sampleRate: 44100, pitch: true, tempo: false)
        guard let trackers = OverlayTrackers.forRender(settings, sampleRate: 44100) else { return XCTFail("no trackers") }
        samples.withUnsafeBufferPointer {
            trackers.process($0); plain.process($0)
        }
        let o = trackers.tunerOverlay
        XCTAssertEqual(o?.note, "F#4")
        XCTAssertEqual(o?.cents ?? 99, 0, accuracy: 0.5)
        XCTAssertEqual(plain.tunerOverlay?.note, "E4")
        XCTAssertEqual(plain.tunerOverlay?.cents ?? 99, -9.8, accuracy: 0.5)
    }
}
