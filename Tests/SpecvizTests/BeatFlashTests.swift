import Analysis
import Geometry
import Specviz
import SpecvizCore
import SpecvizTestSupport
import XCTest

/// Issue 18: a rendered click track flashes on the frame that contains each click.
final class BeatFlashTests: XCTestCase {
    let rate = 44100
    let fps = 60

    func settings() -> RenderSettings {
        var s = RenderSettings.small(width: 160, height: 90, fps: fps)
        s.tempoOverlay = true
        return s
    }

    /// The flash lasts a time (100 ms), not a number of frames: 3 frames at 30 fps, 6 at 60.
    func testFlashLastsATenthOfASecondAtAnyFrameRate() {
        for (fps, frames) in [(30, 3), (60, 6), (24, 3)] {
            var s = RenderSettings()
            s.fps = fps
            s.width = 64
            s.height = 36
            let composer = FrameComposer(settings: s, glyphs: nil)
            var lit = 0
            for k in 0..<(2 * fps) {
                composer.step(toward: SpectrumFrame(), time: Double(k) / Double(fps), beats: k >= 5 ? 1 : 0)
                if composer.state.flash > 0 { lit += 1 }
            }
            XCTAssertEqual(lit, frames, "\(fps) fps")
        }
    }

    /// Frames (from 0) on which a flash starts.
    func flashStarts(_ job: RenderJob, frames: Int) throws -> [Int] {
        var starts: [Int] = []
        var previous: Float = 0
        for k in 0..<frames {
            try job.advance(toFrame: k)
            let flash = job.composer.state.flash
            if flash > 0 && previous == 0 { starts.append(k) }
            previous = flash
        }
        return starts
    }

    /// 120 BPM clicks from 0.26 s (not on frame boundaries) at 60 fps: with the look-ahead
    /// analysis every click's flash starts on the frame that contains it (±1), from the
    /// first click to the last.
    func testOfflineFlashLandsOnTheClickFrame() throws {
        let seconds = 12.0, leadIn = 0.26
        let clicks = ClickTracks.clicks(bpm: 120, seconds: seconds, sampleRate: rate, leadIn: leadIn)
        let analyzer = BeatAnalyzer(sampleRate: rate)
        clicks.withUnsafeBufferPointer { analyzer.process($0) }
        let analysis = analyzer.finish()
        let job = RenderJob(source: BufferAudioSource(samples: clicks, sampleRate: rate), settings: settings(), glyphs: nil)
        try XCTUnwrap(job.trackers).offline = analysis
        let starts = try flashStarts(job, frames: Int(seconds * Double(fps)))
        let expected = stride(from: leadIn, to: seconds - 0.02, by: 0.5).map { Int($0 * Double(fps)) }
        print("offline flash offsets (frames):", zip(starts, expected).map { $0 - $1 })
        XCTAssertEqual(starts.count, expected.count, "one flash per click: \(starts)")
        for (s, e) in zip(starts, expected) { XCTAssertEqual(s, e, accuracy: 1, "flash frame") }
        // The BPM overlay shows the analysed tempo once the beats start.
        XCTAssertEqual(try XCTUnwrap(job.composer.state.tempo?.bpm), 120, accuracy: 0.5)
    }

    /// Without the look-ahead (`render --causal`, as `live` shows it): once the tempo is on
    /// display, each flash starts within ±2 frames of its click's frame, one per click.
    func testCausalFlashIsPredictedOnTheBeat() throws {
        let seconds = 12.0, leadIn = 0.26
        let clicks = ClickTracks.clicks(bpm: 120, seconds: seconds, sampleRate: rate, leadIn: leadIn)
        let job = RenderJob(source: BufferAudioSource(samples: clicks, sampleRate: rate), settings: settings(), glyphs: nil)
        let starts = try flashStarts(job, frames: Int(seconds * Double(fps)))
        let expected = stride(from: leadIn, to: seconds - 0.02, by: 0.5).map { Int($0 * Double(fps)) }
        let locked = expected.filter { $0 >= 5 * fps }
        let late = starts.filter { $0 >= 5 * fps - 2 }
        print("causal flash offsets (frames):", zip(late, locked).map { $0 - $1 })
        XCTAssertEqual(late.count, locked.count, "one flash per click once locked: \(starts)")
        for (s, e) in zip(late, locked) { XCTAssertEqual(s, e, accuracy: 2, "flash frame") }
    }
}
