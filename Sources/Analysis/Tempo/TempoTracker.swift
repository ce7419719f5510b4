import SpecvizCore

#if canImport(Glibc)
import Glibc
#endif

/// Real-time tempo detector: audio in, a stable BPM display and onset ticks out
/// (SPEC §6; seed 000 Part 5; seed 002 steps 20–21).
///
/// Pipeline per hop (1024 samples at 44.1/48 kHz, ~43 onset frames/s): onset strength
/// (`OnsetStrength`), an ~8 s history, an onset (beat-dot) detector with an adaptive
/// threshold; every ~0.5 s (from 2 s of history on) a tempo estimate
/// (`TempoEstimator`) goes through the display filter (`TempoDisplayFilter`).
/// Beyond the seed: the newest 4 s are estimated on their own too and win when they are
/// clearly more periodic (a beat that just started or changed tempo locks in ~3–4 s
/// instead of waiting for the old history to age out), and weak estimates are checked
/// on the two halves of the history (split-half corroboration). Silence (< −70 dBFS
/// over 2 s) shows nothing. Everything is causal: the reading at `time` uses only audio
/// before `time`, so the same code runs on files and live input.
///
/// Buffers are allocated at construction; `process` allocates nothing per hop.
public final class TempoTracker {
    /// Audio rate (Hz).
    public let sampleRate: Int
    /// FFT size and hop (samples): 1024 at 44.1/48 kHz, scaled to keep ~43 frames/s.
    public let hop: Int
    /// Onset frames per second.
    public let frameRate: Double
    /// Onset frames between tempo updates (~0.5 s, at least 2 updates per second).
    public let framesPerUpdate: Int

    /// The tempo on display; nil = nothing shown.
    public var display: TempoReading? { filter.display }
    /// Increments on each detected onset; drives the beat dot and the beat flash.
    public private(set) var beatCount = 0
    /// Media time (s) of the audio consumed so far.
    public var time: Double { Double(samplesIn) / Double(sampleRate) }
    /// The latest raw estimate (nil while silent or with too little history).
    public private(set) var lastEstimate: TempoEstimate?
    /// Called after every tempo update (~2 per second) with the display from then on.
    public var onUpdate: ((TempoUpdate) -> Void)?
    /// Predicted beat times (s), oldest first (issue 18): each is announced before it
    /// happens (`announceAhead` before it is due), from the displayed
    /// tempo and the phase of the recent kick and snare onsets, so a display can flash on
    /// the beat rather than after it. Empty while no tempo is displayed.
    public internal(set) var predictedBeats: [Double] = []

