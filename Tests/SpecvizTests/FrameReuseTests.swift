import Geometry
import MediaIO
import Raster
import ShadersCPU
import Specviz
import SpecvizCore
import SpecvizTestSupport
import XCTest

/// A frame whose leading layers say they are unchanged starts from the kept picture
/// (`Rasterizer.reusesUnchangedPrefix`, on for every render and the live view; the layers'
/// damage: `FrameLayers`): the pixels must be those of drawing the whole scene, frame after
/// frame, through history scrolls, beat flashes and overlays, and the spectrogram must
/// actually be spared its draws on the frames between two history rows (the 3D waterfall
/// moves on every frame). The suite's build checks every layer said to be unchanged.
final class FrameReuseTests: XCTestCase {
    /// The scene drawn whole by a rasteriser that keeps nothing.
    func whole(_ scene: Scene, glyphs: GlyphProvider? = nil) throws -> [UInt32] {
        var picture = PixelBuffer(width: scene.width, height: scene.height)
        try Rasterizer(threads: 2).render(scene, into: &picture, shader2D: FlatShader(), shader3D: LitShader(), glyphProvider: glyphs)
        return picture.pixels
    }

    func settings(_ mode: VisualizationMode, width: Int, height: Int, threads: Int) -> RenderSettings {
        var s = RenderSettings()
        s.mode = mode
        s.width = width
        s.height = height
        s.labels = false
        s.threads = threads
        // 32 bands, not 128: a quarter of the vertices to transform and compare, the same
        // kinds of change from frame to frame.
        s.analysis.bands = 32
        return s
    }

    /// Asserts equal pixels, naming how many differ (not the arrays).
    func assertSame(_ a: [UInt32], _ b: [UInt32], _ what: String, file: StaticString = #filePath, line: UInt = #line) {
        // Compared as bytes first (counting in a debug build is slow); counted only if unequal.
        if a.count == b.count && same(a[...], b[...]) { return }
        let differ = a.count == b.count ? zip(a, b).filter { $0 != $1 }.count : max(a.count, b.count)
        XCTAssertEqual(differ, 0, "\(what): \(differ) pixels differ", file: file, line: line)
    }

    /// Whether two runs of pixels of the same length are equal, byte for byte.
    func same(_ a: ArraySlice<UInt32>, _ b: ArraySlice<UInt32>) -> Bool {
        a.withUnsafeBytes { x in b.withUnsafeBytes { y in x.count == y.count && (x.isEmpty || memcmp(x.baseAddress!, y.baseAddress!, x.count) == 0) } }
    }

    /// Clicks at 120 BPM over a chord (3 s at 44.1 kHz): beats flash the 3D modes (every
    /// vertex brightened), the tuner and tempo overlays change as they lock.
    let rate = 44100
    var clicksOverChord: [Float] {
        let clicks = ClickTracks.clicks(bpm: 120, seconds: 3, sampleRate: rate)
        let chord = ToneGenerators.harmonic(f0: 196, amplitudes: [1, 0.5, 0.3], sampleRate: rate, duration: 3)
        return zip(clicks, chord).map { $0 + 0.3 * $1 }
    }

    /// Every mode, and the full-resolution spectrogram (the command line's default).
    let everyMode = VisualizationMode.allCases.map { ($0, false) } + [(VisualizationMode.spectrogram, true)]

    /// `settings` with the tuner and tempo overlays on, and the mode's name in messages.
    func overlaid(_ mode: VisualizationMode, fullResolution: Bool, width: Int, height: Int) -> (RenderSettings, String) {
        var s = settings(mode, width: width, height: height, threads: 2)
        s.tempoOverlay = true
        s.tunerOverlay = true
        s.fullResolutionSpectrogram = fullResolution
        // A short history: at this height about a row per hop, so hops move the kept rows.
        s.historySeconds = 2.5
        return (s, fullResolution ? "full-resolution spectrogram" : "\(mode)")
    }

