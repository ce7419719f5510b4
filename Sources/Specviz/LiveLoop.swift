import Analysis
import Geometry
import Raster
import SpecvizCore

/// The real-time loop of `specviz render --live` and `specviz live` (seed 000: animation
/// decoupled from the audio rate; SPEC §3 last paragraph).
///
/// `stats` frame times are wall-clock seconds of one frame's work: analysis, smoothing,
/// scene, rasterising and the display write.
///
/// Video frame k is due at `origin + k / fps` on the injected `Clock`. Each frame: keys are
/// handled, the audio pump plays (or captures) up to the clock, the analysis advances to
/// the media time being HEARD (`min(k / fps, heard)`, the pump accounts for the device
/// delay), the composer smooths once and renders, and the frame goes to the display.
/// When the machine falls behind, the frames that are already late are skipped (their
/// smoothing steps still run, so the animation keeps its speed) rather than drifting.
/// With a clock that never runs late (tests), frame k equals `RenderJob.still(at: k/fps)`.
///
/// Keys: m / M next / previous mode, t tuner overlay, b BPM overlay, space pause (analysis
/// and sound stop, the display dims), q, Esc or Ctrl-C quit.
public final class LiveLoop {
    public private(set) var settings: RenderSettings
    public let clock: Clock
    public let pump: LiveAudioPump
    /// Audio → analysis → trackers → visual state, one step per frame (as in a render).
    public let pipeline: Pipeline
    public var feed: AnalysisFeed { pipeline.feed }
    public let display: LiveDisplay
    public var composer: FrameComposer { pipeline.composer }
    let glyphs: GlyphProvider?
    /// The next pending key byte, or nil (terminal keyboard).
    public var readKey: () -> UInt8? = { nil }
    /// Polled once per frame; true stops the loop (Ctrl-C, SIGTERM).
    public var interrupted: () -> Bool = { false }
    /// The pitch and tempo trackers (always running: keys switch overlays and modes).
    public var trackers: OverlayTrackers { pipeline.trackers! }
    /// Receives a one-line status (fps, frame time, mode) about once a second.
    public var status: ((String) -> Void)?
    /// Stop after this many seconds of media (nil: until the file ends or q).
    public var maxDuration: Double?
    public private(set) var paused = false
    public private(set) var stats = LiveStats()
    /// Media time (s) each shown frame displayed, when `recordTimes` (tests, latency).
    public var recordTimes = false
    public private(set) var shownTimes: [Double] = []

    private var picture: PixelBuffer
    /// The frame `picture` holds, as the composer drew it (nil: dimmed, resized or none).
    private var held: Rasterizer.FrameStamp?
    private var quit = false
    private var rebuild = false

    public init(settings: RenderSettings, pump: LiveAudioPump, display: LiveDisplay, clock: Clock, glyphs: GlyphProvider?) {
        var s = settings
        if let size = display.preferredSize { s.width = size.width; s.height = size.height }
        self.settings = s
        self.clock = clock
        self.pump = pump
        self.display = display
        self.glyphs = glyphs
        let trackers = OverlayTrackers(
            sampleRate: pump.fifo.sampleRate, pitch: true, tempo: true, scope: true,
            preset: s.preset, reference: s.reference, system: s.tuningSystem)
        pipeline = Pipeline(source: pump.fifo, settings: s, glyphs: glyphs, trackers: trackers)
        // Real time: the spectrum's window ends at the frame's time (nothing before it is heard).
        pipeline.feed.centred = false
        pipeline.feedRight?.centred = false
        picture = PixelBuffer(width: s.width, height: s.height)
    }

