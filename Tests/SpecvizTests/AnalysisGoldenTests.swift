import Analysis
import Geometry
import MediaIO
import Specviz
import SpecvizCore
import SpecvizTestSupport
import XCTest

/// Golden frames of the analyser options (issue 16) on a synthetic track: a slow bass
/// sweep under a two-note chord and noise bursts, drawn at the command line's defaults
/// (band power, auto tilt, full-resolution spectrogram) and at other scales.
final class AnalysisGoldenTests: XCTestCase {
    /// 6 s: a log sweep 30 → 300 Hz, A4 + E5, and a noise burst every 0.5 s.
    static let track: [Float] = {
        let rate = 44100.0, seconds = 6.0
        let k = log(10.0)
        var state: UInt32 = 99
        return (0..<Int(rate * seconds)).map { i in
            let t = Double(i) / rate
            let sweep = 0.3 * sin(2 * Double.pi * 30 * seconds / k * (exp(t / seconds * k) - 1))
            let chord = 0.1 * sin(2 * Double.pi * 440 * t) + 0.08 * sin(2 * Double.pi * 659.26 * t)
            state = state &* 1664525 &+ 1013904223
            let burst = t.truncatingRemainder(dividingBy: 0.5) < 0.05 ? 0.1 * (Double(state >> 8) / Double(1 << 24) - 0.5) : 0
            return Float(sweep + chord + burst)
        }
    }()

    func render(_ name: String, mode: VisualizationMode, configure: (inout RenderSettings) -> Void) throws {
        var s = RenderSettings()
        s.mode = mode
        s.width = 320
        s.height = 180
        s.labels = false
        s.analysis = AnalysisConfig()
        s.fullResolutionSpectrogram = true
        configure(&s)
        let job = RenderJob(source: BufferAudioSource(samples: Self.track, sampleRate: 44100), settings: s, glyphs: nil)
        GoldenFrame.assertMatches(try job.still(at: 5), name: "analysis/" + name)
    }

    func testGoldenFramesAtTheCommandLineDefaults() throws {
        try render("bars-default", mode: .bars) { _ in }
        try render("spectrogram-full", mode: .spectrogram) { _ in }
        try render("surface-default", mode: .surface) { _ in }
    }

    func testGoldenFramesAtOtherScales() throws {
        try render("bars-notes", mode: .bars) {
            $0.analysis.scale = .notes; $0.analysis.lowHz = 30; $0.analysis.highHz = 4200
        }
        try render("curve-octave3-A", mode: .curve) {
            $0.analysis.scale = .octave(3); $0.analysis.weighting = .a
        }
        try render("spectrogram-mel-fixed", mode: .spectrogram) {
            $0.analysis.scale = .mel
            $0.analysis.bands = 256
            $0.analysis.dbRange = -80 ... -10
        }
    }
}
