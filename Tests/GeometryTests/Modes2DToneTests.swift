import Analysis
import Geometry
import SpecvizCore
import XCTest

/// A 440 Hz tone lights the band at 440 Hz in every 2D mode (issue 3), checked on the
/// scene's vertices and on the rasterised pixels; a tone that stops fades as the seed's
/// smoothing says (decay 0.12 per frame: 10% after 18 frames, 300 ms at 60 fps).
final class Modes2DToneTests: XCTestCase {
    let layout = Layout(width: 640, height: 360, labels: false)

    func testAnalysisPutsTheToneInItsBand() {
        let state = Modes2D.toneState()
        let loudest = state.display.indices.max { state.display[$0] < state.display[$1] }!
        XCTAssertEqual(loudest, Modes2D.band440)
        XCTAssertGreaterThan(state.display[loudest], 0.5)
    }

    func testBarsTallestQuadIsThe440Band() {
        let state = Modes2D.toneState()
        var scene = Scene(width: 640, height: 360)
        BarsMode().build(state, layout: layout, into: &scene)
        // Bars come first per band (6 vertices), then an optional peak; find the highest bar top.
        var best = (x: Float(0), y: -Float.infinity)
        for v in scene.vertices2D where v.color.w == 1 && v.position.y > best.y { best = (v.position.x, v.position.y) }
        let band = Int((best.x - layout.spectrum.x0) / layout.spectrum.width * 128)
        XCTAssertEqual(band, Modes2D.band440)
    }

    func testCurveHighestOutlinePointIsThe440Band() {
        let state = Modes2D.toneState()
        var scene = Scene(width: 640, height: 360)
        CurveMode().build(state, layout: layout, into: &scene)
        let outline = scene.vertices2D[(127 * 9)..<(127 * 9 + 127 * 6)]
        let top = outline.max { $0.position.y < $1.position.y }!
        let band = Int(((top.position.x - layout.spectrum.x0) / layout.spectrum.width * 128).rounded(.down))
        XCTAssertTrue(abs(band - Modes2D.band440) <= 1, "outline top at band \(band)")
        // The peak vertex of the curve itself sits exactly at the 440 band's centre.
        let centre = layout.spectrum.x0 + (Float(Modes2D.band440) + 0.5) / 128 * layout.spectrum.width
        let fill = scene.vertices2D[0..<(127 * 9)].max { $0.position.y < $1.position.y }!
        XCTAssertEqual(fill.position.x, centre, accuracy: 1e-5)
    }

    func testCircularLongestBarPointsAtThe440Angle() {
        let state = Modes2D.toneState()
        var scene = Scene(width: 640, height: 360)
        CircularMode().build(state, layout: layout, into: &scene)
        let g = CircularMode.geometry(layout: layout)
        let c = layout.pixel(g.center)
        var far = (d: Float(0), dir: SIMD2<Float>(0, 0))
        for v in scene.vertices2D where v.color.w == 1 {
            let p = layout.pixel(v.position)
            let d = SIMD2(p.x - c.x, c.y - p.y)
            let len = (d * d).sum().squareRoot()
            if len > far.d { far = (len, d / len) }
        }
        // The corner of the wedge is half a bar off the band's centre angle: same band.
        XCTAssertEqual(CircularMode.band(atDirection: far.dir), Modes2D.band440)
        // Clockwise from the top: 440 Hz (position 0.45) points down and to the right.
        XCTAssertGreaterThan(far.dir.x, 0)
        XCTAssertLessThan(far.dir.y, 0)
    }

    func testSpectrogramNewestRowIsAtTheTopAndBrightestIn440Column() {
        let state = Modes2D.toneState()
        var scene = Scene(width: 640, height: 360)
        SpectrogramMode().build(state, layout: layout, into: &scene)
        XCTAssertEqual(scene.vertices2D.count, 128 * 128 * 6)
        // Newest row (127) is the last 128 quads and lies at the top of the spectrum area.
        let newest = scene.vertices2D[(127 * 128 * 6)...]
        XCTAssertEqual(newest.map(\.position.y).max()!, layout.spectrum.y1, accuracy: 1e-6)
        let hottest = stride(from: newest.startIndex, to: newest.endIndex, by: 6).max { a, b in
            let ca = scene.vertices2D[a].color, cb = scene.vertices2D[b].color
            return heat(ca) < heat(cb)
        }!
        XCTAssertEqual((hottest - newest.startIndex) / 6, Modes2D.band440)
    }

