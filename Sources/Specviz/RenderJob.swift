import Analysis
import Foundation
import Geometry
import Raster
import SpecvizCore

/// An offline render: audio source → analysis → frames → sink, with rendering on its own
/// thread and the sink (encoder) on the calling thread, joined by bounded queues and a
/// pool of three reused frame buffers, so the two overlap and memory stays bounded.
///
/// Frame k is at media time `from + k / fps` and shows the analysis available then.
/// Frames before `from` are still stepped (smoothing and histories warm up exactly as in a
/// full render), but not rasterised; a still at T equals frame T of the whole video.
public final class RenderJob {
    public let settings: RenderSettings
    /// Audio → analysis → trackers → visual state, one step per frame.
    public let pipeline: Pipeline
    public var feed: AnalysisFeed { pipeline.feed }
    public var composer: FrameComposer { pipeline.composer }
    public let from: Double
    public let to: Double?
    /// Called on the calling thread after each frame is written: (written, total or nil).
    public var progress: ((Int, Int?) -> Void)?
    /// Set by the caller (e.g. on SIGINT) to stop early; the sink is cancelled.
    public var cancelled: () -> Bool = { false }
    /// Called on the render thread once it reads no more audio (e.g. to let a tee drop
    /// what it keeps for the analysis).
    public var finishedReading: () -> Void = {}
    /// The pitch and tempo trackers of the overlays and the tuner view (nil when the
    /// settings show none of them); they listen to the feed.
    public var trackers: OverlayTrackers? { pipeline.trackers }

    /// - right: the right channel's source for a stereo render (`settings.stereo`).
    public init(
        source: AudioSource, right: AudioSource? = nil, settings: RenderSettings, glyphs: GlyphProvider?,
        from: Double = 0, to: Double? = nil
    ) {
        self.settings = settings
        pipeline = Pipeline(
            source: source, right: right, settings: settings, glyphs: glyphs,
            trackers: OverlayTrackers.forRender(settings, sampleRate: source.sampleRate))
        self.from = from.isFinite ? max(0, from) : 0
        // Never past the end of the input when its duration is known.
        if let d = source.duration, let t = to { self.to = min(t, d) } else { self.to = to }
    }

    /// Number of frames to render, when the duration is known.
    public var frameCount: Int? {
        guard let end = to ?? feed.source.duration, end.isFinite else { return nil }
        let frames = (Double(settings.fps) * (end - from) - 1e-6).rounded(.up)
        return frames > 0 ? Int(min(frames, Double(Int32.max))) : 0
    }

    /// Steps the state through frame `k` (absolute index from time 0).
    func step(_ k: Int) throws -> Bool {
        let t = Double(k) / Double(settings.fps)
        try pipeline.step(time: t, dt: 1 / Double(settings.fps))
        if feed.exhausted && feed.samplesRead == 0 {
            throw RenderError.noAudio(source: sourceName)
        }
        // Past the end of the audio (of unknown length: a pipe)?
        if feed.exhausted && t >= feed.timeRead + 1e-9 && feed.source.duration == nil { return false }
        return true
    }

    var sourceName: String { (feed.source as? CustomStringConvertible)?.description ?? "input" }

    /// Video frames stepped so far (the next frame to step).
    public private(set) var framesStepped = 0

    /// Steps the state through every frame up to and including `k` not yet stepped.
    public func advance(toFrame k: Int) throws {
        while framesStepped <= k {
            if cancelled() { throw Interrupted() }
            if feed.exhausted && Double(framesStepped) / Double(settings.fps) > feed.timeRead + 1 {
                throw RenderError.pastEnd(time: Double(k) / Double(settings.fps), source: sourceName, length: feed.timeRead)
            }
            _ = try step(framesStepped)
            framesStepped += 1
        }
    }

    /// Before stepping from 0 to draw frames from `first` on: the tuner's pitch tracker
    /// hears only what the readings of those frames depend on (`TunerMemory`), unless the
    /// mode itself draws from the readings (the tuner view's needle keeps its own past).
    func boundTunerPreRoll(first: Int) {
        guard first > 0, framesStepped == 0, !settings.mode.traits.needsPitch, let trackers else { return }
        // The feed has read at most a hop less than the first frame's time by then.
        let sample = Double(first) / Double(settings.fps) * Double(feed.sampleRate)
        trackers.skipTuner(before: max(0, Int(sample) - 2 * feed.analyzer.hopSize))
    }