    private let onset: OnsetStrength
    private let estimator: TempoEstimator
    var filter = TempoDisplayFilter()
    private let pending: OwnedBuffer<Float>
    private var pendingCount = 0
    private var samplesIn = 0
    // Onset history: a ring of `capacity` frames, linearised into `linear` for estimates.
    let capacity: Int
    private let ring: OwnedBuffer<Float>
    private let linear: OwnedBuffer<Float>
    // The history of the log spectrum's rise, linearised for its own estimate (`logRing`).
    private let logLinear: OwnedBuffer<Float>
    private let powerRing: OwnedBuffer<Float>
    // Raw and new-energy flux of the history (same ring as `ring`): the novelty share.
    private let newEnergy: SpectralNovelty
    private let fluxRing: OwnedBuffer<Float>
    private let novelRing: OwnedBuffer<Float>
    // Pitch-class change from second to second (`TempoEstimate.movement`).
    private let harmony: HarmonicMovement
    private var head = 0
    private var count = 0
    private var framesSinceUpdate = 0
    /// Onset history (frames) before the first estimate: `firstEstimateSeconds`.
    private let minFrames: Int
    /// Shortest history (frames) a split half or a recent-window estimate is read from (2 s).
    private let minHalfFrames: Int
    private let keepAfterFlush: Int
    let silenceFrames: Int
    private let recentFrames: Int
    /// `freshSeconds` in onset frames.
    private let freshFrames: Int
    // Onset (beat dot) detector state.
    private var framesSinceOnset = Int.max / 2
    private var onsetSum: Float = 0
    private var onsetSumSquares: Float = 0
    private let minOnsetGap: Int
    // Beat prediction: low+mid-band onsets (kicks, snares; not hi-hats) and the next beat.
    let beatRing: OwnedBuffer<Float>
    var framesIn = 0
    var nextBeatFrame: Double?
    var phaseMisses = 0
    let scoreRing: OwnedBuffer<Float>
    let logTable: OwnedBuffer<Float> // log(d), d < capacity
    // Causal metrical level: band rings (by absolute frame) and the level with hysteresis.
    let broadRing: OwnedBuffer<Float>
    let lowRing: OwnedBuffer<Float>
    let midRing: OwnedBuffer<Float>
    // The live phase audit's evidence (`beatsOffTheBeat`): the energy below 200 Hz by quarter
    // frame, its level over four quarters and the kicks read from it (`updateKicks`), the high
    // band's flux (~2.6–5 kHz), the previous frame's high band levels, and scratch for the
    // normalisation.
    let lowQuarters: OwnedBuffer<Float>
    let lowLevels: OwnedBuffer<Float>
    let kickRing: OwnedBuffer<Float>
    private var lowBand: LowBandEnergy
    let highRing: OwnedBuffer<Float>
    private let highLevels: OwnedBuffer<Float>
    let phaseScratch: OwnedBuffer<Float>
    /// The level filter's belief in ½, 1 and 2 × the displayed tempo (`updateLevel`).
    var levelBelief = TempoTracker.startBelief
    /// Scratch for the level model's inputs (reserved at construction).
    var levelInputs: [Double] = []
    /// Whether `levelReadings` keeps each live level reading (off: a live view runs for hours).
    public var recordsLevel = false
    /// The live level model's readings, when `recordsLevel`.
    public internal(set) var levelReadings: [LevelReading] = []
    /// The tapped level ÷ the displayed (80–160 BPM) tempo: ½, 1 or 2 (issue 18). The
    /// predicted beats follow it; `display` stays folded.
    public internal(set) var level = 1.0
    var beatSum: Float = 0
    var beatSumSquares: Float = 0
    // The log spectrum's rise (`OnsetStrength.lastLogFlux`) by absolute frame: a second onset
    // feature, estimated on its own (`logSpectrumEstimate`) and, while it carries the display
    // (`logPhase`), an input of the beat programme, with its running sums.
    let logRing: OwnedBuffer<Float>
    var logSum: Float = 0
    var logSumSquares: Float = 0
    /// Whether the log spectrum's rise joins the beat programme's input: it carried at least
    /// `BeatAnalyzer.logPhaseShare` of the last `logPhaseUpdates` updates with a display.
    var logPhase = false
    /// The programme's history must be scored again (its input changed).
    var rescoreProgramme = false
    /// Whether each of the newest updates with a display was read from the log spectrum.
    var logCarried: [Bool] = []
    /// The display's tempo at the newest of `logCarried`.
    var logCarriedBPM = 0.0
    static let logPhaseUpdates = 10
    /// The offline analysis of the last seconds, which reviews the beats' phase (`applyReview`);
    /// nil when the tracker does not predict beats for a view.
    let review: PhaseReview?
    /// Tempo updates since the last review started.
    var updatesSinceReview = 0
    /// Until this onset frame the last review holds the phase: neither the off-beat audit nor
    /// the programme moves the beats by half a beat.
    var reviewHoldsUntil = 0

    /// A 4 s recent-window estimate replaces the whole-history one when its confidence
    /// is at least this, and this margin above the whole's.
    static let recentConfidence = 0.5
    static let recentMargin = 0.1
    /// With nothing on display, an estimate of the newest this many seconds replaces the
    /// whole-history one when it is strong (`TempoDisplayFilter.isStrong`: a weak one would
    /// break the steady runs that start drumless music) and passes the recent window's bars.
    static let freshSeconds = 2.0
    /// Mean power (linear, full-scale sine = 0.5) below which the input counts as silent.
    static let silencePower: Float = 1e-7 // −70 dBFS