    func testEveryModeSamePixelsAsDrawingEachFrameWhole() throws {
        let signal = clicksOverChord
        for (mode, fullResolution) in everyMode {
            // 123 px: not a multiple of 8 (blocks meet the right edge); one band of 128 rows.
            let (s, name) = overlaid(mode, fullResolution: fullResolution, width: 123, height: 69)
            let job = RenderJob(source: BufferAudioSource(samples: signal, sampleRate: rate), settings: s, glyphs: nil)
            var picture = PixelBuffer(width: s.width, height: s.height)
            var reused = 0, moved = 0, frames = 0
            for k in 30..<66 {
                try job.advance(toFrame: k)
                try job.composer.render(into: &picture)
                assertSame(picture.pixels, try whole(job.composer.scene), "\(name), frame \(k)")
                if job.composer.lastReusedItems > 0 { reused += 1 }
                if job.composer.lastMovedItems > 0 { moved += 1 }
                frames += 1
            }
            if fullResolution {
                // A hop every 2–3 frames: its frame moves last frame's rows one row down.
                XCTAssertGreaterThanOrEqual(moved, 8, "\(name): \(moved) of \(frames) frames moved the kept rows")
            }
            XCTAssertGreaterThan(Set(picture.pixels).count, 8, "\(name): the frame shows something")
            switch mode {
            case .spectrogram:
                // A new history row every 3rd frame; flashes and other changes cost a few more.
                // (The 3D waterfall moves on every frame, issue 39: nothing of it is kept.)
                XCTAssertGreaterThanOrEqual(reused, frames / 2, "\(name): \(reused) of \(frames) frames reused")
            default:
                break
            }
        }
    }

    /// The rows a frame reports as changed (`lastChangedRows`, which lets the video encoder
    /// convert only those) hold every pixel that differs from the frame before; with labels
    /// and overlays on, the frames between two history rows report a small part of the frame.
    /// Drawn as a render does, into three pictures in turn, each handed back with the frame
    /// it holds so that only the bands changed since are drawn: every frame must still be
    /// the scene drawn whole.
    func testChangedRowsHoldEveryPixelThatChanged() throws {
        let font = try FreeTypeFont()
        let signal = clicksOverChord
        for (mode, fullResolution) in everyMode {
            // 203 px: bands of 128 rows, three of them (the last one short).
            var (s, name) = overlaid(mode, fullResolution: fullResolution, width: 203, height: 300)
            s.labels = true
            let job = RenderJob(source: BufferAudioSource(samples: signal, sampleRate: rate), settings: s, glyphs: font)
            var pool = (0..<3).map { _ in (PixelBuffer(width: s.width, height: s.height), Rasterizer.FrameStamp?.none) }
            var previous: [UInt32]? = nil
            var reportedRows = 0, changedRows = 0, frames = 0
            for k in 30..<54 {
                try job.advance(toFrame: k)
                var (picture, held) = pool.removeFirst()
                try job.composer.render(into: &picture, holding: held)
                pool.append((picture, job.composer.lastFrameStamp))
                assertSame(picture.pixels, try whole(job.composer.scene, glyphs: font), "\(name), frame \(k)")
                let changed = job.composer.lastChangedRows
                var listed = [Bool](repeating: changed.isAll, count: s.height)
                changed.forEach { r in for y in max(0, r.lowerBound)..<min(s.height, r.upperBound) { listed[y] = true } }
                if let previous {
                    var missed = 0
                    for y in 0..<s.height {
                        let row = y * s.width..<(y + 1) * s.width
                        let differs = !same(picture.pixels[row], previous[row])
                        if differs { changedRows += 1 }
                        if differs && !listed[y] { missed += 1 }
                    }
                    XCTAssertEqual(missed, 0, "\(name), frame \(k): \(missed) rows changed but were not reported")
                    reportedRows += changed.rowCount(height: s.height)
                    frames += 1
                } else {
                    XCTAssertTrue(changed.isAll, "\(name): the first frame is all new")
                }
                previous = picture.pixels
            }
            XCTAssertGreaterThan(changedRows, 0, "\(name): the frames change")
            switch mode {
            case .spectrogram, .tuner:
                XCTAssertLessThan(reportedRows, frames * s.height / 2, "\(name): \(reportedRows) rows reported over \(frames) frames")
            default:
                break
            }
        }
    }

