import Dispatch
import SpecvizCore

#if canImport(Glibc)
import Glibc
#endif

/// One beat: its time and, where the metre is known, its number in the bar (1 = downbeat).
public struct Beat: Equatable, Sendable {
    /// Seconds from the start of the audio.
    public var time: Double
    /// 1 … beats per bar, nil when the bar position is unknown.
    public var position: Int?

    public init(time: Double, position: Int? = nil) {
        self.time = time
        self.position = position
    }
}

/// A stretch of steady tempo.
public struct TempoSegment: Equatable, Sendable {
    public var start: Double
    public var end: Double
    public var bpm: Double

    public init(start: Double, end: Double, bpm: Double) {
        self.start = start
        self.end = end
        self.bpm = bpm
    }

    /// Two tempi this close (within 2 BPM or 3 %, whichever is wider) are one tempo: a report
    /// never says "135.6 BPM, then 135.1".
    public static func sameTempo(_ a: Double, _ b: Double) -> Bool {
        abs(a - b) <= max(2, 0.03 * max(a, b))
    }

    /// `self` followed by `next`, as one segment whose tempo is weighted by their spans.
    func joined(with next: TempoSegment) -> TempoSegment {
        let a = max(0, end - start), b = max(0, next.end - next.start)
        let rate = a + b > 0 ? (bpm * a + next.bpm * b) / (a + b) : (bpm + next.bpm) / 2
        return TempoSegment(start: start, end: next.end, bpm: rate)
    }
}

/// The result of an offline beat analysis (`BeatAnalyzer.finish`).
public struct BeatAnalysis: Sendable {
    /// Beat times, oldest first (empty on beat-less audio).
    public var beats: [Beat] = []
    /// Beats per bar (3 or 4) when the metre could be told, else nil.
    public var beatsPerBar: Int?
    /// Tempo segments at the reported metrical level (a tempo change makes two).
    public var segments: [TempoSegment] = []
    /// The tempo of the longest segment (nil: no steady beat).
    public var bpm: Double? {
        segments.max(by: { $0.end - $0.start < $1.end - $1.start })?.bpm
    }
    /// The causal tempo display timeline (what `live` shows; folded into 80–160 BPM).
    public var updates: [TempoUpdate] = []
    /// Reported level ÷ the causal tracker's 80–160 BPM level (½, 1 or 2).
    public var levelFactor = 1.0
    /// `LevelModel`'s inputs and its P(½), P(1), P(2) for the folded grid (empty without beats).
    public var levelInputs: [Double] = []
    public var levelProbabilities: [Double] = []
    /// The phase decisions (`BeatAnalyzer.PhaseReading`), oldest first.
    public var phaseReadings: [BeatAnalyzer.PhaseReading] = []
    /// The 4/4 downbeat decision's evidence (`BeatAnalyzer.DownbeatReading`; nil where no bar
    /// of four was read).
    public var downbeatReading: BeatAnalyzer.DownbeatReading?
    /// Whether the beat divides in three (a shuffle, 6/8, 12/8).
    public var compound = false
    /// True when the live display never showed this tempo: the beats follow a pulse heard over
    /// the whole track (`BeatAnalyzer.heardPulse`: legato music whose estimates agree but are
    /// never strong enough to go on screen).
    public var fromWholeTrack = false
    /// The metre as a time signature ("3/4", "4/4", or "12/8" for four beats of three),
    /// nil when unknown.
    public var meter: String? {
        guard let n = beatsPerBar else { return nil }
        return compound ? "\(3 * n)/8" : "\(n)/4"
    }

    public init(updates: [TempoUpdate] = []) { self.updates = updates }
}