    /// - Parameters:
    ///   - sampleRate: audio rate in Hz (8 000 … 192 000).
    ///   - reviewsPhase: the offline analysis of the last seconds reviews the predicted beats'
    ///     phase (`PhaseReview`): on for a view that flashes them; off where only the display's
    ///     tempo is read (the offline analysis's own tracker).
    public init(sampleRate: Int, reviewsPhase: Bool = true) {
        precondition(sampleRate > 0, "sample rate must be positive")
        self.sampleRate = sampleRate
        review = reviewsPhase ? PhaseReview(sampleRate: sampleRate) : nil
        var size = 256
        while Double(sampleRate) / Double(size * 2) >= 30 { size *= 2 } // 1024 at 44.1/48 kHz
        hop = size
        frameRate = Double(sampleRate) / Double(size)
        framesPerUpdate = max(1, Int(0.5 * frameRate))
        capacity = Int((8 * frameRate).rounded())
        minFrames = Int((Self.firstEstimateSeconds * frameRate).rounded())
        minHalfFrames = Int((2 * frameRate).rounded())
        keepAfterFlush = Int((3 * frameRate).rounded())
        silenceFrames = Int((2 * frameRate).rounded())
        recentFrames = Int((4 * frameRate).rounded())
        freshFrames = Int(Self.freshSeconds * frameRate)
        minOnsetGap = max(1, Int((0.1 * frameRate).rounded(.up)))
        onset = OnsetStrength(sampleRate: sampleRate, size: size, bands: true, logFlux: true)
        estimator = TempoEstimator(frameRate: frameRate, capacity: capacity)
        pending = OwnedBuffer(zeroed: size)
        ring = OwnedBuffer(zeroed: capacity)
        linear = OwnedBuffer(zeroed: capacity)
        logLinear = OwnedBuffer(zeroed: capacity)
        powerRing = OwnedBuffer(zeroed: capacity)
        beatRing = OwnedBuffer(zeroed: capacity)
        logRing = OwnedBuffer(zeroed: capacity)
        scoreRing = OwnedBuffer(zeroed: capacity)
        logTable = OwnedBuffer(zeroed: capacity)
        broadRing = OwnedBuffer(zeroed: capacity)
        lowRing = OwnedBuffer(zeroed: capacity)
        midRing = OwnedBuffer(zeroed: capacity)
        lowQuarters = OwnedBuffer(zeroed: 4 * capacity)
        lowLevels = OwnedBuffer(zeroed: 4 * capacity)
        kickRing = OwnedBuffer(zeroed: capacity)
        lowBand = LowBandEnergy(sampleRate: sampleRate)
        highRing = OwnedBuffer(zeroed: capacity)
        highLevels = OwnedBuffer(zeroed: OnsetStrength.bandCount - BeatAnalyzer.highBand)
        phaseScratch = OwnedBuffer(zeroed: 2 * capacity + 1)
        newEnergy = SpectralNovelty(bins: onset.bins)
        fluxRing = OwnedBuffer(zeroed: capacity)
        novelRing = OwnedBuffer(zeroed: capacity)
        harmony = HarmonicMovement(binHz: Double(sampleRate) / Double(size), bins: onset.bins, frameRate: frameRate)
        levelInputs.reserveCapacity(LevelModel.inputs)
        for d in 0..<capacity { logTable[d] = d > 0 ? Float(log(Double(d))) : 0 }
        predictedBeats.reserveCapacity(1024)
        heardScratch.reserveCapacity(Self.leadSlots)
    }

    /// Feeds mono samples (any count; full scale ±1).
    public func process(_ samples: UnsafeBufferPointer<Float>) {
        guard let base = samples.baseAddress else { return }
        var i = 0
        while i < samples.count {
            let n = min(hop - pendingCount, samples.count - i)
            (pending.base + pendingCount).update(from: base + i, count: n)
            review?.push(base + i, count: n)
            pendingCount += n
            samplesIn += n
            i += n
            if pendingCount == hop {
                pendingCount = 0
                analyseFrame()
            }
        }
    }