    /// Renders one still at time `at` (seconds) into a picture. Calls must go forward in time.
    public func still(at time: Double) throws -> PixelBuffer {
        guard time.isFinite, time >= 0 else { throw RenderError.badStillTime(time) }
        let k = Int(min((time * Double(settings.fps) + 1e-9).rounded(.down), Double(Int32.max)))
        boundTunerPreRoll(first: k)
        try advance(toFrame: k)
        var picture = PixelBuffer(width: settings.width, height: settings.height)
        try composer.render(into: &picture)
        return picture
    }

    /// A frame on its way to the sink, with the rows that may differ from the one before
    /// and the frame it is (to draw the next frame into this picture in part).
    struct Rendered {
        var picture: PixelBuffer
        var changed: ChangedRows
        var stamp: Rasterizer.FrameStamp?
    }

    /// Renders every frame of [from, to) into `sink`, then finishes it. On any error the sink
    /// is cancelled (no partial output) and the error rethrown.
    public func run(into sink: FrameSink) throws {
        let first = Int(min((from * Double(settings.fps)).rounded(), Double(Int32.max)))
        let total = frameCount
        // Pictures come back with the frame they hold.
        let free = BlockingQueue<(PixelBuffer, Rasterizer.FrameStamp?)>(capacity: 3)
        let full = BlockingQueue<Result<Rendered, Error>?>(capacity: 3)
        for _ in 0..<3 { free.push((PixelBuffer(width: settings.width, height: settings.height), nil)) }
        let stop = Locked(false)
        // A sink that reads only the bands that changed is handed pictures drawn only where
        // the frame changed since the one before (the rasteriser draws whole bands, each
        // made of the sink's): the bands the mesh of a 3D mode fills are not restored from
        // the kept picture on the frames between two history rows.
        let onlyChanged = sink.changedRowBands.map { Rasterizer.bandRows(width: settings.width) % $0 == 0 } ?? false

        let producer = Thread { [self] in
            produce(from: first, total: total, onlyChanged: onlyChanged, free: free, into: full, stop: stop)
        }
        producer.stackSize = 8 << 20
        producer.start()

        var written = 0
        var failure: Error?
        while true {
            guard let item = full.pop() else { break }
            switch item {
            case .failure(let e):
                failure = e
            case .success(let frame):
                let picture = frame.picture
                if failure == nil && !cancelled() {
                    do {
                        try sink.write(picture, index: written, changed: frame.changed)
                        written += 1
                        progress?(written, total)
                    } catch {
                        failure = error
                    }
                }
                if failure != nil || cancelled() { stop.update { $0 = true } }
                free.push((picture, frame.stamp))
            }
            if case .failure = item { break }
        }
        if let failure {
            sink.cancel()
            throw failure
        }
        if cancelled() {
            sink.cancel()
            throw Interrupted()
        }
        if written == 0 {
            sink.cancel()
            throw RenderError.emptyRange
        }
        try sink.finish()
    }

    /// The render thread: steps the frames before `first` (not drawn), then renders frame
    /// after frame into pictures from `free` and hands them to `full`, until `total`
    /// frames, the end of the input, `stop` or cancellation; then nil (or the error).
    private func produce(
        from first: Int, total: Int?, onlyChanged: Bool, free: BlockingQueue<(PixelBuffer, Rasterizer.FrameStamp?)>,
        into full: BlockingQueue<Result<Rendered, Error>?>, stop: Locked<Bool>
    ) {
        do {
            boundTunerPreRoll(first: first)
            for k in 0..<first {
                if stop.value || cancelled() { break }
                if feed.exhausted && Double(k) / Double(settings.fps) > feed.timeRead + 1 {
                    throw RenderError.startPastEnd(from: from, source: sourceName, length: feed.timeRead)
                }
                _ = try step(k)
            }
            var k = first
            var previous: Rasterizer.FrameStamp? = nil
            while !stop.value && !cancelled() {
                if let total, k - first >= total { break }
                guard try step(k) else { break }
                var (picture, held) = free.pop()
                try composer.render(into: &picture, holding: onlyChanged ? previous : held)
                previous = composer.lastFrameStamp
                full.push(.success(Rendered(picture: picture, changed: composer.lastChangedRows, stamp: composer.lastFrameStamp)))
                k += 1
            }
            finishedReading()
            full.push(nil)
        } catch {
            finishedReading()
            full.push(.failure(error))
        }
    }
}
