import Foundation
import Geometry
import MediaIO
import Specviz
import SpecvizCore
import XCTest

/// The live loop on a fake clock, with ALSA `null` playback and a plain file standing in
/// for the framebuffer: what lands in the file must be what the offline render shows at
/// the same media times.
final class LiveLoopTests: XCTestCase {
    func makeLoop(seconds: Double, clock: FakeClock, name: String, settings: RenderSettings = LiveFixtures.settings())
        throws -> (LiveLoop, RecordingFramebuffer, [Float])
    {
        let stereo = LiveFixtures.stereo(seconds: seconds)
        let file = InterleavedBuffer(samples: stereo, sampleRate: LiveFixtures.rate, channels: 2)
        let playback = try ALSAPlayback(device: "null", sampleRate: LiveFixtures.rate, channels: 2)
        let pump = LiveAudioPump(playing: file, through: playback)
        let path = LiveFixtures.temporaryPath(name)
        addTeardownBlock { unlink(path) }
        let display = try RecordingFramebuffer(path: path, width: settings.width, height: settings.height)
        let loop = LiveLoop(settings: settings, pump: pump, display: display, clock: clock, glyphs: nil)
        loop.recordTimes = true
        return (loop, display, LiveFixtures.mono(stereo))
    }

    func offline(_ mono: [Float], at time: Double, settings: RenderSettings = LiveFixtures.settings()) throws -> PixelBuffer {
        let job = RenderJob(source: BufferAudioSource(samples: mono, sampleRate: LiveFixtures.rate), settings: settings, glyphs: nil)
        // As live draws the spectrum: its window ends at the frame's time (a file render's is
        // centred on it).
        job.feed.centred = false
        return try job.still(at: time)
    }

    /// A steady clock: every frame is shown, at k / fps, and equals the offline still.
    func testLiveFramesMatchOfflineRender() throws {
        let clock = FakeClock()
        let (loop, display, mono) = try makeLoop(seconds: 3, clock: clock, name: "steady.fb")
        let stats = try loop.run()
        XCTAssertEqual(stats.dropped, 0)
        // 3 s at 60 fps; the loop stops once the file's sound has been heard.
        XCTAssertEqual(stats.shown, 180, accuracy: 2)
        XCTAssertEqual(display.frames.count, stats.shown)
        XCTAssertEqual(clock.time, 3, accuracy: 0.05, "the loop runs in media time")
        for k in [1, 30, 61, 100, 150, 179] where k < display.frames.count {
            XCTAssertEqual(loop.shownTimes[k], Double(k) / 60, accuracy: 1e-9)
            let reference = try offline(mono, at: Double(k) / 60)
            let (worst, share) = LiveFixtures.compare(display.frames[k], reference, tolerance: 1)
            XCTAssertLessThanOrEqual(share, 0.002, "frame \(k): \(share * 100)% of pixels differ (max \(worst))")
        }
        // The picture is not black: the sweep shows bars.
        let lit = display.frames[90].pixels.filter { ($0 & 0xFF) + (($0 >> 8) & 0xFF) + (($0 >> 16) & 0xFF) > 120 }.count
        XCTAssertGreaterThan(lit, 160 * 90 / 50)
    }

    /// A slow machine: frames are dropped rather than drifting, and the frames that are
    /// shown still match the offline render at their times (smoothing ran for the dropped ones).
    func testSlowMachineDropsFramesWithoutDrift() throws {
        let clock = FakeClock(costPerCall: 0.02) // two now() calls per frame: 40 ms a frame, 2.4 frame periods
        let (loop, display, mono) = try makeLoop(seconds: 2, clock: clock, name: "slow.fb")
        let stats = try loop.run()
        // 120 frame slots in 2 s; about 1 in 2.4 can be shown.
        XCTAssertEqual(stats.shown + stats.dropped, 120, accuracy: 3)
        XCTAssertEqual(Double(stats.shown), 120 / 2.4, accuracy: 8)
        // No drift: the last frame shown is within two frames of the end of the audio.
        XCTAssertEqual(loop.shownTimes.last ?? 0, 2, accuracy: 2.0 / 60 + 1e-9)
        for k in [5, stats.shown / 2, stats.shown - 1] {
            let t = loop.shownTimes[k]
            let reference = try offline(mono, at: t)
            let (worst, share) = LiveFixtures.compare(display.frames[k], reference, tolerance: 1)
            XCTAssertLessThanOrEqual(share, 0.002, "frame at \(t) s: \(share * 100)% differ (max \(worst))")
        }
    }