    /// Forgets all history and the display (e.g. when the source changes).
    public func reset() {
        onset.reset()
        lowBand.reset()
        newEnergy.reset()
        harmony.reset()
        filter.reset()
        head = 0; count = 0; framesSinceUpdate = 0
        onsetSum = 0; onsetSumSquares = 0
        framesSinceOnset = Int.max / 2
        lastEstimate = nil
        nextBeatFrame = nil
        level = 1
        attackLead = 0
        logCarried.removeAll()
        logPhase = false
        forgetGrid()
        review?.reset()
        updatesSinceReview = 0
        reviewHoldsUntil = 0
    }

    /// Forgets what the level filter and the off-beat audit read from the predicted beats
    /// heard so far (after a reset, a tempo change or a new level): their history starts now.
    func forgetGrid() {
        levelBelief = Self.startBelief
        halfShift = 0; offBeatVotes = 0; auditFrom = framesIn
    }

    private func analyseFrame() {
        let value = onset.push(frame: pending.base)
        if count == capacity { // the oldest frame leaves the history
            let old = ring[head]
            onsetSum -= old; onsetSumSquares -= old * old
        }
        onsetSum += value; onsetSumSquares += value * value
        ring[head] = value
        powerRing[head] = onset.lastPower
        newEnergy.push(onset.magnitudes)
        fluxRing[head] = newEnergy.flux
        novelRing[head] = newEnergy.novel
        harmony.push(onset.magnitudes)
        let beatValue = onset.lastLowFlux + onset.lastMidFlux, logValue = onset.lastLogFlux
        if framesIn >= capacity {
            let old = beatRing[framesIn % capacity], oldLog = logRing[framesIn % capacity]
            beatSum -= old; beatSumSquares -= old * old
            logSum -= oldLog; logSumSquares -= oldLog * oldLog
        }
        beatRing[framesIn % capacity] = beatValue
        logRing[framesIn % capacity] = logValue
        logSum += logValue; logSumSquares += logValue * logValue
        broadRing[framesIn % capacity] = value
        lowRing[framesIn % capacity] = onset.lastLowFlux
        midRing[framesIn % capacity] = onset.lastMidFlux
        lowBand.push(pending.base, count: hop, parts: 4, into: lowQuarters.base + 4 * (framesIn % capacity))
        updateKicks()
        var high: Float = 0
        for q in 0..<highLevels.count {
            let level = onset.bandLevels[BeatAnalyzer.highBand + q]
            high += max(0, level - highLevels[q])
            highLevels[q] = level
        }
        highRing[framesIn % capacity] = high
        beatSum += beatValue; beatSumSquares += beatValue * beatValue
        framesIn += 1
        head = (head + 1) % capacity
        count = min(capacity, count + 1)
        detectOnset(value)
        predictBeat()
        framesSinceUpdate += 1
        if framesSinceUpdate >= framesPerUpdate {
            framesSinceUpdate = 0
            update()
        }
    }

    /// Seed 000 Part 5 "Onset Detection": onset when the value exceeds the history's
    /// mean + 1.5 σ (running sums), at least 100 ms after the previous one, and not
    /// in silence.
    private func detectOnset(_ value: Float) {
        framesSinceOnset += 1
        guard count >= minOnsetGap * 4, framesSinceOnset >= minOnsetGap else { return }
        let mean = onsetSum / Float(count)
        let sd = max(0, onsetSumSquares / Float(count) - mean * mean).squareRoot()
        let previous = ring[(head - 2 + capacity) % capacity]
        if value > mean + 1.5 * sd, value > previous, value > 0.05, !isSilent(frames: 4) {
            beatCount += 1
            framesSinceOnset = 0
        }
    }

    /// Seconds of onset history before the first estimate. The display still needs two
    /// agreeing votes (0.5 s apart), so at 1.25 it can show a tempo from 2.0 s (first
    /// estimate at the 1.5 s update), not 3.0. Public tempo set: median lock 3.0 → 2.0 s,
    /// causal beat F 0.844 → 0.875 (F after 5 s 0.892 → 0.913: the phase settles sooner),
    /// display correct 99.0 %, every style ≥ 97 %, still nothing on beat-less tracks or
    /// intros. Under 1 s of history (first estimate at 1.0 s) the beat-less tracks showed
    /// a tempo 1.2 % of the time.
    static let firstEstimateSeconds = 1.25

