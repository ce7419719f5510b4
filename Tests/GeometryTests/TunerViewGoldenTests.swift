import Geometry
import MediaIO
import Raster
import ShadersCPU
import SpecvizCore
import SpecvizTestSupport
import Tuning
import XCTest

/// Golden frames of the tuner view: every meter pair at in tune, 12¢ sharp and 30¢ flat,
/// landscape and portrait, plus the `---` state, from synthetic states. Compared with a
/// per-channel tolerance of 6 and at most 0.5 % differing pixels (glyph edges and glow
/// gradients may move by a level between machines). To look at a meter full-size, render
/// it: `specviz render FILE --mode tuner --meter arc --at T -o tuner.png`.
final class TunerViewGoldenTests: XCTestCase {
    static let states: [(String, Double)] = [("intune", 0), ("sharp12", 12), ("flat30", -30)]
    static let sizes: [(String, Int, Int)] = [("landscape", 240, 135), ("portrait", 135, 240)]

    private func render(meter: TunerMeter, cents: Double?, width: Int, height: Int) throws -> PixelBuffer {
        var state = VisualState()
        if let cents {
            // Strobe bands mid-drift: phases differ per harmonic, energies fall with k.
            state.tunerView = TunerViewState(
                target: Note(midi: 45), cents: cents,
                strobePhase: SIMD4(0.3, 1.1, 2.0, 2.9), strobeEnergy: SIMD4(1, 0.75, 0.55, 0.35))
        }
        let layout = Layout(width: width, height: height)
        var scene = Scene(width: width, height: height)
        TunerViewMode(meter: meter, preset: "guitar-standard", reference: 440).build(state, layout: layout, into: &scene)
        var picture = PixelBuffer(width: width, height: height)
        try Rasterizer(threads: 1).render(
            scene, into: &picture, shader2D: FlatShader(), shader3D: LitShader(),
            glyphProvider: try FreeTypeFont())
        return picture
    }

    func testGoldenFrames() throws {
        for meter in TunerMeter.allCases {
            for (stateName, cents) in TunerViewTests_states() {
                for (sizeName, w, h) in TunerViewGoldenTests.sizes {
                    let picture = try render(meter: meter, cents: cents, width: w, height: h)
                    GoldenFrame.assertMatches(
                        picture, name: "tuner/\(meter.rawValue)-\(stateName)-\(sizeName)",
                        tolerance: 6, maxDifferingFraction: 0.005)
                }
            }
        }
    }

    private func TunerViewTests_states() -> [(String, Double?)] {
        TunerViewGoldenTests.states.map { ($0.0, Optional($0.1)) } + [("none", nil)]
    }

    /// The frames are not black: the chassis and a lit meter put light on screen, and the
    /// lit LED's side matches the sign of the cents.
    func testLitSideMatchesCents() throws {
        func redOnSide(_ p: PixelBuffer, left: Bool) -> Int {
            var n = 0
            for y in 0..<p.height / 2 {
                let xs = left ? 0..<(p.width * 3 / 10) : (p.width * 3 / 10)..<(p.width * 6 / 10)
                for x in xs {
                    let c = p.rgba(x: x, y: y)
                    if c.x > 170 && c.y < 110 && c.z < 90 { n += 1 }
                }
            }
            return n
        }
        let sharp = try render(meter: .arc, cents: 30, width: 480, height: 270)
        let flat = try render(meter: .arc, cents: -30, width: 480, height: 270)
        XCTAssertGreaterThan(redOnSide(sharp, left: false), 4 * max(1, redOnSide(sharp, left: true)))
        XCTAssertGreaterThan(redOnSide(flat, left: true), 4 * max(1, redOnSide(flat, left: false)))
    }
}
