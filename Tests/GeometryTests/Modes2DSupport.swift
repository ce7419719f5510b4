import Analysis
import Geometry
import MediaIO
import Raster
import ShadersCPU
import SpecvizCore
import SpecvizTestSupport

/// Shared fixtures of the 2D mode tests: states from real analysis of synthetic tones,
/// whole frames composed as the app composes them, and text bounding boxes.
enum Modes2D {
    static let modes: [VisualizationMode] = [.bars, .curve, .circular, .spectrogram]
    static let band440 = LogBands.index(ofFrequency: 440)

    /// Runs `seconds` of a 440 Hz sine (amplitude 0.3) through the analyser and the 60 fps
    /// smoothing, exactly as the render path does (latest analysis frame per video frame),
    /// with the state only `mode` keeps (the 2D modes' one history is the spectrogram's).
    static func toneState(
        seconds: Double = 3, hz: Double = 440, fps: Int = 60, mode: VisualizationMode = .spectrogram
    ) -> VisualState {
        let samples = Signals.sines([(hz, 0.3)], seconds: seconds)
        let analyzer = SpectrumAnalyzer(sampleRate: 44100, musicMode: false)
        var frame = SpectrumFrame()
        var state = VisualState()
        state.modeState = mode.unit.makeState(ModeSettings(), height: 360)
        var consumed = 0
        let hop = SpectrumAnalyzer.hopSize
        let frames = Int(seconds * Double(fps))
        for k in 0..<frames {
            let t = Double(k) / Double(fps)
            while consumed + hop <= samples.count && Double(consumed + hop) / 44100 <= t {
                samples.withUnsafeBufferPointer { s in
                    analyzer.process(UnsafeBufferPointer(rebasing: s[consumed..<(consumed + hop)]), into: &frame)
                }
                consumed += hop
            }
            state.step(toward: frame)
        }
        return state
    }

    /// A state with every band at `value`, peaks at `peak`, a full-scale waveform and both
    /// overlays: the most crowded frame, for the layout checks.
    static func fullState(value: Float = 1, peak: Float = 1) -> VisualState {
        var state = VisualState()
        var frame = SpectrumFrame()
        frame.bands = [Float](repeating: value, count: LogBands.count)
        frame.waveform = (0..<SpectrumAnalyzer.waveformLength).map { i in Float(i % 2 == 0 ? 1 : -1) }
        frame.dbTop = -5
        frame.dbBottom = -45
        for _ in 0..<200 { state.step(toward: frame) }
        for i in 0..<LogBands.count { state.peaks[i] = peak }
        state.tuner = TunerOverlay(note: "C#4", cents: -23.6, frequency: 275.3)
        state.tempo = TempoOverlay(bpm: 128, beat: 1)
        return state
    }

    /// The frame as the app composes it for `mode` (`ModeCatalog.build`): mode geometry,
    /// waveform strip, labels and, in the modes with overlays, the overlays.
    static func scene(_ mode: VisualizationMode, state: VisualState, layout: Layout, title: String? = nil) -> Scene {
        var scene = Scene(width: layout.width, height: layout.height)
        ModeCatalog.build(mode, state: state, layout: layout, title: title, into: &scene)
        return scene
    }

    static let font: FreeTypeFont? = try? FreeTypeFont()

    static func render(_ scene: Scene) throws -> PixelBuffer {
        var picture = PixelBuffer(width: scene.width, height: scene.height)
        try Rasterizer(threads: 1).render(
            scene, into: &picture, shader2D: FlatShader(), shader3D: LitShader(),
            glyphProvider: font)
        return picture
    }

    /// Inked pixel box of a text run, placed as the rasteriser places it.
    static func box(_ run: TextRun, font: FreeTypeFont) -> Layout.Rect? { SceneBoxes.box(run, font: font) }

    static func overlaps(_ a: Layout.Rect, _ b: Layout.Rect) -> Bool {
        a.x0 < b.x1 && b.x0 < a.x1 && a.y0 < b.y1 && b.y0 < a.y1
    }

    /// Sum of RGB of a pixel (0…765).
    static func brightness(_ p: PixelBuffer, _ x: Int, _ y: Int) -> Int {
        let c = p.rgba(x: x, y: y)
        return Int(c.x) + Int(c.y) + Int(c.z)
    }
}
