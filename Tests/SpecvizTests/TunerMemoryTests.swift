import MediaIO
import Specviz
import SpecvizCore
import SpecvizTestSupport
import XCTest

/// A render's tuner remembers a bounded past (`TunerMemory`), so a segment's pre-roll runs
/// the pitch tracker for a few seconds, not from 0, and still shows the single pass's frames.
final class TunerMemoryTests: XCTestCase {
    let rate = 44100

    /// Notes with vibrato and a second harmonic, some glides and gaps, and one note held
    /// across a period's start, so the latch, the smoothing and the tail gate all carry
    /// state over the periods.
    func melody(seconds: Double) -> [Float] {
        let notes: [(start: Double, length: Double, hz: Double)] = [
            (0.0, 0.45, 220), (0.5, 0.4, 247), (0.95, 0.9, 262), (2.1, 0.5, 330), (2.6, 0.3, 311),
            (3.2, 1.5, 196), (4.8, 0.45, 392), (5.3, 0.7, 370), (6.1, 0.4, 440), (6.55, 1.2, 147),
        ]
        var out = [Float](repeating: 0, count: Int(seconds * Double(rate)))
        for n in notes {
            var phase = 0.0
            let first = Int(n.start * Double(rate)), count = Int(n.length * Double(rate))
            for i in 0..<count where first + i < out.count {
                let t = Double(i) / Double(rate)
                let hz = n.hz * (1 + 0.004 * sin(2 * .pi * 5.5 * t)) * (n.hz == 311 ? 1 + 0.03 * t : 1)
                phase += 2 * .pi * hz / Double(rate)
                let envelope = min(1, t / 0.02) * min(1, (n.length - t) / 0.05)
                out[first + i] += Float(envelope * (0.3 * sin(phase) + 0.12 * sin(2 * phase)))
            }
        }
        return out
    }

    /// Stills from frame `first` to the end: their pixels and tuner readings, and the samples
    /// the pitch trackers analysed.
    func stills(_ samples: [Float], settings: RenderSettings, glyphs: GlyphProvider?, from first: Int, frames: Int) throws
        -> (pixels: [[UInt32]], readings: [String], work: Int)
    {
        let job = RenderJob(source: BufferAudioSource(samples: samples, sampleRate: rate), settings: settings, glyphs: glyphs)
        var pixels: [[UInt32]] = [], readings: [String] = []
        for k in first..<frames {
            pixels.append(try job.still(at: Double(k) / Double(settings.fps)).pixels)
            let o = job.trackers?.tunerOverlay
            readings.append("\(o?.note ?? "?") \(o?.cents ?? .nan) \(o?.frequency ?? .nan)")
        }
        return (pixels, readings, job.trackers?.pitchSamples ?? 0)
    }

    func testASegmentShowsTheSinglePassTunerAfterABoundedPreRoll() throws {
        var settings = RenderSettings()
        settings.width = 64
        settings.height = 36
        settings.fps = 10
        settings.mode = .bars
        settings.tunerOverlay = true
        settings.tunerPeriod = 2
        settings.tunerWarmUp = 0.5
        let samples = melody(seconds: 8)
        let glyphs = try? FreeTypeFont()
        let single = try stills(samples, settings: settings, glyphs: glyphs, from: 0, frames: 80)
        // Frame 53 (5.3 s) is in the period from 4 s, whose tracker starts at 3.5 s; the
        // note from 3.2 s is held across 4 s.
        for first in [53, 41] {
            let segment = try stills(samples, settings: settings, glyphs: glyphs, from: first, frames: 80)
            XCTAssertEqual(segment.readings, Array(single.readings[first...]), "from frame \(first)")
            for (i, p) in segment.pixels.enumerated() where p != single.pixels[first + i] {
                XCTFail("frame \(first + i) differs from the single pass's")
                break
            }
            // The tracker heard at most a period and a warm-up before the first frame.
            let bound = Double(first) / 10 - 2.5
            XCTAssertLessThan(Double(segment.work), Double(single.work) - bound * Double(rate), "from frame \(first)")
        }
        // The tuner was reading notes (not `---` throughout), through the periods' changes.
        let shown = single.readings.filter { !$0.hasPrefix(" ") && !$0.hasPrefix("?") }
        XCTAssertGreaterThan(shown.count, 50, "\(single.readings)")
    }

    func testLiveRemembersEverything() {
        let trackers = OverlayTrackers(sampleRate: rate, pitch: true, tempo: false)
        XCTAssertNil(trackers.memory)
        let m = TunerMemory(sampleRate: rate, period: 20, warmUp: 4)
        XCTAssertEqual(m.start(ofPairShownAt: 0), 0)
        XCTAssertEqual(m.start(ofPairShownAt: 20 * rate - 1), 0)
        XCTAssertEqual(m.start(ofPairShownAt: 20 * rate), 16 * rate)
        XCTAssertEqual(m.start(ofPairShownAt: 65 * rate), 56 * rate)
    }
}
