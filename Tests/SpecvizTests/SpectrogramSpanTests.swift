import Analysis
import Geometry
import Specviz
import SpecvizCore
import SpecvizTestSupport
import XCTest

/// Issue 39, "full frames": the full-resolution spectrogram shows a set span of time
/// (`--history`, 10 s by default) at any frame size, so 12 s into a sound its plot is full:
/// under 5 % of its pixel rows or columns are left empty, landscape, portrait and square.
final class SpectrogramSpanTests: XCTestCase {
    let rate = 44100

    /// A full-resolution spectrogram render of `samples` without labels, one thread, 30 fps.
    func spectrogramJob(_ samples: [Float], width: Int, height: Int) -> RenderJob {
        var s = RenderSettings()
        s.mode = .spectrogram
        s.fullResolutionSpectrogram = true
        s.width = width
        s.height = height
        s.labels = false
        s.threads = 1
        s.fps = 30
        return RenderJob(source: BufferAudioSource(samples: samples, sampleRate: rate), settings: s, glyphs: nil)
    }

    func testPlotIsFullTwelveSecondsIn() throws {
        // Pink noise: every band of the log axis holds sound at every moment.
        let noise = ToneGenerators.pinkNoise(sampleRate: rate, duration: 12.2, rms: 0.1)
        for (w, h) in [(320, 180), (180, 320), (240, 240), (160, 480)] {
            let job = spectrogramJob(noise, width: w, height: h)
            let picture = try job.still(at: 12)
            let layout = job.composer.layout
            let a = layout.pixel(SIMD2(layout.spectrum.x0, layout.spectrum.y1))
            let b = layout.pixel(SIMD2(layout.spectrum.x1, layout.spectrum.y0))
            let x0 = Int(a.x.rounded()), x1 = Int(b.x.rounded()), y0 = Int(a.y.rounded()), y1 = Int(b.y.rounded())
            func dark(_ x: Int, _ y: Int) -> Bool {
                let c = picture.rgba(x: x, y: y)
                return Int(c.x) + Int(c.y) + Int(c.z) < 12
            }
            let emptyRows = (y0..<y1).filter { y in (x0..<x1).allSatisfy { dark($0, y) } }.count
            let emptyColumns = (x0..<x1).filter { x in (y0..<y1).allSatisfy { dark(x, $0) } }.count
            let rows = y1 - y0, columns = x1 - x0
            XCTAssertGreaterThan(rows, 20, "\(w)x\(h)")
            XCTAssertLessThan(Double(emptyRows), 0.05 * Double(rows), "\(w)x\(h): \(emptyRows) of \(rows) rows empty")
            XCTAssertLessThan(Double(emptyColumns), 0.05 * Double(columns), "\(w)x\(h): \(emptyColumns) of \(columns) columns empty")
        }
    }

    /// The span is the history's whatever the height: the rows stand for `historySeconds`
    /// over the plot's pixel rows, so 5 s of sound fill half of a 10 s plot, at any size.
    func testFiveSecondsFillHalfTheTenSecondPlot() throws {
        let noise = ToneGenerators.pinkNoise(sampleRate: rate, duration: 5.2, rms: 0.1)
        for (w, h) in [(320, 180), (180, 320)] {
            let job = spectrogramJob(noise, width: w, height: h)
            let picture = try job.still(at: 5)
            let layout = job.composer.layout
            let top = Int(layout.pixel(SIMD2(0, layout.spectrum.y1)).y.rounded())
            let bottom = Int(layout.pixel(SIMD2(0, layout.spectrum.y0)).y.rounded())
            let x = Int(layout.pixel(SIMD2(layout.spectrum.center.x, 0)).x)
            // The lowest lit row down the plot's middle column.
            var lit = top
            for y in top..<bottom {
                let c = picture.rgba(x: x, y: y)
                if Int(c.x) + Int(c.y) + Int(c.z) >= 12 { lit = y }
            }
            let filled = Double(lit + 1 - top) / Double(bottom - top)
            XCTAssertEqual(filled, 0.5, accuracy: 0.04, "\(w)x\(h)")
        }
    }
}
