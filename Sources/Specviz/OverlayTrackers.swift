import Analysis
import Geometry
import Tuning

/// The pitch and tempo trackers behind the tuner and BPM overlays and the tuner view
/// (SPEC §4–6). Listens to the same audio as the spectrum (an `AnalysisTap` of the feed)
/// and, once per video frame, hands the composer what the overlays show at that time.
///
/// Causal like the spectrum: at media time t the trackers have heard exactly the audio the
/// feed has read, never more. A pitch tracker and stroboscope run when the tuner overlay
/// or the tuner view can be shown, a tempo tracker when the BPM overlay can be.
public final class OverlayTrackers: AnalysisTap {
    /// The pitch tracker and stroboscope whose readings are shown (a render's relay replaces
    /// them every `memory.period`, see `TunerMemory`).
    public internal(set) var pitch: PitchTracker?
    public internal(set) var strobe: StroboscopeAnalyzer?
    public let tempo: TempoTracker?
    /// The oscilloscope's trigger (`--mode scope`; always in live, where keys switch modes).
    public let scope: ScopeTrigger?
    public let reference: Double
    public let system: TuningSystem

    /// The strobe's reading over the audio since the last frame that brought new audio
    /// (the feed reads in 2048-sample hops, so some video frames bring none).
    private var strobeReading = StrobeReading()
    var heardSinceReading = false

    /// A render's bounded tuner memory (nil: live, which remembers everything it heard).
    public let memory: TunerMemory?
    /// Samples heard so far (from time 0, skipped ones included).
    var position = 0
    /// Samples a pitch tracker analysed, over all trackers (the tuner's work).
    public internal(set) var pitchSamples = 0
    /// The pitch tracker and stroboscope warming up for the next period, and a fresh pair
    /// made ahead (in `apply`, once per frame) so that `process` does not allocate.
    var next: (PitchTracker, StroboscopeAnalyzer)?
    var spare: (PitchTracker, StroboscopeAnalyzer)?
    let makePair: () -> (PitchTracker, StroboscopeAnalyzer)
    /// No pair hears anything before this sample (`skipTuner`).
    var skipUntil = 0

    /// - Parameters:
    ///   - pitch, tempo: which trackers to run.
    ///   - preset: tuner targets (SPEC §5).
    ///   - system: temperament, tonic and transposition of the tuner (issue 19).
    public init(
        sampleRate: Int, pitch: Bool, tempo: Bool, scope: Bool = false, preset: TuningPreset = .chromatic,
        reference: Double = 440, system: TuningSystem = .equal, memory: TunerMemory? = nil
    ) {
        self.reference = reference
        self.system = system
        self.memory = memory
        makePair = {
            let p = PitchTracker(sampleRate: sampleRate, preset: preset, reference: reference)
            p.system = system
            return (p, StroboscopeAnalyzer(sampleRate: Double(sampleRate)))
        }
        if pitch {
            (self.pitch, strobe) = makePair()
        } else {
            self.pitch = nil
            strobe = nil
        }
        self.tempo = tempo ? TempoTracker(sampleRate: sampleRate) : nil
        self.scope = scope ? ScopeTrigger(sampleRate: sampleRate) : nil
    }

    /// The trackers a render with these settings needs (nil: none).
    public static func forRender(_ settings: RenderSettings, sampleRate: Int) -> OverlayTrackers? {
        let pitch = settings.tunerOverlay || settings.mode.traits.needsPitch
        let scope = settings.mode.traits.needsScope
        guard pitch || settings.tempoOverlay || scope else { return nil }
        return OverlayTrackers(
            sampleRate: sampleRate, pitch: pitch, tempo: settings.tempoOverlay, scope: scope,
            preset: settings.preset, reference: settings.reference, system: settings.tuningSystem,
            memory: TunerMemory(sampleRate: sampleRate, period: settings.tunerPeriod, warmUp: settings.tunerWarmUp))
    }

