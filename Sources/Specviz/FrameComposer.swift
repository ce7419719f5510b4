import Analysis
import Geometry
import Raster
import ShadersCPU
import SpecvizCore

/// Turns analysis into pictures at the video rate: holds the visual state, advances it
/// one video frame at a time toward the latest analysis frame, builds the mode's scene
/// (mode geometry, waveform strip, labels, overlays) and rasterises it.
///
/// Frame k shows the state after k + 1 smoothing steps; analysis and video rates are
/// decoupled (SPEC §3, last paragraph). Buffers are reused frame to frame.
public final class FrameComposer {
    public private(set) var settings: RenderSettings
    public private(set) var state = VisualState()
    /// The right channel's state in a stereo render.
    public private(set) var stateRight: VisualState?
    public private(set) var scene: Scene
    public let layout: Layout
    /// A stereo frame's two halves (top, bottom), each laid out at half height.
    let halves: (top: Layout, bottom: Layout)?
    /// The mode's builder for these settings, and what the mode reads of them.
    var builder: any ModeBuilder
    let modeSettings: ModeSettings
    let rasterizer: Rasterizer
    let glyphs: GlyphProvider?
    /// Media time until which the current beat flash lasts.
    var flashUntil = -1e9
    var lastBeatCount = 0
    /// Media time of the last new beat (drives the BPM overlay's dot).
    var lastBeatTime = -1e9
    /// Seconds the beat dot takes to fade from full to dark after a beat.
    public static let beatFade = 0.25
    /// The cover, logo and background at this size (nil: none, or a mode without labels).
    var artwork: ArtworkLayer?
    /// The damage of the scene's layers, told from what each was built from (`FrameLayers`).
    var layers = FrameLayers()
    /// Time the last frame took to build and rasterise (s), for the `--stats` readout.
    public private(set) var lastRenderSeconds: Double = 0

    public init(settings: RenderSettings, glyphs: GlyphProvider?) {
        self.settings = settings
        self.glyphs = settings.labels || settings.stats ? glyphs : nil
        let labels = settings.labels && glyphs != nil
        scene = Scene(width: settings.width, height: settings.height, clearColor: settings.artwork.backgroundColor)
        scene.vertices2D.reserveCapacity(120_000)
        scene.vertices3D.reserveCapacity(100_000)
        rasterizer = Rasterizer(threads: settings.threads)
        let usesArtwork = settings.mode.traits.labels != .none && (settings.artwork.hasPictures || settings.artist != nil)
        let stereo = settings.stereo != nil && settings.mode.traits.stereo ? settings.stereo : nil
        let frame = FrameComposer.layouts(settings, labels: labels, artwork: usesArtwork, stereo: stereo)
        var layout = frame.layout
        if frame.halves == nil { layout.headerItems = FrameComposer.headerItems(settings, layout: layout, artwork: frame.artwork) }
        self.layout = layout
        halves = frame.halves
        artwork = frame.artwork.map { ArtworkLayer(settings.artwork, layout: $0, width: settings.width, height: settings.height) }
        var modeSettings = settings.modeSettings
        let plot = halves?.top ?? layout
        modeSettings.plotRows = max(1, Int((plot.spectrum.height / plot.clipPerPixel.y).rounded()))
        self.modeSettings = modeSettings
        builder = settings.mode.unit.makeBuilder(modeSettings)
        rasterizer.background = artwork?.background
        state.smoothing = settings.smoothing
        state.modeState = settings.mode.unit.makeState(modeSettings, height: settings.height)
        if settings.stereo != nil && settings.mode.traits.stereo {
            var right = VisualState()
            right.smoothing = settings.smoothing
            right.modeState = state.modeState
            stateRight = right
        }
        // Frames follow one another: the 3D modes redraw only what changed since the last
        // history row.
        reusesFrames = true
    }

    /// Advances one video frame toward `target` (the latest analysis frame at or before
    /// the frame's time). `beats` counts beats detected so far: a new beat starts the
    /// +0.15 flash for `settings.beatFlash` seconds (the frames that start within it) and
    /// lights the BPM overlay's dot, which fades over `beatFade`.
    public func step(toward target: SpectrumFrame, time: Double, beats: Int = 0, hop: SpectrumFrame? = nil) {
        state.step(toward: target, hop: hop)
        state.time = time
        if beats > lastBeatCount {
            flashUntil = time + settings.beatFlash
            lastBeatCount = beats
            lastBeatTime = time
        }
        if state.tempo != nil {
            state.tempo!.beat = Float(max(0, 1 - (time - lastBeatTime) / FrameComposer.beatFade))
        }
        state.flash = time < flashUntil - 1e-9 ? 0.15 : 0
    }

    /// Hands the mode what a tracker heard over this video frame (the pitch display and
    /// stroboscope, the scope trigger, a stereo input's sound: `ModeInput`).
    public func feedMode(_ input: ModeInput) {
        state.hear(input)
    }