    /// The period (frames) the programme's scores were made with; 0 = none.
    var programmePeriod = 0.0
    /// Consecutive tempo updates whose audit found the doubled grid on the off-beat.
    var offBeatVotes = 0
    /// Half a beat (0.5) when the audit moved the doubled grid off the programme's marks, else 0.
    var halfShift = 0.0
    /// How far (onset frames, ≤ 0) the beats are announced before the programme's marks: where
    /// the notes start, not where their flux peaks (`updateAttackLead`).
    var attackLead = 0.0
    /// The `attackLead` each of the last `leadSlots` predicted beats was announced with (beat
    /// k in slot k % `leadSlots`), so that the audits read every beat at its programme frame.
    let announcedLeads = OwnedBuffer<Double>(zeroed: TempoTracker.leadSlots)
    static let leadSlots = 64
    /// The heard beats' frames `updateAttackLead` reads (capacity `leadSlots`, reused: no
    /// allocation per update).
    var heardScratch: [Int] = []
    /// First frame whose predicted beats the off-beat audit reads (after a shift).
    var auditFrom = 0
    /// The frame from which the programme has had its period (within `rescoreChange`).
    var periodFrom = 0

    /// Predicted beats before `time` (s): how many flashes a display at `time` has shown.
    public func predictedBeatCount(before time: Double) -> Int {
        var n = predictedBeats.count
        while n > 0 && predictedBeats[n - 1] >= time { n -= 1 }
        return n
    }

    /// Recomputes the running sums of the onset history (after a flush, and every
    /// update to stop floating-point drift).
    private func resumOnsets() {
        onsetSum = 0; onsetSumSquares = 0
        var index = head
        for _ in 0..<count {
            index = index == 0 ? capacity - 1 : index - 1
            onsetSum += ring[index]; onsetSumSquares += ring[index] * ring[index]
        }
    }

    /// Share of the history's flux that is new energy (`TempoEstimate.novelty`).
    private func noveltyShare() -> Double {
        var flux: Float = 0, novel: Float = 0
        var index = head
        for _ in 0..<count {
            index = index == 0 ? capacity - 1 : index - 1
            flux += fluxRing[index]; novel += novelRing[index]
        }
        return flux > 0 ? Double(novel / flux) : 0
    }

    /// True when the mean power of the newest `frames` frames is below the silence power.
    func isSilent(frames: Int) -> Bool {
        let n = min(frames, count)
        var sum: Float = 0
        for k in 1...max(n, 1) { sum += powerRing[(head - k + capacity) % capacity] }
        return sum / Float(max(n, 1)) < Self.silencePower
    }

    /// Split-half check for a weak periodicity: the two disjoint halves of the history,
    /// estimated on their own, must agree with each other and with the whole within
    /// ±3 BPM. Noise yields independent, scattered half estimates; a real (if soft)
    /// beat, e.g. drumless strings, repeats in both halves.
    private func corroborates(_ whole: TempoEstimate, history: UnsafePointer<Float>) -> Bool {
        let half = count / 2
        guard half >= minHalfFrames else { return false }
        guard let a = estimator.estimate(history, count: half),
            let b = estimator.estimate(history + (count - half), count: half)
        else { return false }
        return abs(a.bpm - b.bpm) <= 3 && abs(b.bpm - whole.bpm) <= 3
    }

