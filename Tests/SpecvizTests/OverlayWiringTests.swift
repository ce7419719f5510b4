import Geometry
import Specviz
import SpecvizCore
import SpecvizTestSupport
import XCTest

/// The trackers reach the picture: a render with overlays shows the note and tempo of
/// what is playing, the beat flash fires on beats, and the tuner view follows the pitch.
final class OverlayWiringTests: XCTestCase {
    let rate = 44100

    func settings(_ mode: VisualizationMode = .bars) -> RenderSettings {
        RenderSettings.small(mode, width: 320, height: 180)
    }

    /// A 440 Hz tone with the tuner overlay: A4 within a cent, green.
    func testTunerOverlayShowsTheNotePlaying() throws {
        var s = settings()
        s.tunerOverlay = true
        let tone = ToneGenerators.harmonic(f0: 440, amplitudes: [1, 0.5, 0.25], sampleRate: rate, duration: 2)
        let job = RenderJob(source: BufferAudioSource(samples: tone, sampleRate: rate), settings: s, glyphs: nil)
        XCTAssertNotNil(job.trackers?.pitch)
        XCTAssertNil(job.trackers?.tempo, "no tempo tracker without the BPM overlay")
        _ = try job.still(at: 0.01)
        XCTAssertEqual(job.composer.state.tuner?.note, "", "nothing heard yet: ---")
        _ = try job.still(at: 1.5)
        let tuner = try XCTUnwrap(job.composer.state.tuner)
        XCTAssertEqual(tuner.note, "A4")
        XCTAssertEqual(tuner.cents, 0, accuracy: 1)
        XCTAssertEqual(tuner.frequency, 440, accuracy: 0.5)
        XCTAssertNil(job.composer.state.tempo)
    }

    /// A 120 BPM click track with the BPM overlay: 120 shown after a few seconds, the dot
    /// lights on beats and the colour flash runs for 6 frames after each.
    func testTempoOverlayAndBeatFlash() throws {
        var s = settings()
        s.tempoOverlay = true
        let clicks = ClickTracks.clicks(bpm: 120, seconds: 10, sampleRate: rate)
        let job = RenderJob(source: BufferAudioSource(samples: clicks, sampleRate: rate), settings: s, glyphs: nil)
        var flashes = 0, lit = 0
        var shown: Double? = nil
        for k in 0..<(9 * 60) {
            try job.advance(toFrame: k)
            let state = job.composer.state
            if state.flash > 0 { flashes += 1 }
            if let tempo = state.tempo, tempo.beat > 0.5 { lit += 1 }
            if k >= 6 * 60, let bpm = state.tempo?.bpm { shown = bpm }
        }
        XCTAssertEqual(try XCTUnwrap(shown), 120, accuracy: 2)
        // 2 beats a second once the tempo is shown (~3 s, issue 18: the flash follows the
        // predicted beats): 6 of every 30 frames flash, and the dot is bright for a few.
        XCTAssertGreaterThan(flashes, 5 * 2 * 6)
        XCTAssertLessThan(flashes, 9 * 2 * 7)
        XCTAssertGreaterThan(lit, 5 * 2 * 3)
        XCTAssertNil(job.composer.state.tuner)
    }

    /// Without overlays, nothing runs and nothing flashes.
    func testNoOverlaysNoTrackers() throws {
        let clicks = ClickTracks.fourOnTheFloor(bpm: 120, seconds: 3, sampleRate: rate)
        let job = RenderJob(source: BufferAudioSource(samples: clicks, sampleRate: rate), settings: settings(), glyphs: nil)
        XCTAssertNil(job.trackers)
        for k in 0..<120 {
            try job.advance(toFrame: k)
            XCTAssertEqual(job.composer.state.flash, 0)
        }
    }

    /// `--mode tuner` drives the tuner view: a tone 12 cents sharp of A3 reads as A3 +12¢,
    /// and the strobe's first band drifts forward (positive velocity).
    func testTunerViewFollowsThePitch() throws {
        let f = 220 * pow(2, 12.0 / 1200)
        let tone = ToneGenerators.harmonic(f0: f, amplitudes: [1, 0.5, 0.3, 0.2], sampleRate: rate, duration: 2)
        let job = RenderJob(source: BufferAudioSource(samples: tone, sampleRate: rate), settings: settings(.tuner), glyphs: nil)
        let picture = try job.still(at: 1.8)
        let view = try XCTUnwrap(job.composer.state.tunerView)
        XCTAssertTrue(view.detected)
        XCTAssertEqual(view.target.midi, 57)
        XCTAssertEqual(view.cents, 12, accuracy: 1.5)
        XCTAssertFalse(view.inTune)
        XCTAssertGreaterThan(view.strobeVelocity[0], 0)
        XCTAssertGreaterThan(view.strobeEnergy[0], 0.3)
        XCTAssertGreaterThan(picture.pixels.filter { $0 & 0xFFFFFF != 0 }.count, picture.pixels.count / 10, "not a black frame")
    }
}