    /// Advances the right channel's state one video frame (stereo renders).
    public func stepRight(toward target: SpectrumFrame, hop: SpectrumFrame? = nil) {
        stateRight?.step(toward: target, hop: hop)
        stateRight?.time = state.time
    }

    /// Continues from another composer (live mode switch or resize): its visual state and
    /// its beat flash, so a rebuild neither restarts nor repeats a flash. The part only the
    /// mode uses is kept when the mode is the same, else it starts afresh.
    public func adopt(_ other: FrameComposer) {
        let own = state.modeState
        state = other.state
        if other.settings.mode != settings.mode { state.modeState = own }
        lastBeatCount = other.lastBeatCount
        lastBeatTime = other.lastBeatTime
        flashUntil = other.flashUntil
    }

    public func setOverlays(tuner: TunerOverlay?, tempo: TempoOverlay?) {
        state.tuner = tuner
        state.tempo = tempo
    }

    /// Builds the scene of the current state (without rasterising).
    public func buildScene() {
        scene.reset(width: settings.width, height: settings.height)
        pictureItems.removeAll(keepingCapacity: true)
        // The flash brightens every vertex: a new one changes every layer.
        layers.begin(common: modeFlashes ? state.flash : 0)
        if let right = stateRight, let arrangement = settings.stereo, let halves {
            buildStereo(right: right, arrangement, halves: halves)
        } else {
            // With artwork, the title and artist go beside or under the cover instead of the title slot.
            buildMode(state, layout: layout, title: artwork == nil ? settings.title : nil)
        }
        if let artwork, layout.labels {
            let first = scene.items.count
            artwork.layout.addLines(title: settings.title, artist: settings.artist, into: &scene)
            // The same lines on every frame.
            layers.mark(&scene, from: first, key: 0)
        }
        if modeFlashes && state.flash != 0 { scene.brighten(by: state.flash) }
        if settings.stats && glyphs != nil {
            let first = scene.items.count
            let ms = lastRenderSeconds * 1000
            let text =
                "render \(Int(saturating: ms * 10) / 10).\(Int(saturating: ms * 10) % 10) ms  \(Int(saturating: (1 / max(lastRenderSeconds, 1e-6)).rounded())) fps max"
            scene.addText(
                TextRun(
                    text, at: layout.statsOrigin, size: layout.fontSize * 0.7,
                    color: SIMD4(0.6, 1, 0.6, 0.9), anchor: .right))
            layers.mark(&scene, from: first, key: nil)
        }
    }

    /// The mode's frame of `state` (its geometry, strip, labels and overlays: `ModeCatalog.build`);
    /// returns how many items are the mode's own picture.
    @discardableResult
    private func buildMode(_ state: VisualState, layout: Layout, title: String?) -> Int {
        let first = scene.items.count
        let own = ModeCatalog.build(
            settings.mode, builder: &builder, state: state, layout: layout, settings: modeSettings, title: title, into: &scene,
            layers: &layers)
        pictureItems.append(first..<(first + own))
        return own
    }

    /// The scene items of the mode's own picture in the last built scene (one range, two in
    /// a stereo frame): what the frame's other boxes must keep clear of.
    public private(set) var pictureItems: [Range<Int>] = []

    /// Where the cover, the lines and the logo go (nil: no artwork).
    public var artworkLayout: ArtworkLayout? { artwork?.layout }

    /// A stereo frame: the left channel in the top half, the right in the bottom half
    /// (mirrored about the centre line for `.mirror`), each built by the mode at half height.
    private func buildStereo(right: VisualState, _ arrangement: StereoLayout, halves: (top: Layout, bottom: Layout)) {
        let w = settings.width, h = settings.height, half = h / 2
        let mirror = arrangement == .mirror
        var vertex = scene.vertices2D.count, item = scene.items.count
        let top = halves.top
        buildMode(state, layout: top, title: artwork == nil ? settings.title : nil)
        scene.place2D(fromVertex: vertex, fromItem: item, scale: 0.5, offset: 0.5, textOffset: 0)
        vertex = scene.vertices2D.count
        item = scene.items.count
        let bottom = halves.bottom
        buildMode(right, layout: bottom, title: nil)
        scene.place2D(fromVertex: vertex, fromItem: item, scale: mirror ? -0.5 : 0.5, offset: -0.5, textOffset: Float(mirror ? h : half))
        item = scene.items.count
        if layout.labels {
            let f = top.fontSize, x = Float(w) - f * 0.45
            scene.addText(TextRun("L", at: SIMD2(x, Float(half) * 0.5), size: f, color: Labels.titleColor, anchor: .center))
            scene.addText(TextRun("R", at: SIMD2(x, Float(half) * 1.5 + f * 0.7), size: f, color: Labels.titleColor, anchor: .center))
            layers.mark(&scene, from: item, key: 0)
        }
    }