    /// The log spectrum's estimate, when it speaks instead of the linear flux's `linear`, once
    /// the history is 4 s long (over the first second or two, a syncopated click pattern's log
    /// rise read 4/3 of its tempo clearly enough to start a display), for one of three reasons:
    /// - it is clearer where the linear flux shows no clear beat (below a strong estimate's
    ///   confidence), and it contradicts nothing known: it agrees with the linear flux's tempo,
    ///   or else with the tempo on display, if any. With nothing on display and no agreement,
    ///   the display filter's start tests (a strong estimate bringing new energy or moving
    ///   pitch content) still stand between it and a display, so beat-less audio stays blank;
    /// - it clearly hears a tempo half as fast again (×1.5 up to octaves; confidence at least
    ///   `fasterConfidence` and `fasterShare` of the linear's) over a strong linear estimate.
    ///   Where loud notes fall only on the bar's first beat (a waltz's bass at 180 under soft
    ///   chords on 2 and 3), the linear flux hears the bar and its half, 120, a tempo of no
    ///   beat; the log spectrum hears every note. Development and training sets: of the updates
    ///   whose log estimate stood so, at these confidences the log one was the annotated tempo
    ///   on 180 and the linear one on none (at any confidence: 302 against 64, and 180 on
    ///   beat-less tracks, those 244 all below 0.4);
    /// - at the linear flux's tempo, its periodicity comes from onsets (`isOnsetLike`) where the
    ///   linear flux's does not (soft attacks whose linear flux swells: a drumless waltz's
    ///   peakiness 1.7 in the linear flux, 4–5 in the log). Development and training sets: on
    ///   234 such updates the tempo was the annotated one, on 5 not, and none of them was on a
    ///   beat-less track (nor on any of 60 more beat-less files).
    private func logSpectrumEstimate(over linear: TempoEstimate) -> TempoEstimate? {
        guard count >= recentFrames else { return nil }
        let start = framesIn - count
        for k in 0..<count { logLinear[k] = logRing[(start + k) % capacity] }
        guard var log = bestEstimate(of: logLinear.base) else { return nil }
        let clearer =
            linear.confidence < filter.strongConfidence && log.confidence > linear.confidence
            && (Self.sameFoldedTempo(linear.bpm, log.bpm) || (filter.display.map { Self.sameFoldedTempo($0.bpm, log.bpm) } ?? true))
        let faster =
            linear.confidence >= filter.strongConfidence && log.confidence >= Self.fasterConfidence
            && log.confidence >= Self.fasterShare * linear.confidence && Self.sameFoldedTempo(1.5 * linear.bpm, log.bpm)
        let sharper =
            !filter.isOnsetLike(linear) && filter.isOnsetLike(log) && log.confidence >= filter.minConfidence
            && Self.sameFoldedTempo(linear.bpm, log.bpm)
        guard clearer || faster || sharper else { return nil }
        log.fromLogSpectrum = true
        return log
    }
    /// Least confidence of a log-spectrum estimate half as fast again as the linear one.
    static let fasterConfidence = 0.4
    /// Least share of the linear estimate's confidence such an estimate needs.
    static let fasterShare = 0.6

    /// Keeps `logPhase`: whether the log spectrum carries the display of late.
    /// What carried another tempo does not count for the one on display: a new tempo (the
    /// display moved by more than `levelKeeps`) starts the window again.
    private func followLogPhase(_ estimate: TempoEstimate?) {
        guard let shown = filter.display else { return }
        if abs(shown.bpm / logCarriedBPM - 1) > Self.levelKeeps { logCarried.removeAll() }
        logCarriedBPM = shown.bpm
        logCarried.append(estimate?.fromLogSpectrum == true)
        if logCarried.count > Self.logPhaseUpdates { logCarried.removeFirst() }
        let share = Double(logCarried.filter { $0 }.count) / Double(Self.logPhaseUpdates)
        let on = share >= BeatAnalyzer.logPhaseShare
        if on != logPhase { logPhase = on; rescoreProgramme = true }
    }

    /// `bpm` in the octave of `near` (the display) when it is `near`'s tempo across the fold (an
    /// estimate of 80.05 while 159.9 is shown): 80 and 160 BPM are one folded tempo, and a tempo
    /// at the fold was estimated on either side of it in turn. The display then flipped between
    /// 160 and 80 and took each flip for a tempo change (history flushed, level and grid
    /// forgotten), and the offline candidates came out at two levels. Only near the fold (within
    /// `foldHysteresis` of 80 or 160), so a display never drifts away from 80–160. Before a
    /// display the estimates keep their own octave: holding the first one's (1–2 % off on a
    /// short history) kept a one-drop at 81.5 in the upper octave (and cost a validation copy
    /// 0.011 of offline beat F).
    static func sameOctave(_ bpm: Double, as near: Double) -> Double {
        for moved in [bpm * 2, bpm / 2] where abs(moved / near - 1) < foldHysteresis {
            let fold = moved > 120 ? TempoEstimator.maxBPM : TempoEstimator.minBPM
            if abs(moved / fold - 1) < foldHysteresis { return moved }
        }
        return bpm
    }
    /// How far (relative) around 80 and 160 BPM a tempo keeps the octave it was shown in.
    static let foldHysteresis = 0.03