/// Offline beat tracking (issue 18): tempo, beat times with their phase, the metrical
/// level a listener taps, tempo segments and, where it can tell, the downbeats.
///
/// 1. While the audio streams in: the causal `TempoTracker` (its display timeline gives
///    the tempo and, by showing nothing, beat-less stretches), and a finer onset-strength
///    envelope (the same spectral flux with half the hop, ~86 frames/s at 44.1 kHz).
/// 2. `finish`: the local tempo candidates at each frame are the displayed tempi of the
///    updates that heard it; dynamic programming (Ellis 2007) picks the beat sequence that
///    best balances onset strength at the beats against inter-beat intervals far from a
///    candidate period: C(t) = o(t) + max_τ [C(τ) − α·min_P log²((t − τ)/P)].
/// 3. The metrical level: how much of each band sounds half-way, a third and a quarter of the
///    way between the folded grid's beats, and how alike alternate beats are, give
///    `LevelModel`'s probabilities of ½, 1 and 2 × the folded beat; the tracker then runs again
///    at the likeliest.
/// 4. Beats before the first stretch with a displayed tempo are kept only while their onsets
///    stay strong (quiet intros get none). Where the display showed a tempo for less than a
///    quarter of the file, the candidates come from a pulse heard over the whole track
///    (`heardPulse`: the raw estimates agree on a tempo while the pitch content moves and new
///    energy keeps coming); without one (beat-less audio) there are no beats at all.
public final class BeatAnalyzer {
    public let sampleRate: Int
    /// The causal tracker run alongside (its updates are in the result).
    public let tracker: TempoTracker
    /// Envelope frame hop (samples) and rate (frames/s).
    public let hop: Int
    public let frameRate: Double

    private let onset: OnsetStrength
    let size: Int
    private let window: SlidingWindow
    var envelope: [Float] = []
    private var lowEnvelope: [Float] = []
    private var midEnvelope: [Float] = []
    /// The log spectrum's rise per envelope frame (`OnsetStrength.lastLogFlux`).
    private var logEnvelope: [Float] = []
    /// The low band's summed magnitude per envelope frame (for `PercussiveLow`).
    private var lowLevel: [Float] = []
    /// `OnsetStrength.bandCount` band levels per envelope frame.
    var spectra: [Float] = []
    /// The causal display timeline so far.
    public private(set) var updates: [TempoUpdate] = []
    private let tracksBeats: Bool
    /// Pitch-class energies for the bar lines (only when beats are tracked).
    let chroma: ChromaStream?

    /// Transition tightness α of the dynamic programme.
    static let tightness: Float = 100
    /// Seconds before an update whose audio it heard (for the tempo candidates).
    static let hearing = 6.0
    /// Delay (s) from a click's start to the centre of the envelope frame that shows it,
    /// measured on click tracks (subtracted from beat times).
    static let latency = 0.0

    /// - Parameters:
    ///   - beats: false runs only the causal tracker (`updates`; `finish` then finds no beats).
    ///   - reviewsPhase: the causal tracker's predicted beats are reviewed by the offline
    ///     analysis of the last seconds (`TempoTracker.init`): wanted where they are shown
    ///     (`tempo --causal`), not for the offline beats, which read only its display.
    public init(sampleRate: Int, beats: Bool = true, reviewsPhase: Bool = false) {
        self.sampleRate = sampleRate
        tracksBeats = beats
        chroma = beats ? ChromaStream(sampleRate: sampleRate) : nil
        tracker = TempoTracker(sampleRate: sampleRate, reviewsPhase: reviewsPhase)
        size = tracker.hop
        hop = size / 2
        frameRate = Double(sampleRate) / Double(hop)
        onset = OnsetStrength(sampleRate: sampleRate, size: size, bands: true, logFlux: true, power: false)
        window = SlidingWindow(size: size, hop: hop)
        tracker.onUpdate = { [unowned self] in self.updates.append($0) }
    }

