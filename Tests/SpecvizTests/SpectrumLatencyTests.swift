import Analysis
import Geometry
import Specviz
import SpecvizCore
import SpecvizTestSupport
import XCTest

/// Issue 39 item 5: the spectrum is drawn for the frame's own time. A rendered click track
/// at 60 fps: every click shows on the frame that contains it, or the next (it showed 2–4
/// frames late, from the last whole hop before the frame).
final class SpectrumLatencyTests: XCTestCase {
    let rate = 44100
    let fps = 60

    /// Mean displayed level (0…1, smoothed as drawn) of every frame of a bars render.
    func displayed(_ samples: [Float], frames: Int, configure: (inout RenderSettings) -> Void = { _ in }) throws -> [Float] {
        var s = RenderSettings.small(width: 96, height: 54, fps: fps)
        s.analysis = AnalysisConfig()
        s.analysis.dbRange = -90 ... -10
        configure(&s)
        let job = RenderJob(source: BufferAudioSource(samples: samples, sampleRate: rate), settings: s, glyphs: nil)
        return try (0..<frames).map { k in
            try job.advance(toFrame: k)
            let d = job.composer.state.display
            return d.reduce(0, +) / Float(d.count)
        }
    }

    /// The frame on which each click first shows: the level rises by more than a quarter of
    /// its rise to the click's peak, searched from 3 frames before the click's frame.
    func onsets(_ level: [Float], clicks: [Double]) -> [Int] {
        clicks.map { tc in
            let e = Int(tc * Double(fps))
            let before = level[max(0, e - 4)]
            let peak = level[(e - 3)...(e + 8)].max()!
            return ((e - 3)...(e + 8)).first { level[$0] - before > 0.25 * (peak - before) }! - e
        }
    }

    func testClicksShowWithinOneFrame() throws {
        let seconds = 6.0, leadIn = 0.26
        let samples = ClickTracks.clicks(bpm: 120, seconds: seconds, sampleRate: rate, leadIn: leadIn)
        let clicks = Array(stride(from: leadIn, to: seconds - 0.3, by: 0.5))
        let level = try displayed(samples, frames: Int(seconds * Double(fps)))
        let offsets = onsets(level, clicks: clicks)
        print("spectrum onset offsets (frames):", offsets)
        for (tc, o) in zip(clicks, offsets) {
            XCTAssertLessThanOrEqual(o, 1, "click at \(tc) s shows \(o) frames after its frame")
            XCTAssertGreaterThanOrEqual(o, -1, "click at \(tc) s shows \(-o) frames before its frame")
        }
    }

    /// The feed's hops are what they were: the spectrum of the frame's time is measured
    /// beside them, and the taps hear every sample once, in order.
    func testHopsAndTapsAreUnchangedByTheLookAhead() throws {
        let samples = ToneGenerators.harmonic(f0: 220, amplitudes: [1, 0.5], sampleRate: rate, duration: 1)
        final class Recorder: AnalysisTap {
            var heard: [Float] = []
            func process(_ s: UnsafeBufferPointer<Float>) { heard.append(contentsOf: s) }
        }
        let feed = AnalysisFeed(source: BufferAudioSource(samples: samples, sampleRate: rate), config: AnalysisConfig())
        let recorder = Recorder()
        feed.taps = [recorder]
        let reference = SpectrumAnalyzer(sampleRate: rate, config: AnalysisConfig())
        var frame = SpectrumFrame()
        var hops = 0
        for k in 0..<58 {
            try feed.advance(to: Double(k) / 60)
            while hops <= feed.latest.index {
                samples[(hops * 2048)..<((hops + 1) * 2048)].withUnsafeBufferPointer { reference.process($0, into: &frame) }
                hops += 1
            }
            if feed.latest.index >= 0 { XCTAssertEqual(feed.latest.bandDB, frame.bandDB, "frame \(k)") }
        }
        XCTAssertEqual(recorder.heard, Array(samples[0..<recorder.heard.count]))
        XCTAssertEqual(recorder.heard.count, feed.samplesRead)
    }
}
