import Analysis
import Geometry
import Raster
import Specviz
import SpecvizCore
import SpecvizTestSupport
import XCTest

/// Issue 39 item 5: the 3D waterfall moves on every video frame (the history scrolls
/// smoothly between its rows and the front row is the live spectrum), where it used to
/// change only when the history took a row, every third frame at 60 fps.
final class WaterfallMotionTests: XCTestCase {
    let rate = 44100

    /// A chord under clicks at 120 BPM, 2 s.
    var music: [Float] {
        let clicks = ClickTracks.clicks(bpm: 120, seconds: 2, sampleRate: rate)
        let chord = ToneGenerators.harmonic(f0: 220, amplitudes: [1, 0.6, 0.4, 0.2], sampleRate: rate, duration: 2)
        return zip(clicks, chord).map { $0 + 0.3 * $1 }
    }

    /// Share of frames 20…119 (60 fps) whose picture differs from the frame before.
    func changingShare(_ mode: VisualizationMode) throws -> Double {
        var s = RenderSettings.small(mode, width: 96, height: 54)
        s.analysis = AnalysisConfig()
        s.analysis.bands = 32
        let job = RenderJob(source: BufferAudioSource(samples: music, sampleRate: rate), settings: s, glyphs: nil)
        var picture = PixelBuffer(width: s.width, height: s.height)
        var previous: [UInt32] = []
        var changed = 0, frames = 0
        for k in 20..<120 {
            try job.advance(toFrame: k)
            try job.composer.render(into: &picture)
            if !previous.isEmpty {
                frames += 1
                if picture.pixels != previous { changed += 1 }
            }
            previous = picture.pixels
        }
        return Double(changed) / Double(frames)
    }

    func testWaterfallChangesOnAtLeastNinetyPercentOfFrames() throws {
        for mode in [VisualizationMode.surface, .surfacePlus] {
            let share = try changingShare(mode)
            print("\(mode): \(Int(share * 100)) % of frames change")
            XCTAssertGreaterThanOrEqual(share, 0.9, "\(mode)")
        }
    }

    /// The scroll is smooth: between two history rows each frame moves the rows back by a
    /// third of their spacing, and the newest row leaves the live front row where it was taken.
    func testRowsMoveBackByAThirdOfTheirSpacingPerFrame() {
        var st = VisualState()
        st.modeState = VisualizationMode.surface.unit.makeState(ModeSettings(), height: 90)
        var frame = SpectrumFrameMaker.frame(bands: 128, value: 0.5)
        var phases: [Float] = []
        for k in 0..<6 {
            frame.bands[10] = Float(k) / 6
            st.step(toward: frame)
            phases.append(st.surfaceMotion.phase)
            XCTAssertEqual(st.surfaceMotion.live, st.display, "the front row is this frame's display")
        }
        XCTAssertEqual(phases, [0, 1.0 / 3, 2.0 / 3, 0, 1.0 / 3, 2.0 / 3])
    }
}

/// A spectrum frame with every band at `value`.
enum SpectrumFrameMaker {
    static func frame(bands: Int, value: Float) -> Analysis.SpectrumFrame {
        var f = Analysis.SpectrumFrame(bands: bands)
        for i in 0..<bands { f.bands[i] = value }
        return f
    }
}
