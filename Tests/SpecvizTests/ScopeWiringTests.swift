import Geometry
import Specviz
import SpecvizCore
import SpecvizTestSupport
import XCTest

/// `--mode scope` through the render pipeline (issue 17): the trigger listens to the feed,
/// each frame adds a trace, and stills far apart on a periodic sound are the same picture.
final class ScopeWiringTests: XCTestCase {
    func testRenderedStillsOfA110HzToneStandStill() throws {
        let rate = 44100
        // 110 Hz with two harmonics: several zero crossings per period for the trigger to choose from.
        let tone: [Float] = (0..<(rate * 6)).map { i in
            let w = 2 * Double.pi * 110 * Double(i) / Double(rate)
            return Float(0.3 * sin(w) + 0.2 * sin(2 * w + 0.7) + 0.15 * sin(3 * w + 2))
        }
        var s = RenderSettings()
        s.mode = .scope; s.width = 192; s.height = 108; s.labels = false; s.fps = 30
        let job = RenderJob(source: BufferAudioSource(samples: tone, sampleRate: rate), settings: s, glyphs: nil)
        XCTAssertNotNil(job.trackers?.scope, "scope mode runs the trigger")
        let early = try job.still(at: 1.0)
        XCTAssertEqual(job.composer.state.scope.count, ScopeTraces.capacity)
        let late = try job.still(at: 5.0)
        let (differing, _) = GoldenFrame.compare(early, late, tolerance: 8)
        XCTAssertLessThan(Double(differing) / Double(early.pixels.count), 0.002, "\(differing) pixels moved")
        // And the trace is drawn: bright green pixels exist beyond the grid.
        let bright = late.pixels.filter { ($0 >> 8) & 0xFF > 200 }.count
        XCTAssertGreaterThan(bright, 100)
    }
}
