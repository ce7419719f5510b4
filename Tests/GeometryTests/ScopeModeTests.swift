import Analysis
import Geometry
import MediaIO
import SpecvizCore
import SpecvizTestSupport
import XCTest

/// The oscilloscope's picture (issue 17): grid, newest trace on top, fading persistence.
final class ScopeModeTests: XCTestCase {
    /// Visual state after `frames` video frames (30 fps) of `samples` through the trigger.
    static func state(_ samples: [Float], frames: Int) -> VisualState {
        let trigger = ScopeTrigger(sampleRate: 44100)
        var st = VisualState()
        var read = 0
        for k in 0..<frames {
            let t = Double(k) / 30
            while read + 2048 <= samples.count && Double(read + 2048) / 44100 <= t {
                samples[read..<(read + 2048)].withUnsafeBufferPointer { trigger.process($0) }
                read += 2048
            }
            trigger.capture()
            st.time = t
            st.scope.push(trigger.trace, gain: trigger.displayGain, time: t)
        }
        return st
    }

    /// A 110 Hz tone with its second and third harmonics (peak ≈ 0.5) plus, from 0.5 s on, a
    /// slow amplitude wobble so the persistence shows.
    static func tone(seconds: Double) -> [Float] {
        (0..<Int(seconds * 44100)).map { i in
            let t = Double(i) / 44100, w = 2 * Double.pi * 110 * t
            let a = 1 + (t > 0.5 ? 0.3 * sin(2 * Double.pi * 3 * t) : 0)
            return Float(a * (0.3 * sin(w) + 0.15 * sin(2 * w + 0.5) + 0.08 * sin(3 * w + 1)))
        }
    }

    func testSilenceDrawsAFlatLine() {
        let st = ScopeModeTests.state([Float](repeating: 0, count: 44100), frames: 20)
        let layout = Layout(width: 320, height: 180, labels: false)
        var sc = Scene(width: 320, height: 180)
        ScopeMode().build(st, layout: layout, into: &sc)
        let area = ScopeMode.area(layout)
        // The newest trace is the last 511 segments (6 vertices each): all on the centre line.
        let trace = sc.vertices2D.suffix(511 * 6)
        let halfPixel = 1.5 * layout.clipPerPixel.y
        for v in trace { XCTAssertEqual(v.position.y, area.center.y, accuracy: halfPixel) }
        XCTAssertEqual(trace.map(\.position.x).min()!, area.x0, accuracy: 1e-4)
        XCTAssertEqual(trace.map(\.position.x).max()!, area.x1, accuracy: 1e-4)
    }

    func testPersistenceKeepsRecentTracesOnly() {
        let st = ScopeModeTests.state(ScopeModeTests.tone(seconds: 2), frames: 40)
        let layout = Layout(width: 320, height: 180, labels: false)
        var sc = Scene(width: 320, height: 180)
        ScopeMode().build(st, layout: layout, into: &sc)
        let grid = (ScopeMode.divisionsX + 1 + ScopeMode.divisionsY + 1) * 6
        // 0.15 s at 30 fps: the newest (core and glow) and the 4 before it (ages 1/30…4/30 s).
        XCTAssertEqual(sc.vertices2D.count, grid + 511 * 6 * (2 + 4))
        let alphas = Set(sc.vertices2D.dropFirst(grid).map(\.color.w))
        XCTAssertEqual(alphas.count, 6, "four fading ages, the glow and the core")
        XCTAssertEqual(alphas.max(), 1)
    }

    func testGoldenFrames() throws {
        let st = ScopeModeTests.state(ScopeModeTests.tone(seconds: 2), frames: 40)
        for (name, w, h) in [("landscape", 160, 90), ("portrait", 90, 160)] {
            let layout = Layout(width: w, height: h, labels: false)
            var sc = Scene(width: w, height: h)
            ScopeMode().build(st, layout: layout, into: &sc)
            let p = try Modes2D.render(sc)
            GoldenFrame.assertMatches(p, name: "scope/" + name)
        }
    }
}
