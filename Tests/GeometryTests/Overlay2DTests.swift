import Geometry
import SpecvizCore
import XCTest

/// Palettes and the tuner / BPM overlays.
final class Overlay2DTests: XCTestCase {
    func testSeedHeatmapStops() {
        let h = Palette.heat
        XCTAssertEqual(h.color(0), SIMD4(0, 0, 0, 1))
        XCTAssertEqual(h.color(0.25), SIMD4(0, 0, 0.8, 1))
        XCTAssertEqual(h.color(0.5), SIMD4(0, 1, 1, 1))
        XCTAssertEqual(h.color(0.75), SIMD4(1, 1, 0, 1))
        XCTAssertEqual(h.color(1), SIMD4(1, 0.3, 0, 1))
        let mid = h.color(0.125)
        XCTAssertEqual(mid.z, 0.4, accuracy: 1e-6)
        XCTAssertEqual(Palette.spectrum.color(0.5), SIMD4(0, 1, 0, 1))
        XCTAssertEqual(Palette.spectrum.color(-3), SIMD4(0, 0, 1, 1))
    }

    func testNamedPalettesAndPerceptualOrder() {
        XCTAssertEqual(Palette.named("MAGMA")?.name, "magma")
        XCTAssertNil(Palette.named("rainbow-ish"))
        XCTAssertEqual(Set(Palette.all.map(\.name)).count, Palette.all.count)
        // The perceptually uniform maps rise monotonically in luminance.
        for p in [Palette.magma, .viridis, .inferno, .gray] {
            var last: Float = -1
            for k in 0...64 {
                let c = p.color(Float(k) / 64)
                let y = 0.2126 * c.x + 0.7152 * c.y + 0.0722 * c.z
                XCTAssertGreaterThan(y, last - 1e-4, "\(p.name) at \(k)")
                last = y
            }
        }
    }

    func testTunerColourBands() {
        XCTAssertEqual(TunerOverlay(note: "A4", cents: 4.9, frequency: 442).color, TunerOverlay(note: "A4", cents: -2, frequency: 440).color)
        XCTAssertNotEqual(TunerOverlay(note: "A4", cents: 5.5, frequency: 443).color, TunerOverlay(note: "A4", cents: 0, frequency: 440).color)
        XCTAssertEqual(TunerOverlay(note: "A4", cents: -15, frequency: 434).color, TunerOverlay(note: "A4", cents: 6, frequency: 443).color)
        XCTAssertNotEqual(TunerOverlay(note: "A4", cents: 16, frequency: 447).color, TunerOverlay(note: "A4", cents: 14, frequency: 446).color)
    }

    func overlayScene(_ state: VisualState, _ layout: Layout) -> Scene {
        var scene = Scene(width: layout.width, height: layout.height)
        OverlayView().build(state, layout: layout, into: &scene)
        return scene
    }

    func texts(_ scene: Scene) -> [TextRun] {
        scene.items.compactMap { if case .text(let r) = $0 { return r } else { return nil } }
    }

    /// Note and cents in the tuner colour, inside the tuner slot; the marker moves with cents.
    func testTunerOverlayTextColourAndMarker() {
        let layout = Layout(width: 1920, height: 1080)
        var state = VisualState()
        state.tuner = TunerOverlay(note: "E2", cents: -30, frequency: 81.0)
        let scene = overlayScene(state, layout)
        let runs = texts(scene)
        XCTAssertEqual(runs.map(\.text), ["E2", "−30¢"])
        XCTAssertTrue(runs.allSatisfy { $0.color == state.tuner!.color })
        let slot = layout.tunerSlot
        for r in runs { XCTAssertTrue(r.origin.x >= slot.x0 && r.origin.x <= slot.x1 && r.origin.y <= slot.y1) }
        // Marker: the quad in the tuner colour; −30¢ puts it 30% of the half-track left of centre.
        let marker = scene.vertices2D.filter { $0.color == state.tuner!.color }.map { layout.pixel($0.position).x }
        let centreX = (marker.min()! + marker.max()!) / 2
        XCTAssertEqual(centreX, (slot.x0 + slot.x1) / 2 - 0.3 * slot.width, accuracy: 0.5)
        // Nothing without labels (no font) or without a reading.
        XCTAssertTrue(overlayScene(state, Layout(width: 1920, height: 1080, labels: false)).items.isEmpty)
        XCTAssertTrue(overlayScene(VisualState(), layout).items.isEmpty)
    }

    /// The beat dot grows and brightens on a beat; "--- BPM" while no tempo is shown.
    func testBeatDotPulses() {
        let layout = Layout(width: 1280, height: 720)
        func dot(_ beat: Float, bpm: Double? = 124) -> (radius: Float, alpha: Float, text: String) {
            var state = VisualState()
            state.tempo = TempoOverlay(bpm: bpm, beat: beat)
            let scene = overlayScene(state, layout)
            let v = scene.vertices2D
            let centre = layout.pixel(v[0].position)
            let radius = v.map { p -> Float in
                let q = layout.pixel(p.position)
                return ((q.x - centre.x) * (q.x - centre.x) + (q.y - centre.y) * (q.y - centre.y)).squareRoot()
            }.max()!
            return (radius, v[0].color.w, texts(scene).first!.text)
        }
        let on = dot(1), off = dot(0)
        XCTAssertEqual(on.text, "124 BPM")
        XCTAssertGreaterThan(on.radius, off.radius * 1.5)
        XCTAssertGreaterThan(on.alpha, off.alpha + 0.4)
        XCTAssertEqual(dot(1, bpm: nil).text, "--- BPM")
        // The dot sits inside the tempo slot.
        XCTAssertLessThan(on.radius, layout.tempoSlot.height)
    }

    /// Issue 18: with a known metre, one dot per beat of the bar under the tempo, the
    /// current beat's lit, the downbeat's larger; none when the metre is unknown.
    func testBeatInBarDots() {
        let layout = Layout(width: 1280, height: 720)
        let n = OverlayView.dotSegments * 3
        func scene(position: Int?, perBar: Int?) -> Scene {
            var state = VisualState()
            state.tempo = TempoOverlay(bpm: 90, beat: 1, position: position, beatsPerBar: perBar)
            return overlayScene(state, layout)
        }
        XCTAssertEqual(scene(position: nil, perBar: nil).vertices2D.count, n)
        let waltz = scene(position: 2, perBar: 3).vertices2D
        XCTAssertEqual(waltz.count, 4 * n)
        // Dots 1…3 follow the beat dot's fan; only the second (the current beat) is lit.
        let dots = (1...3).map { Array(waltz[($0 * n)..<(($0 + 1) * n)]) }
        let lit = dots.map { $0[0].color != OverlayView.trackColor }
        XCTAssertEqual(lit, [false, true, false])
        func radius(_ d: [Vertex2D]) -> Float {
            let c = layout.pixel(d[0].position)
            return d.map {
                let q = layout.pixel($0.position); return ((q.x - c.x) * (q.x - c.x) + (q.y - c.y) * (q.y - c.y)).squareRoot()
            }.max()!
        }
        XCTAssertGreaterThan(radius(dots[0]), radius(dots[1]) * 1.2)
        // Left to right, inside the tempo slot.
        let xs = dots.map { layout.pixel($0[0].position).x }
        XCTAssertEqual(xs, xs.sorted())
        XCTAssertTrue(xs.allSatisfy { $0 >= layout.tempoSlot.x0 && $0 <= layout.tempoSlot.x1 })
    }
}