    /// Feeds mono samples (full scale ±1).
    public func process(_ samples: UnsafeBufferPointer<Float>) {
        guard tracksBeats else { return tracker.process(samples) }
        // The causal tracker and the offline envelopes share no state: a decoded chunk is
        // analysed by both at once, on two cores (results bit-identical to one after the other).
        if samples.count >= Self.parallelChunk {
            DispatchQueue.concurrentPerform(iterations: 2) { k in
                if k == 0 { tracker.process(samples) } else { processOffline(samples) }
            }
        } else {
            tracker.process(samples)
            processOffline(samples)
        }
    }
    /// Chunks from this many samples are shared out to two threads (the decoder's 8192);
    /// a shorter one is not worth the handoff.
    static let parallelChunk = 4096

    /// The offline envelopes (and chroma) of `samples`.
    private func processOffline(_ samples: UnsafeBufferPointer<Float>) {
        chroma?.process(samples)
        window.push(samples) { frame in
            envelope.append(onset.push(frame: frame))
            lowEnvelope.append(onset.lastLowFlux)
            midEnvelope.append(onset.lastMidFlux)
            logEnvelope.append(onset.lastLogFlux)
            lowLevel.append(onset.lastLowLevel)
            if onset.bandLevels.count > 0 {
                onset.bandLevels.withUnsafeBufferPointer { spectra.append(contentsOf: $0) }
            }
        }
    }

    /// Media time (s) of the centre of envelope frame `j`.
    func frameTime(_ j: Int) -> Double { (Double(size / 2 + j * hop)) / Double(sampleRate) - Self.latency }

    /// The power of two that brings `bpm` into `range` (lower bound included, upper not):
    /// how `--range` folds a tempo, for the analysis and for the display timeline alike.
    public static func foldFactor(_ bpm: Double, into range: ClosedRange<Double>) -> Double {
        var factor = 1.0
        while bpm * factor >= range.upperBound { factor /= 2 }
        while bpm * factor < range.lowerBound { factor *= 2 }
        return factor
    }