    public func process(_ samples: UnsafeBufferPointer<Float>) {
        if pitch != nil { processPitch(samples) }
        // Offline beats replace everything the causal tempo tracker would show.
        if offline == nil { tempo?.process(samples) }
        scope?.process(samples)
        position += samples.count
    }

    /// What the tuner overlay shows now: the latched note and cents, or `---` (empty note).
    public var tunerOverlay: TunerOverlay? {
        guard let pitch else { return nil }
        guard let d = pitch.display else { return TunerOverlay(note: "", cents: 0, frequency: 0) }
        return TunerOverlay(note: d.note.name(), cents: d.cents, frequency: d.frequency, unsure: d.unsure)
    }

    /// Beats (onsets) detected so far.
    public var beatCount: Int { tempo?.beatCount ?? 0 }

    /// Look-ahead beats for a file render (issue 18): when set, the flash, the beat dot and
    /// the BPM value follow this whole-track analysis instead of the causal tracker, so each
    /// flash starts on the video frame that contains its beat.
    public var offline: BeatAnalysis? {
        didSet { nextOffline = 0 }
    }
    private var nextOffline = 0

    /// Offline beats that start before the end of the frame at `time` (frame length `dt`),
    /// and the newest one's bar position.
    func offlineBeats(time: Double, dt: Double) -> (count: Int, position: Int?) {
        guard let beats = offline?.beats else { return (0, nil) }
        // Frames go forward; restart the scan if a caller went back.
        if nextOffline > 0 && nextOffline <= beats.count && beats[nextOffline - 1].time >= time + dt { nextOffline = 0 }
        while nextOffline < beats.count && beats[nextOffline].time < time + dt - 1e-9 { nextOffline += 1 }
        return (nextOffline, nextOffline > 0 ? beats[nextOffline - 1].position : nil)
    }

    /// The offline tempo at `time`: the segment around it, shown from its first beat
    /// to a second after its last.
    func offlineBPM(at time: Double) -> Double? {
        guard let analysis = offline, let first = analysis.beats.first, let last = analysis.beats.last,
            time >= first.time, time <= last.time + 1
        else { return nil }
        let segment = analysis.segments.last(where: { $0.start <= time }) ?? analysis.segments.first
        return segment?.bpm
    }

    /// Updates the composer's overlays (and the tuner view in `--mode tuner`) for the next
    /// video frame, one call per frame. Returns the beat count, from which the composer's
    /// `step` starts the flash and lights the beat dot.
    /// `time`: the frame's media time (needed with `offline` beats).
    public func apply(to composer: FrameComposer, dt: Double, time: Double = 0, tunerOverlay: Bool, tempoOverlay: Bool) -> Int {
        // The tapped level (a 66 BPM ballad shows 66, not the folded 132).
        var tempoState = tempo.map { t in TempoOverlay(bpm: t.display.map { $0.bpm * t.level }, beat: 0) }
        // Live (causal): flashes at the tracker's predicted beats, on the frame that holds them.
        var count = tempo?.predictedBeatCount(before: time + dt) ?? 0
        if let offline {
            let (n, position) = offlineBeats(time: time, dt: dt)
            count = n
            tempoState = TempoOverlay(bpm: offlineBPM(at: time), beat: 0, position: position, beatsPerBar: offline.beatsPerBar)
        }
        composer.setOverlays(tuner: tunerOverlay ? self.tunerOverlay : nil, tempo: tempoOverlay ? tempoState : nil)
        if memory != nil && spare == nil && pitch != nil { spare = makePair() }
        if let pitch, let strobe {
            if heardSinceReading { // read every frame that heard audio, shown or not
                strobeReading = strobe.reading()
                heardSinceReading = false
            }
            if composer.settings.mode.traits.needsPitch { composer.feedMode(.pitch(pitch.display, strobe: strobeReading, dt: dt)) }
        }
        if let scope, composer.settings.mode.traits.needsScope { composer.feedMode(.trigger(scope)) }
        return tempoOverlay ? count : 0
    }
}
