import Analysis
import Geometry
import SpecvizCore
import XCTest

/// `--resolution full`: one row per analysis hop, newest at the top, colour across from
/// the bands; and labels that follow the scale.
final class FullSpectrogramTests: XCTestCase {
    func frame(index: Int, bands: Int, value: (Int) -> Float) -> SpectrumFrame {
        var f = SpectrumFrame(bands: bands)
        f.index = index
        f.bands = (0..<bands).map(value)
        return f
    }

    func testOneRowPerHopNewestOnTop() {
        var state = VisualState()
        state.hopHistory = History(rows: 400, bands: 16)
        // Three video frames per hop: each hop is pushed once.
        for hop in 0..<50 {
            for _ in 0..<3 { state.step(toward: frame(index: hop, bands: 16) { b in hop == 49 ? Float(b) / 15 : 0 }) }
        }
        XCTAssertEqual(state.hopHistory!.filled, 50)
        let layout = Layout(width: 320, height: 180, labels: false)
        var scene = Scene(width: 320, height: 180)
        FullSpectrogramMode(palette: .heat).build(state, layout: layout, into: &scene)
        // 50 rows × 16 bands × 2 quads × 6 vertices.
        XCTAssertEqual(scene.vertices2D.count, 50 * 16 * 12)
        // The top row (first emitted) carries the newest hop: left end dark, right end hot.
        let top = scene.vertices2D[0..<(16 * 12)]
        // On whole pixel rows (the nearest to the area's top), each row one pixel tall: a hop
        // moves the picture by exactly one row.
        XCTAssertEqual(top.map(\.position.y).max()!, layout.spectrum.y1, accuracy: layout.clipPerPixel.y / 2)
        for v in scene.vertices2D {
            let row = (1 - v.position.y) / layout.clipPerPixel.y
            XCTAssertEqual(row, row.rounded(), accuracy: 1e-3, "a vertex between pixel rows")
        }
        let rows = Set(scene.vertices2D.map { ((1 - $0.position.y) / layout.clipPerPixel.y).rounded() })
        XCTAssertEqual(rows.count, 51, "50 rows of one pixel: 51 edges")
        let left = top.min { $0.position.x < $1.position.x }!, right = top.max { $0.position.x < $1.position.x }!
        XCTAssertEqual(left.color, Palette.heat.color(0))
        XCTAssertEqual(right.color, Palette.heat.color(1))
        // The row below it is an older hop (all zero).
        let second = scene.vertices2D[(16 * 12)..<(32 * 12)]
        XCTAssertTrue(second.allSatisfy { $0.color == Palette.heat.color(0) })
    }

    func testMoreBandsThanPixelsDrawsOneQuadPerPixelColumn() {
        var state = VisualState()
        state.hopHistory = History(rows: 100, bands: 1024)
        state.step(toward: frame(index: 0, bands: 1024) { $0 == 700 ? 1 : 0 })
        let layout = Layout(width: 160, height: 90, labels: false)
        var scene = Scene(width: 160, height: 90)
        FullSpectrogramMode(palette: .heat).build(state, layout: layout, into: &scene)
        let columns = Int((layout.spectrum.width / layout.clipPerPixel.x).rounded())
        XCTAssertEqual(scene.vertices2D.count, columns * 6)
        // The single loud band survives as the loudest of its pixel column.
        XCTAssertEqual(scene.vertices2D.filter { $0.color == Palette.heat.color(1) }.count, 6)
    }

    func testLabelsFollowTheScale() {
        let notes = BandLayout(scale: .notes, bands: 0, lowHz: 30, highHz: 4200)
        XCTAssertEqual(Labels.frequencies(for: notes.axis).map(\.1), ["C1", "C2", "C3", "C4", "C5", "C6", "C7", "C8"])
        let third = BandLayout(scale: .octave(3), bands: 0, lowHz: 20, highHz: 20_000)
        XCTAssertEqual(Labels.frequencies(for: third.axis).map(\.1), ["31.5", "63", "125", "250", "500", "1k", "2k", "4k", "8k", "16k"])
        XCTAssertEqual(
            Labels.frequencies(for: FrequencyAxis(scale: .linear, lowHz: 20, highHz: 20_000)).map(\.1),
            ["2k", "4k", "6k", "8k", "10k", "12k", "14k", "16k", "18k", "20k"])
        XCTAssertEqual(Labels.frequencies(for: .standard).count, Labels.frequencies.count)
        // Positions: each C sits at its note's band centre.
        for (hz, _) in Labels.frequencies(for: notes.axis) {
            let i = notes.centers.firstIndex { abs($0 / hz - 1) < 1e-9 }!
            XCTAssertEqual(notes.axis.position(ofFrequency: hz), (Double(i) + 0.5) / Double(notes.count), accuracy: 1e-9)
        }
    }
}