    /// Modes that show the beat flash (SPEC §4: the overlays' modes).
    var modeFlashes: Bool { settings.mode.traits.overlays && settings.tempoOverlay }

    /// Builds and rasterises the current state into `picture`.
    ///
    /// - Parameter held: the frame `picture` holds, untouched since this composer drew it
    ///   (its `lastFrameStamp` then): the rows that have not changed since are left alone.
    public func render(into picture: inout PixelBuffer, holding held: Rasterizer.FrameStamp? = nil) throws {
        let start = monotonicSeconds()
        buildScene()
        try rasterizeScene(into: &picture, holding: held)
        lastRenderSeconds = monotonicSeconds() - start
    }

    /// The frame the last `render` drew, to hand back with its picture (nil when a frame
    /// cannot be redrawn in part: transparent frames, artwork drawn over the picture).
    public var lastFrameStamp: Rasterizer.FrameStamp? {
        settings.transparent || artwork != nil ? nil : rasterizer.lastFrameStamp
    }

    /// Leading items of the last frame that came from the previous frame's picture instead
    /// of being drawn (`Rasterizer.reusesUnchangedPrefix`).
    public var lastReusedItems: Int { rasterizer.lastReusedItems }

    /// Leading items of the last frame moved from the previous frame's picture instead of
    /// being drawn (a scrolling history, `Rasterizer.lastMovedItems`).
    public var lastMovedItems: Int { rasterizer.lastMovedItems }

    /// The rows of the last frame that may differ from the frame before it
    /// (`Rasterizer.lastChangedRows`; all for transparent frames).
    public var lastChangedRows: ChangedRows { settings.transparent ? .all : rasterizer.lastChangedRows }

    /// Whether frames start from the previous frame's picture where they can (on; never for
    /// transparent frames, drawn twice over black and white); `specviz bench` turns it off
    /// to time frames drawn whole.
    public var reusesFrames: Bool {
        get { rasterizer.reusesUnchangedPrefix }
        set { rasterizer.reusesUnchangedPrefix = newValue && !settings.transparent }
    }

    /// Rasterises the scene last built by `buildScene()`.
    public func rasterizeScene(into picture: inout PixelBuffer, holding held: Rasterizer.FrameStamp? = nil) throws {
        layers.forget()
        if settings.transparent { return try rasterizeTransparent(into: &picture) }
        try rasterizer.render(
            scene, into: &picture, holding: artwork == nil ? held : nil, shader2D: FlatShader(), shader3D: LitShader(),
            glyphProvider: glyphs)
        layers.drew()
        artwork?.drawOver(&picture)
    }

    /// The second picture of a transparent frame (over white).
    private var overWhite = PixelBuffer(width: 1, height: 1)

    /// A frame with straight alpha. Every draw is "over" (or opaque), so the frame over a
    /// background B is C + (1 − A)·B with C the premultiplied colour and A the coverage: it
    /// is rendered over black (giving C) and over white (giving C + 1 − A), and A and the
    /// straight colour C / A are recovered per pixel. Exact up to 8-bit rounding; twice the
    /// raster work.
    private func rasterizeTransparent(into picture: inout PixelBuffer) throws {
        scene.clearColor = SIMD4(0, 0, 0, 1)
        try rasterizer.render(scene, into: &picture, shader2D: FlatShader(), shader3D: LitShader(), glyphProvider: glyphs)
        scene.clearColor = SIMD4(1, 1, 1, 1)
        try rasterizer.render(scene, into: &overWhite, shader2D: FlatShader(), shader3D: LitShader(), glyphProvider: glyphs)
        // The scene keeps its own clear colour (a frame dump shows the opaque frame).
        scene.clearColor = settings.artwork.backgroundColor
        artwork?.drawOver(&picture)
        artwork?.drawOver(&overWhite)
        overWhite.pixels.withUnsafeBufferPointer { white in
            picture.pixels.withUnsafeMutableBufferPointer { black in
                for i in 0..<black.count {
                    let b = black[i], w = white[i]
                    let br = Int(b & 0xFF), bg = Int(b >> 8 & 0xFF), bb = Int(b >> 16 & 0xFF)
                    let gap = Int(w & 0xFF) - br + Int(w >> 8 & 0xFF) - bg + Int(w >> 16 & 0xFF) - bb
                    let a = max(0, min(255, 255 - (gap + 1) / 3))
                    if a == 0 { black[i] = 0; continue }
                    if a == 255 { black[i] = b | 0xFF00_0000; continue }
                    @inline(__always) func straight(_ c: Int) -> UInt32 { UInt32(min(255, (c * 255 + a / 2) / a)) }
                    black[i] = straight(br) | straight(bg) << 8 | straight(bb) << 16 | UInt32(a) << 24
                }
            }
        }
    }
}
