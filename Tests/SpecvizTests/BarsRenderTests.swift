import Analysis
import Geometry
import MediaIO
import Specviz
import SpecvizCore
import SpecvizTestSupport
import XCTest

final class BarsRenderTests: XCTestCase {
    func settings(_ w: Int, _ h: Int, mode: VisualizationMode = .bars) -> RenderSettings {
        var s = RenderSettings()
        s.mode = mode
        s.width = w
        s.height = h
        s.labels = false
        s.musicMode = false
        return s
    }

    func still(_ samples: [Float], at t: Double, _ s: RenderSettings) throws -> (PixelBuffer, RenderJob) {
        let job = RenderJob(source: BufferAudioSource(samples: samples, sampleRate: 44100), settings: s, glyphs: nil)
        return (try job.still(at: t), job)
    }

    /// Height in pixels of the lit column at x inside the spectrum area.
    func litHeight(_ p: PixelBuffer, x: Int, layout: Layout) -> Int {
        let top = Int(layout.pixel(SIMD2(0, layout.spectrum.y1)).y)
        let bottom = Int(layout.pixel(SIMD2(0, layout.spectrum.y0)).y)
        var lit = 0
        for y in max(top, 0)..<min(bottom, p.height) {
            let c = p.rgba(x: x, y: y)
            if Int(c.x) + Int(c.y) + Int(c.z) > 30 { lit += 1 }
        }
        return lit
    }

    func testTwoTonesAnOctaveApartGiveTheTwoTallestBarsAnOctaveApart() throws {
        let s = settings(640, 360)
        let (p, job) = try still(Signals.sines([(440, 0.3), (880, 0.3)], seconds: 1.5), at: 1.2, s)
        let layout = job.composer.layout
        // Bar heights, read from the pixels at each band's centre.
        let r = layout.spectrum
        let heights = (0..<128).map { i -> Int in
            let x = layout.pixel(SIMD2(r.x0 + (Float(i) + 0.5) / 128 * r.width, 0)).x
            return litHeight(p, x: Int(x), layout: layout)
        }
        // The two tallest local maxima.
        let maxima: [Int] = (1..<127).filter { i in heights[i] >= heights[i - 1] && heights[i] > heights[i + 1] }
        let tallest: [Int] = Array(maxima.sorted { a, b in heights[a] > heights[b] }.prefix(2))
        let peaks = tallest.sorted()
        XCTAssertEqual(peaks.count, 2)
        let octave = 128 * log10(2.0) / 3 // 12.8 bands
        XCTAssertEqual(Double(peaks[1] - peaks[0]), octave, accuracy: 1.5)
        XCTAssertEqual(Double(peaks[0]), Double(LogBands.index(ofFrequency: 440)), accuracy: 1)
        XCTAssertEqual(Double(peaks[1]), Double(LogBands.index(ofFrequency: 880)), accuracy: 1)
        let fullHeight = Int(r.height / 2 * 360)
        XCTAssertGreaterThan(heights[peaks[0]], fullHeight * 8 / 10)
    }

    func testSilenceRendersNoBars() throws {
        let s = settings(320, 180)
        let (p, job) = try still([Float](repeating: 0, count: 44100), at: 0.9, s)
        let layout = job.composer.layout
        let r = layout.spectrum
        for i in 0..<128 {
            let x = layout.pixel(SIMD2(r.x0 + (Float(i) + 0.5) / 128 * r.width, 0)).x
            XCTAssertEqual(litHeight(p, x: Int(x), layout: layout), 0, "band \(i)")
        }
    }

    func testAToneThatStopsFadesWithTheSeedsSmoothing() throws {
        // 1 s of 1 kHz, then silence: the display decays by ×0.88 per frame, to 10% in ~18 frames (300 ms).
        let samples = Signals.sines([(1000, 0.4)], seconds: 1) + [Float](repeating: 0, count: 44100)
        let job = RenderJob(source: BufferAudioSource(samples: samples, sampleRate: 44100), settings: settings(160, 90), glyphs: nil)
        let band = LogBands.index(ofFrequency: 1000)
        var values: [Float] = []
        var stopFrame: Int?
        for k in 0..<120 {
            try job.advance(toFrame: k)
            values.append(job.composer.state.display[band])
            // The first frame whose spectrum is silent (its window, centred on the frame's
            // time, leaves the tone half a window after it stops: 1.023 s).
            if stopFrame == nil && k > 30 && job.feed.current.bands[band] == 0 { stopFrame = k }
        }
        let stop = try XCTUnwrap(stopFrame)
        XCTAssertEqual(Double(stop) / 60, 1 + 1024.0 / 44100, accuracy: 1.0 / 60 + 1e-9)
        let before = values[stop - 1]
        XCTAssertGreaterThan(before, 0.5)
        let after18 = values[stop - 1 + 18]
        XCTAssertEqual(after18 / before, powf(0.88, 18), accuracy: 0.03) // ≈ 0.1 after 300 ms
    }

    func testGoldenFrames() throws {
        let samples = Signals.sines([(110, 0.2), (440, 0.3), (2500, 0.1), (9000, 0.05)], seconds: 1)
            .enumerated().map { $0.element + 0.02 * Float(sin(Double($0.offset) * 0.37)) }
        for (name, w, h) in [("landscape", 160, 90), ("portrait", 90, 160), ("square", 120, 120)] {
            let (p, _) = try still(samples, at: 0.9, settings(w, h))
            GoldenFrame.assertMatches(p, name: "bars/\(name)")
        }
    }
}