    /// Runs until q, an interrupt, the end of the file (after its sound has been heard) or
    /// `maxDuration`. Returns the statistics; the display is finished (not cancelled).
    @discardableResult
    public func run() throws -> LiveStats {
        let fps = Double(settings.fps)
        var origin = clock.now()
        var k = 0
        var lastStatus = origin
        var pausedAt = origin
        stats = LiveStats()
        while !quit && !interrupted() {
            handleKeys()
            if quit { break }
            checkSize()
            if rebuild { applySettings() }
            if paused {
                if pausedAt < origin { pausedAt = clock.now() }
                clock.sleep(until: clock.now() + 1 / fps)
                continue
            }
            if pausedAt >= origin { // just resumed: the media clock did not run
                origin += clock.now() - pausedAt
                pausedAt = origin - 1
            }
            // Skip frames that are already late (their smoothing still runs).
            let late = Int(saturating: ((clock.now() - origin) * fps).rounded(.down))
            while k < late {
                let heard = try pump.pump(elapsed: Double(k) / fps)
                try stepState(time: min(Double(k) / fps, heard))
                stats.dropped += 1
                k += 1
            }
            let t = Double(k) / fps
            if let maxDuration, t > maxDuration + 1e-9 { break }
            let heard = try pump.pump(elapsed: t)
            if pump.ended && heard >= pump.timeWritten - 1e-9 && t > pump.timeWritten { break }
            let start = clock.now()
            let work = monotonicSeconds(), cpu = threadCPUSeconds() // the frame's real cost, whatever the clock
            try stepState(time: min(t, heard))
            try composer.render(into: &picture, holding: held)
            // The display may redo only the rows that changed since the frame it showed last
            // (not after a dimmed picture).
            try display.write(picture, index: stats.shown, changed: held != nil ? composer.lastChangedRows : .all)
            held = composer.lastFrameStamp
            stats.record(frameSeconds: monotonicSeconds() - work, cpuSeconds: threadCPUSeconds() - cpu)
            if recordTimes { shownTimes.append(min(t, heard)) }
            if let status, start - lastStatus >= 1 {
                lastStatus = start
                status(statusLine(elapsed: start - origin))
            }
            k += 1
            clock.sleep(until: origin + Double(k) / fps)
        }
        try display.finish()
        return stats
    }

    private func stepState(time: Double) throws {
        try pipeline.step(time: time, dt: 1 / Double(settings.fps))
    }

    /// Reacts to every pending key (see the type's documentation).
    func handleKeys() {
        while let key = readKey() {
            handle(key: key)
        }
    }

    /// Applies one key.
    public func handle(key: UInt8) {
        let modes = VisualizationMode.allCases
        let i = modes.firstIndex(of: settings.mode) ?? 0
        switch key {
        case UInt8(ascii: "m"): settings.mode = modes[(i + 1) % modes.count]; rebuild = true
        case UInt8(ascii: "M"): settings.mode = modes[(i + modes.count - 1) % modes.count]; rebuild = true
        case UInt8(ascii: "t"): settings.tunerOverlay.toggle(); rebuild = true
        case UInt8(ascii: "b"): settings.tempoOverlay.toggle(); rebuild = true
        case UInt8(ascii: " "):
            paused.toggle()
            if paused { showDimmed() }
        case UInt8(ascii: "q"), UInt8(ascii: "Q"), 0x03, 0x1B: quit = true
        default: break
        }
    }

    /// Rebuilds the composer for new settings or a new display size, keeping the visual
    /// state (smoothing, peaks, histories).
    private func applySettings() {
        rebuild = false
        pipeline.rebuild(settings: settings, glyphs: glyphs)
        picture.resize(width: settings.width, height: settings.height)
        held = nil
        if paused { showDimmed() }
    }

    /// Called each frame: a display that changed size triggers a rebuild.
    private func checkSize() {
        if let size = display.preferredSize, size.width != settings.width || size.height != settings.height {
            settings.width = size.width
            settings.height = size.height
            rebuild = true
        }
    }

    /// The paused picture: the current state at 35% brightness (seed 000's power button).
    private func showDimmed() {
        held = nil
        guard (try? composer.render(into: &picture)) != nil else { return }
        picture.pixels.withUnsafeMutableBufferPointer { px in
            for i in 0..<px.count {
                let p = px[i]
                let r = ((p & 0xFF) * 90) >> 8, g = (((p >> 8) & 0xFF) * 90) >> 8, b = (((p >> 16) & 0xFF) * 90) >> 8
                px[i] = r | g << 8 | b << 16 | 0xFF00_0000
            }
        }
        try? display.write(picture, index: stats.shown)
    }

    func statusLine(elapsed: Double) -> String {
        let fps = Double(stats.shown) / max(elapsed, 1e-6)
        func ms(_ s: Double) -> String { String(Int(saturating: s * 1000)) + "." + String(Int(saturating: s * 10000) % 10) }
        return
            "\(settings.mode.rawValue)  \(Int(saturating: fps.rounded())) fps  frame p50 \(ms(stats.percentile(0.5))) ms p99 \(ms(stats.percentile(0.99))) ms  dropped \(stats.dropped)"
            + "  [m/M mode, t tuner, b bpm, space pause, q quit]"
    }
}