    /// Keys: m switches the mode (keeping the state), space pauses and dims, q quits.
    func testKeysSwitchModePauseAndQuit() throws {
        let clock = FakeClock()
        let (loop, display, _) = try makeLoop(seconds: 3, clock: clock, name: "keys.fb")
        var frame = 0
        var script: [Int: [UInt8]] = [
            40: [UInt8(ascii: "m")], 60: [UInt8(ascii: " ")], 61: [UInt8(ascii: " ")],
            80: [UInt8(ascii: "q")],
        ]
        var pending: [UInt8] = []
        loop.readKey = {
            if pending.isEmpty, let keys = script.removeValue(forKey: frame) { pending = keys }
            frame += 1
            return pending.isEmpty ? nil : pending.removeFirst()
        }
        try loop.run()
        XCTAssertEqual(loop.settings.mode, VisualizationMode.allCases[1], "m moves to the next mode")
        XCTAssertLessThan(display.frames.count, 100, "q stopped the loop early")
        // The dimmed frame written on pause is the current picture at 90/256 ≈ 35% brightness.
        func brightness(_ p: PixelBuffer) -> Int { p.pixels.reduce(0) { $0 + Int($1 & 0xFF) + Int(($1 >> 8) & 0xFF) + Int(($1 >> 16) & 0xFF) } }
        let dimmedIndex = display.frames.indices.first { i in
            guard i > 30 else { return false }
            let ratio = Double(brightness(display.frames[i])) / Double(max(brightness(display.frames[i - 1]), 1))
            return ratio > 0.25 && ratio < 0.40
        }
        XCTAssertNotNil(dimmedIndex, "space dims the display")
        loop.handle(key: UInt8(ascii: "M"))
        XCTAssertEqual(loop.settings.mode, VisualizationMode.allCases[0], "M moves back")
        loop.handle(key: UInt8(ascii: "t"))
        loop.handle(key: UInt8(ascii: "b"))
        XCTAssertTrue(loop.settings.tunerOverlay && loop.settings.tempoOverlay)
    }

    /// Latency from audio into the analysis to the frame that shows it: a 1 kHz tone starts
    /// after silence at four onsets spread over one hop; the first frame whose picture
    /// changes must come no earlier than the onset and within the hop (2048 samples =
    /// 46 ms) plus one video frame (17 ms) after it. Frame work (render + display) comes on top.
    func testLatencyFromSoundToPicture() throws {
        let seconds = 1.6, rate = LiveFixtures.rate
        var latencies: [Double] = []
        for onset in [1.0, 1.0116, 1.0232, 1.0348] {
            var stereo = [Float](repeating: 0, count: 2 * Int(seconds * Double(rate)))
            for i in Int(onset * Double(rate))..<(stereo.count / 2) {
                let v = Float(0.5 * sin(2 * Double.pi * 1000 * Double(i) / Double(rate)))
                stereo[2 * i] = v
                stereo[2 * i + 1] = v
            }
            let file = InterleavedBuffer(samples: stereo, sampleRate: rate, channels: 2)
            let pump = LiveAudioPump(playing: file, through: try ALSAPlayback(device: "null", sampleRate: rate, channels: 2))
            let path = LiveFixtures.temporaryPath("latency.fb")
            addTeardownBlock { unlink(path) }
            let display = try RecordingFramebuffer(path: path, width: 160, height: 90)
            let loop = LiveLoop(settings: LiveFixtures.settings(), pump: pump, display: display, clock: FakeClock(), glyphs: nil)
            loop.recordTimes = true
            try loop.run()
            let quiet = display.frames[50]
            let first = display.frames.indices.first { k in
                k > 50 && LiveFixtures.compare(display.frames[k], quiet, tolerance: 8).share > 0.01
            }
            let k = try XCTUnwrap(first)
            let latency = loop.shownTimes[k] - onset
            XCTAssertGreaterThanOrEqual(latency, 0, "causal: nothing before the sound")
            XCTAssertLessThanOrEqual(latency, 2048.0 / Double(rate) + 1.0 / 60 + 1e-9)
            latencies.append(latency)
        }
        print(
            "live latency, sound heard -> first frame showing it (media time, 4 onsets): "
                + latencies.map { "\(Int(($0 * 1000).rounded())) ms" }.joined(separator: ", "))
    }
}
