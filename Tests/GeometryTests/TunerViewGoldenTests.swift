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
/// gradients may move by a level between machines). Set SPECVIZ_TUNER_PREVIEW=DIR to also
/// write full-HD frames there for looking at.
final class TunerViewGoldenTests: XCTestCase {
    static let states: [(String, Double)] = [("intune", 0), ("sharp12", 12), ("flat30", -30)]
    static let sizes: [(String, Int, Int)] = [("landscape", 240, 135), ("portrait", 135, 240)]

    private func render(meter: TunerMeter, cents: Double?, width: Int, height: Int) throws -> PixelBuffer {
        var state = VisualState()
        if let cents {
            // Strobe bands mid-drift: phases differ per harmonic, energies fall with k.
            state.tunerView = TunerViewState(target: Note(midi: 45), cents: cents,
                                             strobePhase: SIMD4(0.3, 1.1, 2.0, 2.9), strobeEnergy: SIMD4(1, 0.75, 0.55, 0.35))
        }
        let layout = Layout(width: width, height: height)
        var scene = Scene(width: width, height: height)
        TunerViewMode(meter: meter, preset: "guitar-standard", reference: 440).build(state, layout: layout, into: &scene)
        var picture = PixelBuffer(width: width, height: height)
        try Rasterizer(threads: 1).render(scene, into: &picture, shader2D: FlatShader(), shader3D: LitShader(),
                                          glyphProvider: try FreeTypeFont())
        return picture
    }

    func testGoldenFrames() throws {
        for meter in TunerMeter.allCases {
            for (stateName, cents) in TunerViewTests_states() {
                for (sizeName, w, h) in TunerViewGoldenTests.sizes {
                    let picture = try render(meter: meter, cents: cents, width: w, height: h)
                    GoldenFrame.assertMatches(picture, name: "tuner/\(meter.rawValue)-\(stateName)-\(sizeName)",
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

    /// Build + rasterise time per 1920x1080 frame for each meter (SPECVIZ_TUNER_TIMING=1;
    /// meaningful in release builds). Two rasteriser threads, glyphs cached after frame 1.
    func testFrameTime() throws {
        guard ProcessInfo.processInfo.environment["SPECVIZ_TUNER_TIMING"] == "1" else { return }
        let font = try FreeTypeFont()
        let rasterizer = Rasterizer(threads: 2)
        let layout = Layout(width: 1920, height: 1080)
        var scene = Scene(width: 1920, height: 1080)
        var picture = PixelBuffer(width: 1920, height: 1080)
        var state = VisualState()
        state.tunerView = TunerViewState(target: Note(midi: 45), cents: 12)
        for meter in TunerMeter.allCases {
            let mode = TunerViewMode(meter: meter)
            var best = Double.infinity, total = 0.0, building = 0.0
            let frames = 30
            for i in 0..<(frames + 3) {
                let t0 = Date()
                scene.reset(width: 1920, height: 1080)
                mode.build(state, layout: layout, into: &scene)
                if i >= 3 { building += Date().timeIntervalSince(t0) }
                try rasterizer.render(scene, into: &picture, shader2D: FlatShader(), shader3D: LitShader(), glyphProvider: font)
                let dt = Date().timeIntervalSince(t0)
                if i >= 3 { best = min(best, dt); total += dt }
            }
            print("tuner \(meter.rawValue) 1920x1080: mean \(total / Double(frames) * 1000) ms, best \(best * 1000) ms (building \(building / Double(frames) * 1000) ms), "
                  + "\(scene.vertices2D.count) vertices")
        }
    }

    func testPreviewFrames() throws {
        let env = ProcessInfo.processInfo.environment
        guard let dir = env["SPECVIZ_TUNER_PREVIEW"] else { return }
        let only = env["SPECVIZ_TUNER_PREVIEW_ONLY"] ?? ""
        for meter in TunerMeter.allCases {
            for (name, cents) in TunerViewTests_states() {
                for (orientation, w, h) in [("landscape", 1920, 1080), ("portrait", 1080, 1920)] {
                    let file = "\(meter.rawValue)-\(name)-\(orientation)"
                    guard only.isEmpty || file.contains(only) else { continue }
                    let p = try render(meter: meter, cents: cents, width: w, height: h)
                    try PNGFile.write(p, to: "\(dir)/\(file).png")
                }
            }
        }
    }
}
