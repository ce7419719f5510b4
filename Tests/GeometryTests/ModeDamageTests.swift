import Analysis
import Geometry
import SpecvizCore
import XCTest

/// A mode's damage key (`Mode.damageKey`) is the frame's promise that the mode's picture
/// did not change: while it stays the same, the builder must draw the same scene; and it
/// must change when the picture does, or frames would keep a stale picture.
final class ModeDamageTests: XCTestCase {
    /// A spectrum that moves every frame, a new analysis hop every third frame.
    func frame(_ k: Int) -> SpectrumFrame {
        var f = SpectrumFrame()
        f.index = k / 3
        // The hop's end in media time (a 2048-sample hop at 44.1 kHz): the full-resolution
        // spectrogram's rows follow it.
        f.time = Double(k / 3 + 1) * 2048 / 44100
        f.bands = (0..<LogBands.count).map { b in 0.5 + 0.4 * sinf(Float(b) * 0.1 + Float(k) * 0.7) }
        f.waveform = (0..<SpectrumAnalyzer.waveformLength).map { i in sinf(Float(i + k) * 0.05) }
        return f
    }

    func testTheSameKeyMeansTheSamePictureAndAChangedPictureAChangedKey() {
        let layout = Layout(width: 160, height: 90, labels: false)
        var full = ModeSettings()
        full.fullResolution = true
        // A short span, so that every hop fills a row at this height.
        full.historySeconds = 2
        // Every mode with a damage key, and again at full resolution where that is another builder.
        let cases = VisualizationMode.allCases.flatMap { mode -> [(VisualizationMode, ModeSettings)] in
            let plain = ModeSettings()
            let other = type(of: mode.unit.makeBuilder(full)) != type(of: mode.unit.makeBuilder(plain))
            return other ? [(mode, plain), (mode, full)] : [(mode, plain)]
        }
        for (mode, settings) in cases {
            do {
                var state = VisualState()
                state.modeState = mode.unit.makeState(settings, height: layout.height)
                guard mode.unit.damageKey(state) != nil else {
                    // The 3D waterfall moves on every frame (issue 39): it has no key.
                    XCTAssertFalse(mode == .spectrogram || mode == .tuner, "\(mode): no damage key")
                    continue
                }
                var builder = mode.unit.makeBuilder(settings)
                var last: (key: Int?, scene: Scene)? = nil
                var kept = 0, changed = 0
                for k in 0..<12 {
                    state.step(toward: frame(k))
                    state.time = Double(k) / 60
                    var scene = Scene(width: layout.width, height: layout.height)
                    builder.build(state, layout: layout, into: &scene)
                    let key = mode.unit.damageKey(state)
                    if let last, let key, last.key == key {
                        kept += 1
                        XCTAssertTrue(scene.items == last.scene.items, "\(mode) frame \(k): same key, other items")
                        XCTAssertTrue(scene.vertices2D == last.scene.vertices2D, "\(mode) frame \(k): same key, other triangles")
                        XCTAssertTrue(scene.vertices3D == last.scene.vertices3D, "\(mode) frame \(k): same key, other triangles")
                    } else if let last, key != nil, scene.vertices2D != last.scene.vertices2D || scene.vertices3D != last.scene.vertices3D {
                        changed += 1
                    }
                    last = (key, scene)
                }
                // The modes whose picture is their history's: a new row every third frame
                // changes the key, the frames between keep it.
                if mode.traits.waveformStrip {
                    XCTAssertGreaterThan(kept, 0, "\(mode): the key never stays")
                    XCTAssertGreaterThan(changed, 0, "\(mode): the key never changes")
                }
            }
        }
    }
}