    /// Analyses everything heard. `range`: fold the reported tempo (and beats) into this
    /// BPM range (e.g. 80...160) instead of reporting the metrical level.
    public func finish(range: ClosedRange<Double>? = nil) -> BeatAnalysis {
        var result = BeatAnalysis()
        result.updates = updates
        let duration = tracker.time
        guard duration > 0, envelope.count > 16 else { return result }
        // The tempo candidates come from the display's steady runs; where it showed a tempo for
        // less than a quarter of the track or never held one, from a pulse heard over the whole
        // track, if there is one (`heardPulse`).
        var runs = shownSeconds() >= 0.25 * duration ? steadyRuns() : []
        heardFrom = nil
        var heardTempo: Double?
        if runs.isEmpty, let heard = Self.heardPulse(updates) {
            runs = heardRuns(near: heard.bpm, from: heard.start)
            heardFrom = heard.start
            heardTempo = heard.bpm
            result.fromWholeTrack = true
        }
        guard !runs.isEmpty else { return result }
        let broad = normalised(envelope), low = normalised(lowEnvelope), mid = normalised(midEnvelope)
        let wb = Self.mix[0], wl = Self.mix[1], wm = Self.mix[2]
        var o = [Float](repeating: 0, count: broad.count)
        for i in 0..<o.count { o[i] = wb * broad[i] + wl * low[i] + wm * mid[i] }
        // Where the log spectrum carried the displayed tempo (the linear flux showed no clear
        // beat), it carries the phase too: its rise joins the envelope the beats are chosen on.
        if logSpectrumShare() >= Self.logPhaseShare {
            let lg = normalised(logEnvelope)
            for i in 0..<o.count { o[i] += lg[i] }
        }

        // Tempo candidates per frame at the tracker's (folded) level.
        let folded = candidates(runs)
        var beats = track(o, periods: folded, factor: 1)
        guard beats.count >= 4 else { return result }

        // Metrical level.
        let level = chooseLevel(broad: broad, low: low, mid: mid, beats: beats, tempo: heardTempo ?? mainTempo())
        var factor = levelDividingTheBar(level.factor, grid: beats, low: low, tempo: heardTempo ?? mainTempo())
        if let range { factor = BeatAnalyzer.foldFactor(heardTempo ?? mainTempo(), into: range) }
        // The level comes from the first-order programme's beats, which sit on the envelope's
        // peaks (the level rules were measured on such beats); the beats themselves from the
        // smooth programme, which keeps a steady grid.
        let levels = range == nil ? tappable(folded, grid: beats, factor: factor, duration: duration) : nil
        beats = trackSmooth(o, periods: levels ?? folded, factor: levels == nil ? factor : 1)
        if factor == 2 && levels == nil { beats = snareOnTheBeat(beats, mid: mid, broad: broad) }
        let evidence = PhaseEvidence(
            kick: normalised(PercussiveLow.envelope(level: lowLevel)), broad: broad, log: normalised(logEnvelope),
            high: normalised(highFlux()), low: low, mid: mid)
        phaseReadings = []
        beats = onTheBeat(beats, evidence: evidence, factor: factor, duration: duration)
        result.phaseReadings = phaseReadings
        beats = trimLeading(beats, o: o)
        beats = regularised(beats, o: o)
        result.levelFactor = factor
        result.levelInputs = level.inputs
        result.levelProbabilities = level.probabilities
        result.segments = segments(beats: beats, factor: factor, duration: duration)
        displayTempi(&result.segments, factor: factor)
        // Neighbours whose tempi came out within 3 % are one tempo (the split followed a
        // moment of the beat intervals, not a change): merged, and measured again.
        let merged = Self.mergedSegments(result.segments)
        if merged.count < result.segments.count {
            result.segments = merged
            displayTempi(&result.segments, factor: factor)
        }
        // A pulse heard over the whole track has one tempo, the estimates' mode: its rubato is
        // no tempo change, and no display measured the segments.
        if let heardTempo, let first = result.segments.first, let last = result.segments.last {
            result.segments = [TempoSegment(start: first.start, end: last.end, bpm: heardTempo * factor)]
        }
        // The beats are marked where the note starts, not where its energy peaks.
        let lead = (attackLead(beats, log: normalised(logEnvelope)) ?? 0) * Double(hop) / Double(sampleRate)
        result.beats = beats.map { Beat(time: max(0, refine($0, o: o) + lead)) }
        // Beats that divide in three, never in two: a compound metre.
        if factor == 1, level.broad.triplet >= 0.3, level.broad.mid < 0.25 { result.compound = true }
        downbeatReading = nil
        if let (perBar, first) = bars(beats: beats, low: low, mid: mid, compound: result.compound) {
            result.beatsPerBar = perBar
            for k in result.beats.indices { result.beats[k].position = ((k - first) % perBar + perBar) % perBar + 1 }
        }
        result.downbeatReading = downbeatReading
        return result
    }

    /// Least share of the displayed updates read from the log spectrum that puts its rise
    /// into the beats' envelope.
    static let logPhaseShare = 0.3

    /// Share of the updates with a tempo on display whose estimate came from the log
    /// spectrum (`TempoEstimate.fromLogSpectrum`).
    func logSpectrumShare() -> Double {
        var shown = 0, log = 0
        for u in updates where u.display != nil {
            shown += 1
            if u.raw?.fromLogSpectrum == true { log += 1 }
        }
        return shown > 0 ? Double(log) / Double(shown) : 0
    }

    /// The phase decisions of the last `finish`, oldest first.
    public internal(set) var phaseReadings: [PhaseReading] = []
    /// The downbeat decision of the last `finish`.
    var downbeatReading: DownbeatReading?
    /// Where the beats of the last `finish` were first heard when no display led them
    /// (`heardPulse`), else nil.
    var heardFrom: Double?
    /// (best 3-beat contrast, best 4-beat contrast) of the last metre decision, for tuning.
    public internal(set) var lastBarContrast = (0.0, 0.0)
}