    /// A sink that reads only the bands that changed (as the video encoder does) is handed
    /// pictures drawn only there: rebuilt band by band from them, as the encoder rebuilds
    /// its frames, every frame must be the one a sink of whole pictures is handed, and some
    /// pictures must really hold older bands (else the test proves nothing).
    /// The modes that leave bands undrawn: scrolling rows, the tuner.
    func testASinkOfChangedBandsRebuildsEveryFrame() throws {
        let signal = clicksOverChord
        let modes: [(VisualizationMode, Bool)] = [(.spectrogram, false), (.spectrogram, true), (.tuner, false)]
        for (mode, fullResolution) in modes {
            // 203 px: the rasteriser's bands are 128 rows, four of the sink's 32.
            let (s, name) = overlaid(mode, fullResolution: fullResolution, width: 203, height: 300)
            var frames: [BandSink] = []
            for bands in [nil, 32] {
                let job = RenderJob(
                    source: BufferAudioSource(samples: signal, sampleRate: rate), settings: s, glyphs: nil, from: 0.5, to: 0.9)
                let sink = BandSink(bands: bands)
                try job.run(into: sink)
                frames.append(sink)
            }
            XCTAssertEqual(frames[0].frames.count, 24, name)
            XCTAssertEqual(frames[1].frames.count, frames[0].frames.count, name)
            for (k, (a, b)) in zip(frames[0].frames, frames[1].frames).enumerated() { assertSame(b, a, "\(name), frame \(k)") }
            XCTAssertEqual(frames[0].olderBands, 0, "\(name): a sink of whole pictures gets whole pictures")
            XCTAssertGreaterThan(frames[1].olderBands, 0, "\(name): bands left undrawn")
        }
    }

    /// since: a mark left in the top band (the spectrogram's grid) survives the frames
    /// between two history rows, and the frames that take a row draw over it.
    func testUnchangedBandsOfAHeldPictureAreLeftAlone() throws {
        let (job, s) = overATone(.spectrogram, width: 203, height: 300, threads: 2)
        var picture = PixelBuffer(width: s.width, height: s.height)
        var held: Rasterizer.FrameStamp? = nil
        let mark: UInt32 = 0xFF12_3456
        var kept = 0, redrawn = 0
        for k in 40..<58 {
            try job.advance(toFrame: k)
            try job.composer.render(into: &picture, holding: held)
            held = job.composer.lastFrameStamp
            var expected = try whole(job.composer.scene)
            if picture.pixels[0] == mark {
                XCTAssertGreaterThan(job.composer.lastReusedItems, 0, "frame \(k): only a frame between history rows keeps the band")
                expected[0] = mark
                kept += 1
            } else if k > 40 {
                redrawn += 1
            }
            assertSame(picture.pixels, expected, "frame \(k)")
            picture.pixels[0] = mark
        }
        XCTAssertGreaterThanOrEqual(kept, 8, "frames that left the top band alone")
        XCTAssertGreaterThanOrEqual(redrawn, 5, "frames that took a history row")
    }

    /// A render of 2 s of a harmonic tone at 220 Hz.
    func overATone(_ mode: VisualizationMode, width: Int, height: Int, threads: Int) -> (RenderJob, RenderSettings) {
        let tone = ToneGenerators.harmonic(f0: 220, amplitudes: [1, 0.6, 0.4], sampleRate: rate, duration: 2)
        let s = settings(mode, width: width, height: height, threads: threads)
        return (RenderJob(source: BufferAudioSource(samples: tone, sampleRate: rate), settings: s, glyphs: nil), s)
    }

    /// The 3D waterfall moves on every frame (issue 39): its draws are never taken from the
    /// frame before, and every frame is the scene drawn whole.
    func testSurfaceDrawsItsMovingMeshEveryFrame() throws {
        let (job, s) = overATone(.surfacePlus, width: 160, height: 90, threads: 1)
        var picture = PixelBuffer(width: s.width, height: s.height)
        var pattern: [Bool] = []
        for k in 60..<72 {
            try job.advance(toFrame: k)
            try job.composer.render(into: &picture)
            pattern.append(job.composer.lastReusedItems >= 2) // the mesh and the ridgelines
            assertSame(picture.pixels, try whole(job.composer.scene), "frame \(k)")
        }
        XCTAssertEqual(pattern, [Bool](repeating: false, count: 12), "reused frames")
    }

