import Analysis
import Geometry
import MediaIO
import Raster
import Specviz
import SpecvizCore
import SpecvizTestSupport
import XCTest

/// Issue 39, "a layout that reserves space": the title, the artist, the cover, the logo, the
/// labels and the plot each get a box of their own. Every mode, at many sizes (16:9, 9:16,
/// 1:1, 4:5, 21:9, small and 4K), one channel and stereo (split, mirrored), with and without
/// cover, logo and tags, composed as a render composes it with every band loud: every text
/// run, the cover, the logo and the mode's picture lie inside the frame, and none overlaps
/// another (a mode that places its own labels, the ring and the 3D modes, puts them among
/// its picture: only they may lie in its box).
final class FrameBoxesTests: XCTestCase {
    static let sizes: [(Int, Int)] = [
        (1920, 1080), (1080, 1920), (1080, 1080), (1080, 1350), (2520, 1080), (160, 90), (3840, 2160),
    ]

    struct Tags {
        var name: String
        var title: String?
        var artist: String?
        var cover = false
        var logo = false
    }

    static let tags = [
        Tags(name: "none"),
        Tags(name: "title", title: "A rather long title for the video, longer than the header has room for"),
        Tags(name: "all", title: "Night Drive", artist: "The Demo Band", cover: true, logo: true),
    ]

    /// A picture `w`×`h` (the cover is square, the logo wide).
    static func picture(_ w: Int, _ h: Int) -> PixelBuffer {
        var p = PixelBuffer(width: w, height: h)
        for i in 0..<p.pixels.count { p.pixels[i] = 0xFF80_4020 }
        return p
    }

    func testEveryBoxIsInsideTheFrameAndClearOfTheOthers() throws {
        let font = try FreeTypeFont()
        var loud = SpectrumFrame()
        loud.bands = [Float](repeating: 1, count: LogBands.count)
        loud.waveform = (0..<SpectrumAnalyzer.waveformLength).map { Float($0 % 2 == 0 ? 1 : -1) }
        loud.dbTop = -5
        loud.dbBottom = -45
        loud.levelUnit = "dB(468)"
        var checked = 0
        for (w, h) in Self.sizes {
            for mode in VisualizationMode.allCases {
                let stereos: [StereoLayout?] = mode.traits.stereo ? [nil, .split, .mirror] : [nil]
                // The spectrogram at full resolution and on its grid (their time axes differ).
                let grids = mode == .spectrogram ? [false, true] : [false]
                for stereo in stereos {
                    for (grid, tags) in grids.flatMap({ g in Self.tags.map { (g, $0) } }) {
                        var s = RenderSettings()
                        s.mode = mode
                        s.width = w
                        s.height = h
                        s.threads = 1
                        s.stereo = stereo
                        s.fullResolutionSpectrogram = !grid
                        s.tunerOverlay = true
                        s.tempoOverlay = true
                        s.smoothing = Smoothing(attack: 1, decay: 1)
                        s.title = tags.title
                        s.artist = tags.artist
                        if tags.cover { s.artwork.cover = Self.picture(300, 300) }
                        if tags.logo { s.artwork.logo = Self.picture(400, 120) }
                        let composer = FrameComposer(settings: s, glyphs: font)
                        for k in 0..<7 {
                            var f = loud
                            f.index = k
                            f.time = Double(k + 1) * 0.05
                            composer.step(toward: f, time: Double(k) / 60, beats: k / 10)
                            if stereo != nil { composer.stepRight(toward: f) }
                        }
                        composer.setOverlays(
                            tuner: TunerOverlay(note: "C#4", cents: -23.6, frequency: 275.3), tempo: TempoOverlay(bpm: 128, beat: 1))
                        composer.buildScene()
                        let tag = "\(mode)\(grid ? " grid" : "") \(w)x\(h) \(stereo.map(\.rawValue) ?? "mono") \(tags.name)"
                        check(composer, font: font, tag: tag, labelsAmongPicture: mode.traits.labels == .own)
                        if tags.cover && stereo == nil && min(w, h) >= 360 && mode.traits.labels != .none {
                            // The cover follows the frame's shape: the plot keeps a fair share.
                            let plot = composer.layout.spectrum.height * 0.5
                            XCTAssertGreaterThan(plot, 0.4, "\(tag): the plot has \(plot) of the height")
                        }
                        checked += 1
                    }
                }
            }
        }
        XCTAssertGreaterThan(checked, 200)
    }

