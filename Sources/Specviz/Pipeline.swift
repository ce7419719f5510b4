import Analysis
import Geometry
import SpecvizCore

/// The one path from sound to a frame's state, stepped once per video frame by an offline
/// render (`RenderJob`) and by the live loop alike: the feed reads audio up to the frame's
/// time and analyses it, the trackers it feeds (pitch, tempo, scope) update the overlays,
/// and the composer advances its visual state. Rendering the state is the composer's.
public final class Pipeline {
    public let feed: AnalysisFeed
    /// The right channel's analysis in a stereo render (`feed` then hears the left).
    public let feedRight: AnalysisFeed?
    /// Both channels' newest samples for the vector scope (stereo `--mode scope`).
    let stereoHistory: StereoHistory?
    /// The pitch, tempo and scope trackers the settings need (nil: none).
    public let trackers: OverlayTrackers?
    public private(set) var composer: FrameComposer

    public init(
        source: AudioSource, right: AudioSource? = nil, settings: RenderSettings, glyphs: GlyphProvider?,
        trackers: OverlayTrackers?
    ) {
        feed = AnalysisFeed(source: source, config: settings.analysis)
        feedRight = right.map { AnalysisFeed(source: $0, config: settings.analysis) }
        if let feedRight, settings.mode.traits.vectorScope {
            let history = StereoHistory()
            feed.taps.append(StereoTap(history, left: true))
            feedRight.taps.append(StereoTap(history, left: false))
            stereoHistory = history
        } else {
            stereoHistory = nil
        }
        composer = FrameComposer(settings: settings, glyphs: glyphs)
        self.trackers = trackers
        if let trackers { feed.taps.append(trackers) }
    }

    /// Steps through the video frame at media time `time` (lasting `dt` seconds): analysis
    /// up to `time`, the overlays and beats of that frame, one visual-state step toward the
    /// spectrum of that time (`AnalysisFeed.current`; the histories take the hops).
    public func step(time: Double, dt: Double) throws {
        try feed.advance(to: time)
        if let feedRight {
            try feedRight.advance(to: time)
            composer.stepRight(toward: feedRight.current, hop: feedRight.latest)
        }
        if let stereoHistory { composer.feedMode(.stereo(stereoHistory, samples: Int(Double(feed.source.sampleRate) * dt))) }
        let settings = composer.settings
        let beats =
            trackers?.apply(
                to: composer, dt: dt, time: time,
                tunerOverlay: settings.tunerOverlay, tempoOverlay: settings.tempoOverlay) ?? 0
        composer.step(toward: feed.current, time: time, beats: beats, hop: feed.latest)
    }

    /// New settings or a new size (live keys, a resized display): a new composer that keeps
    /// the visual state (smoothing, peaks, histories, the running flash).
    public func rebuild(settings: RenderSettings, glyphs: GlyphProvider?) {
        let old = composer
        composer = FrameComposer(settings: settings, glyphs: glyphs)
        composer.adopt(old)
    }
}

/// One channel of a stereo input into the vector scope's history.
final class StereoTap: AnalysisTap {
    let history: StereoHistory
    let left: Bool
    init(_ history: StereoHistory, left: Bool) {
        self.history = history
        self.left = left
    }
    func process(_ samples: UnsafeBufferPointer<Float>) {
        if left { history.pushLeft(samples) } else { history.pushRight(samples) }
    }
}