    /// A kept picture is not used with another background, size or clear colour; it is
    /// kept after the leading layers that may repeat.
    func testAnotherBackgroundOrClearColourDrawsWhole() throws {
        var scene = Scene(width: 64, height: 48, clearColor: SIMD4(0, 0, 0, 1))
        scene.begin2D()
        scene.quad(x0: -0.5, y0: -0.5, x1: 0.5, y1: 0.5, bottom: SIMD4(1, 0, 0, 1), top: SIMD4(0, 0, 1, 1))
        scene.end2D()
        scene.markLayer(from: 0, damage: .changed)
        scene.begin2D()
        scene.quad(x0: -0.9, y0: -0.9, x1: -0.6, y1: -0.6, bottom: SIMD4(0, 1, 0, 0.5), top: SIMD4(0, 1, 0, 0.5))
        scene.end2D()
        scene.markLayer(from: 1, damage: .changed)
        let r = Rasterizer(threads: 1)
        r.reusesUnchangedPrefix = true
        var picture = PixelBuffer(width: 64, height: 48)
        try r.render(scene, into: &picture, shader2D: FlatShader(), shader3D: LitShader())
        scene.layers = scene.layers.map { SceneLayer(items: $0.items, damage: .unchanged) }
        for _ in 0..<2 { try r.render(scene, into: &picture, shader2D: FlatShader(), shader3D: LitShader()) }
        XCTAssertEqual(r.lastReusedItems, 2, "the same scene again: all of it from the kept picture")
        assertSame(picture.pixels, try whole(scene), "same scene")

        scene.clearColor = SIMD4(0.2, 0.2, 0.2, 1)
        try r.render(scene, into: &picture, shader2D: FlatShader(), shader3D: LitShader())
        XCTAssertEqual(r.lastReusedItems, 0, "another clear colour")
        assertSame(picture.pixels, try whole(scene), "same scene")

        var backdrop = PixelBuffer(width: 64, height: 48)
        for i in backdrop.pixels.indices { backdrop.pixels[i] = 0xFF00_0000 | UInt32(i & 0xFF) }
        r.background = backdrop
        try r.render(scene, into: &picture, shader2D: FlatShader(), shader3D: LitShader())
        XCTAssertEqual(r.lastReusedItems, 0, "a new background")
        var expected = PixelBuffer(width: 64, height: 48)
        let fresh = Rasterizer(threads: 1)
        fresh.background = backdrop
        try fresh.render(scene, into: &expected, shader2D: FlatShader(), shader3D: LitShader())
        assertSame(picture.pixels, expected.pixels, "with the background")

        // The second quad moves on every frame from now on: the first is still shared.
        try r.render(scene, into: &picture, shader2D: FlatShader(), shader3D: LitShader())
        scene.layers[1].damage = .everyFrame
        for k in 0..<2 {
            scene.vertices2D[6].position.x += 0.01
            try r.render(scene, into: &picture, shader2D: FlatShader(), shader3D: LitShader())
            try fresh.render(scene, into: &expected, shader2D: FlatShader(), shader3D: LitShader())
            assertSame(picture.pixels, expected.pixels, "second quad moved")
            if k == 0 {
                XCTAssertEqual(r.lastReusedItems, 0, "the picture was kept after both quads")
            } else {
                XCTAssertEqual(r.lastReusedItems, 1, "now kept after the first quad, the one that stays")
            }
        }
    }
}

/// Keeps every frame it is handed, rebuilt as a sink of changed bands rebuilds it: only the
/// bands of `bands` rows with a changed row are taken from the picture (all, without
/// `bands`). Counts the bands where the picture held something else.
final class BandSink: FrameSink {
    let bands: Int?
    var frames: [[UInt32]] = []
    var olderBands = 0
    init(bands: Int?) { self.bands = bands }
    var changedRowBands: Int? { bands }
    func write(_ frame: PixelBuffer, index: Int) throws { try write(frame, index: index, changed: .all) }
    func write(_ frame: PixelBuffer, index: Int, changed: ChangedRows) throws {
        guard let last = frames.last, let bands, !changed.isAll else {
            frames.append(frame.pixels)
            return
        }
        var rebuilt = last
        let w = frame.width, h = frame.height
        for y0 in stride(from: 0, to: h, by: bands) {
            let rows = y0 * w..<min(h, y0 + bands) * w
            if changed.intersects(y0..<min(h, y0 + bands)) {
                rebuilt[rows] = frame.pixels[rows]
            } else if rebuilt[rows] != frame.pixels[rows] {
                olderBands += 1
            }
        }
        frames.append(rebuilt)
    }
    func finish() throws {}
    func cancel() {}
}