    /// - labelsAmongPicture: the mode places its own labels around its picture (the ring's
    ///   radially, the 3D modes' along the projected front edge), inside its bounding box.
    func check(_ composer: FrameComposer, font: FreeTypeFont, tag: String, labelsAmongPicture: Bool) {
        let scene = composer.scene, layout = composer.layout
        let w = Float(layout.width), h = Float(layout.height)
        var boxes: [(String, Layout.Rect)] = []
        // Text inside the mode's own picture (the tuner view's) is the picture's.
        for (i, item) in scene.items.enumerated() where !composer.pictureItems.contains(where: { $0.contains(i) }) {
            guard case .text(let run) = item, let b = SceneBoxes.box(run, font: font) else { continue }
            boxes.append(("'\(run.text)'", b))
        }
        if let art = composer.artworkLayout {
            if let c = art.cover { boxes.append(("cover", c)) }
            if let l = art.logo { boxes.append(("logo", l)) }
        }
        let texts = boxes.count
        for (k, range) in composer.pictureItems.enumerated() where !range.isEmpty {
            let e = SceneBoxes.extent(scene, items: range, layout: layout)
            XCTAssertTrue(e.x0 >= -1 && e.y0 >= -1 && e.x1 <= w + 1 && e.y1 <= h + 1, "\(tag): the picture leaves the frame: \(e)")
            boxes.append(("picture \(k)", e))
        }
        // The ring's labels lie among its bars; the header's lines never do.
        let lines = [composer.settings.title, composer.settings.artist].compactMap { $0 }.filter { !$0.isEmpty }
        func headerLine(_ name: String) -> Bool {
            let start = name.dropFirst().prefix(6)
            return name.hasPrefix("'") && lines.contains { $0.hasPrefix(start) }
        }
        for (i, (name, b)) in boxes.enumerated() {
            if i < texts {
                XCTAssertTrue(b.x0 >= 0 && b.y0 >= 0 && b.x1 <= w && b.y1 <= h, "\(tag): \(name) cut at the frame's edge: \(b)")
            }
            for (other, ob) in boxes[..<i] {
                let textOnRing = labelsAmongPicture && name.hasPrefix("picture") && other.hasPrefix("'") && !headerLine(other)
                if !textOnRing && Self.overlaps(b, ob) { XCTFail("\(tag): \(name) \(b) overlaps \(other) \(ob)") }
            }
        }
        // The other draws (strip, key, overlays) keep clear of the cover and the logo.
        guard let art = composer.artworkLayout else { return }
        for (i, item) in scene.items.enumerated() {
            guard case .draw = item, !composer.pictureItems.contains(where: { $0.contains(i) }) else { continue }
            let e = SceneBoxes.extent(scene, items: i..<(i + 1), layout: layout)
            for (name, r) in [("cover", art.cover), ("logo", art.logo)] {
                if let r, Self.overlaps(e, r) { XCTFail("\(tag): draw \(i) \(e) under the \(name) \(r)") }
            }
        }
    }

    /// Overlap by more than half a pixel (edges that touch do not overlap).
    static func overlaps(_ a: Layout.Rect, _ b: Layout.Rect) -> Bool {
        a.x0 < b.x1 - 0.5 && b.x0 < a.x1 - 0.5 && a.y0 < b.y1 - 0.5 && b.y0 < a.y1 - 0.5
    }
}
