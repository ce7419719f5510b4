import Analysis
import Foundation
import Geometry
import MediaIO
import SpecvizCore
import SpecvizTestSupport
import XCTest

/// Golden frames of every 2D mode × landscape, portrait, square (issue 3), from a fixed
/// synthetic state (a 440 Hz tone through the real analyser and smoothing, plus a falling
/// slope and overlays), without text (geometry only: 160x90, 90x160, 120x120) and with
/// text (320x180, 180x320, 240x240). Tolerance: 3 levels per channel, at most 0.2% of the
/// pixels (0.5% with text: glyph hinting may move an edge between FreeType builds).
/// Re-record deliberately with SPECVIZ_RECORD_GOLDEN=1.
final class Golden2DTests: XCTestCase {
    static let shapes: [(String, Int, Int)] = [("landscape", 160, 90), ("portrait", 90, 160), ("square", 120, 120)]

    static func state() -> VisualState {
        var state = Modes2D.toneState(seconds: 2)
        // A falling slope on top of the tone, so every band has something to show.
        for i in 0..<128 {
            let slope = 0.55 * (1 - Float(i) / 160) * (0.75 + 0.25 * Float((i * 37) % 11) / 10)
            state.display[i] = max(state.display[i], slope)
            state.peaks[i] = min(1, max(state.peaks[i], state.display[i] + 0.06))
        }
        // Spectrogram history: the slope sweeping upward in time, with the tone's column.
        var row = [Float](repeating: 0, count: 128)
        for r in 0..<128 {
            for i in 0..<128 {
                let sweep = max(0, 1 - abs(Float(i) - Float(r) * 0.8 - 10) / 12)
                row[i] = max(state.display[i] * Float(r) / 127, sweep)
            }
            state.spectrogram.push(row)
        }
        state.tuner = TunerOverlay(note: "A4", cents: 4, frequency: 441)
        state.tempo = TempoOverlay(bpm: 120, beat: 0.6)
        return state
    }

    func testGoldenFramesWithoutText() throws {
        let state = Golden2DTests.state()
        for mode in Modes2D.modes {
            for (shape, w, h) in Golden2DTests.shapes {
                let layout = Layout(width: w, height: h, labels: false)
                let picture = try Modes2D.render(Modes2D.scene(mode, state: state, layout: layout))
                assertLit(picture, "\(mode) \(shape)")
                GoldenFrame.assertMatches(picture, name: "\(mode.rawValue)/mode-\(shape)", tolerance: 3, maxDifferingFraction: 0.002)
            }
        }
    }

    func testGoldenFramesWithText() throws {
        guard Modes2D.font != nil else { throw XCTSkip("no font") }
        let state = Golden2DTests.state()
        for mode in Modes2D.modes {
            for (shape, w, h) in Golden2DTests.shapes {
                let layout = Layout(width: w * 2, height: h * 2)
                let picture = try Modes2D.render(Modes2D.scene(mode, state: state, layout: layout, title: "specviz"))
                assertLit(picture, "\(mode) \(shape) labelled")
                GoldenFrame.assertMatches(picture, name: "\(mode.rawValue)/mode-\(shape)-labels", tolerance: 3, maxDifferingFraction: 0.005)
            }
        }
    }

    /// A golden frame that is black proves nothing: at least 3% of the pixels are lit (the
    /// ring mode leaves most of its square empty).
    func assertLit(_ p: PixelBuffer, _ tag: String) {
        var lit = 0
        for y in 0..<p.height { for x in 0..<p.width where Modes2D.brightness(p, x, y) > 60 { lit += 1 } }
        XCTAssertGreaterThan(Double(lit) / Double(p.width * p.height), 0.03, tag)
    }
}

/// Full-size frames of every 2D mode at every size people render, with both overlays and
/// a title, written to $SPECVIZ_2D_PREVIEW (for looking at; skipped when unset). Each
/// written file must read back as the frame drawn, and each frame must show something.
final class Preview2DTests: XCTestCase {
    func testWritePreviewsWhenAsked() throws {
        guard let dir = ProcessInfo.processInfo.environment["SPECVIZ_2D_PREVIEW"] else { throw XCTSkip("SPECVIZ_2D_PREVIEW unset") }
        let state = Golden2DTests.state()
        for (w, h) in Layout2DTests.sizes {
            for mode in Modes2D.modes {
                let picture = try Modes2D.render(
                    Modes2D.scene(
                        mode, state: state, layout: Layout(width: w, height: h),
                        title: "specviz — demo"))
                let file = "\(dir)/\(mode.rawValue)-\(w)x\(h).png"
                try PNGFile.write(picture, to: file)
                XCTAssertTrue(try PNGFile.read(file).pixels == picture.pixels, "\(file) reads back as drawn")
                // At least 1% lit (a wide frame leaves the circular mode's sides empty).
                var lit = 0
                for y in 0..<h { for x in 0..<w where Modes2D.brightness(picture, x, y) > 60 { lit += 1 } }
                XCTAssertGreaterThan(Double(lit) / Double(w * h), 0.01, "\(mode.rawValue) \(w)x\(h) shows something")
            }
        }
    }
}
