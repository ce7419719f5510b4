import Geometry
import Specviz
import SpecvizCore
import SpecvizTestSupport
import XCTest

/// Golden frames of issue 17's layouts: cover, logo and background picture in landscape,
/// portrait and square frames, and stereo drawn split and mirrored. No text (fonts differ
/// between machines); the pictures are synthetic.
final class PublishingGoldenTests: XCTestCase {
    static let rate = 44100
    static func tone(_ hz: [Double], seconds: Double = 2) -> [Float] {
        (0..<Int(seconds * Double(rate))).map { i in
            Float(hz.reduce(0) { $0 + 0.3 * sin(2 * Double.pi * $1 * Double(i) / Double(rate)) })
        }
    }

    /// A 48×48 picture: a diagonal colour gradient with a white disc.
    static var cover: PixelBuffer {
        var p = PixelBuffer(width: 48, height: 48)
        for y in 0..<48 {
            for x in 0..<48 {
                let dx = Float(x) - 24, dy = Float(y) - 24
                let disc: Float = dx * dx + dy * dy < 100 ? 1 : 0
                let c = SIMD4<Float>(Float(x) / 47, 0.3, Float(y) / 47, 1)
                p.pixels[y * 48 + x] = PixelBuffer.pack(c + (SIMD4(1, 1, 1, 1) - c) * disc)
            }
        }
        return p
    }

    func render(
        _ name: String, width: Int, height: Int, mode: VisualizationMode = .bars,
        right: [Float]? = nil, configure: (inout RenderSettings) -> Void
    ) throws {
        var s = RenderSettings()
        s.mode = mode
        s.width = width
        s.height = height
        s.labels = false
        configure(&s)
        let left = BufferAudioSource(samples: Self.tone([220, 1760]), sampleRate: Self.rate)
        let job = RenderJob(
            source: left, right: right.map { BufferAudioSource(samples: $0, sampleRate: Self.rate) },
            settings: s, glyphs: nil)
        GoldenFrame.assertMatches(try job.still(at: 1.5), name: "publishing/" + name)
    }

    func testCoverLogoAndBackgroundLayouts() throws {
        var art = Artwork()
        art.cover = Self.cover
        art.logo = Self.cover.dimmed(0.3)
        art.background = Self.cover
        art.backgroundBlur = 0.03
        art.backgroundDim = 0.7
        for (name, w, h) in [("cover-landscape", 320, 180), ("cover-portrait", 180, 320), ("cover-square", 240, 240)] {
            try render(name, width: w, height: h, mode: name.hasSuffix("portrait") ? .circular : .bars) { $0.artwork = art }
        }
    }

    func testStereoSplitAndMirror() throws {
        let right = Self.tone([440, 5000])
        try render("stereo-split-bars", width: 320, height: 180, right: right) { $0.stereo = .split }
        try render("stereo-mirror-curve", width: 320, height: 180, mode: .curve, right: right) { $0.stereo = .mirror }
    }
}