    /// Two folded (80–160 BPM) tempi within 4 % of each other, 80 and 160 being one.
    static func sameFoldedTempo(_ a: Double, _ b: Double) -> Bool {
        let r = a / b
        return abs(r - 1) < 0.04 || abs(r - 2) < 0.08 || abs(r - 0.5) < 0.02
    }

    /// The estimate of the onset history `history[0..<count]`: the whole, or when the beat
    /// started (or changed) within it, the newest seconds alone, which show it much more
    /// clearly than the diluted whole.
    private func bestEstimate(of history: UnsafePointer<Float>) -> TempoEstimate? {
        var estimate = estimator.estimate(history, count: count)
        if count >= recentFrames + minHalfFrames / 2,
            let recent = estimator.estimate(history + (count - recentFrames), count: recentFrames),
            recent.confidence >= TempoTracker.recentConfidence,
            recent.confidence > (estimate?.confidence ?? 0) + TempoTracker.recentMargin
        {
            estimate = recent
        }
        // Nothing on display: the newest `freshSeconds` alone may start one, as they do at a
        // track's start. After a quiet or beat-less stretch the whole history dilutes a beat
        // that has just begun: the first flash came 3.8 s after it (median, the development
        // copies' intro tracks), against 2.4 s after a track's first beat (stage U).
        if filter.display == nil, count >= freshFrames + minHalfFrames / 2,
            let fresh = estimator.estimate(history + (count - freshFrames), count: freshFrames),
            filter.isStrong(fresh), fresh.confidence >= Self.recentConfidence,
            fresh.confidence > (estimate?.confidence ?? 0) + Self.recentMargin
        {
            estimate = fresh
        }
        return estimate
    }

    private func update() {
        var estimate: TempoEstimate?
        if count >= minFrames && !isSilent(frames: silenceFrames) {
            let start = (head - count + capacity) % capacity
            for k in 0..<count { linear[k] = ring[(start + k) % capacity] }
            // Two onset features, each estimated on its own. The linear flux follows the loud
            // attacks (drums) and speaks first; where it shows no clear beat, the log
            // spectrum's rise, which also hears soft attacks under held notes (an orchestra's
            // harp or pizzicato under its strings), may speak instead; so may it where it clearly
            // hears a tempo half as fast again, or the same tempo in onsets the linear flux
            // smooths (`logSpectrumEstimate`).
            var history = UnsafePointer(linear.base)
            estimate = bestEstimate(of: history)
            if let e = estimate, let log = logSpectrumEstimate(over: e) {
                estimate = log
                history = UnsafePointer(logLinear.base)
            }
            estimate?.novelty = noveltyShare()
            estimate?.movement = harmony.movement(historyFrames: count)
            if var e = estimate, filter.wantsCorroboration(e) {
                e.corroborated = corroborates(e, history: history)
                estimate = e
            }
        }
        // A tempo at the fold stays in the octave it is shown in.
        if var e = estimate, let near = filter.display?.bpm {
            e.bpm = Self.sameOctave(e.bpm, as: near)
            estimate = e
        }
        lastEstimate = estimate
        let before = filter.display?.bpm
        let flushed = filter.push(estimate)
        // A level was chosen for the tempo on display; another tempo starts at level 1 again
        // (a bossa shown at 2/3 of its tempo for a moment, doubled there, kept doubling the
        // right tempo after: public set, causal beat F on it 0.66 → 0.94).
        if level != 1, let b = before, let a = filter.display?.bpm, abs(a / b - 1) > Self.levelKeeps {
            level = 1
            nextBeatFrame = nil
            forgetGrid()
        }
        if flushed {
            // Tempo change: keep only the newest few seconds of onset history.
            count = min(count, keepAfterFlush)
            forgetGrid()
        }
        followLogPhase(estimate)
        updateLevel()
        auditOffBeat()
        reviewPhase()
        updateAttackLead()
        resumOnsets()
        onUpdate?(TempoUpdate(time: time, display: filter.display, raw: estimate, level: level))
    }
}