    /// Position along the heat ramp of a colour (black 0 … red 1), for ranking cells.
    func heat(_ c: SIMD4<Float>) -> Float {
        var best: (Float, Float) = (0, .infinity)
        for k in 0...400 {
            let t = Float(k) / 400
            let d = Palette.heat.color(t) - c
            let e = (d * d).sum()
            if e < best.1 { best = (t, e) }
        }
        return best.0
    }

    func testPixelsLightThe440BandInEveryMode() throws {
        let state = Modes2D.toneState()
        let r = layout.spectrum
        let top = Int(layout.pixel(SIMD2(0, r.y1)).y), bottom = Int(layout.pixel(SIMD2(0, r.y0)).y)
        for mode in Modes2D.modes {
            let picture = try Modes2D.render(Modes2D.scene(mode, state: state, layout: layout))
            switch mode {
            case .bars, .curve:
                // Lit height of each band's centre column; the tallest is the 440 band.
                let heights = (0..<128).map { i -> Int in
                    let x = Int(layout.pixel(SIMD2(r.x0 + (Float(i) + 0.5) / 128 * r.width, 0)).x)
                    return (top..<bottom).filter { Modes2D.brightness(picture, x, $0) > 40 }.count
                }
                let tallest = heights.indices.max { heights[$0] < heights[$1] }!
                XCTAssertTrue(abs(tallest - Modes2D.band440) <= (mode == .bars ? 0 : 1), "\(mode): band \(tallest)")
            case .circular:
                let c = layout.pixel(CircularMode.geometry(layout: layout).center)
                var far = (d: Float(0), x: 0, y: 0)
                // Only the ring's disc (the waveform strip is lit too).
                let limit = CircularMode.geometry(layout: layout).unitPixels * 0.42
                for y in 0..<picture.height {
                    for x in 0..<picture.width where Modes2D.brightness(picture, x, y) > 120 {
                        let dx = Float(x) + 0.5 - c.x, dy = c.y - Float(y) - 0.5
                        let d = (dx * dx + dy * dy).squareRoot()
                        if d > far.d && d < limit { far = (d, x, y) }
                    }
                }
                let dir = SIMD2(Float(far.x) + 0.5 - c.x, c.y - Float(far.y) - 0.5)
                XCTAssertTrue(abs(CircularMode.band(atDirection: dir) - Modes2D.band440) <= 1, "ring lit at \(dir)")
            default:
                // Row just under the top edge (the newest row): the hottest column.
                let y = top + 1
                let columns = (0..<128).map { i -> Float in
                    let x = Int(layout.pixel(SIMD2(r.x0 + (Float(i) + 0.5) / 128 * r.width, 0)).x)
                    let p = picture.rgba(x: x, y: y)
                    return heat(SIMD4(Float(p.x), Float(p.y), Float(p.z), 255) / 255)
                }
                XCTAssertEqual(columns.indices.max { columns[$0] < columns[$1] }!, Modes2D.band440)
            }
        }
    }

    func testAToneThatStopsFadesToTenPercentInAbout300ms() {
        var state = Modes2D.toneState(seconds: 2)
        let start = state.display[Modes2D.band440]
        let silence = SpectrumFrame()
        var frames = 0
        while state.display[Modes2D.band440] > 0.1 * start && frames < 100 {
            state.step(toward: silence)
            frames += 1
        }
        // log(0.1) / log(1 − 0.12) = 18.01 frames: 10% is reached on the 19th frame (≈ 317 ms).
        XCTAssertEqual(frames, 19)
        XCTAssertEqual(Double(frames) / 60, 0.3, accuracy: 0.02)
        // The bar drawn at that moment is a tenth of its height.
        var scene = Scene(width: 640, height: 360)
        BarsMode().build(state, layout: layout, into: &scene)
        let barTop = scene.vertices2D.filter { $0.color.w == 1 }.map(\.position.y).max()!
        XCTAssertLessThanOrEqual((barTop - layout.spectrum.y0) / layout.spectrum.height, 0.1 * start + 1e-4)
    }
}
