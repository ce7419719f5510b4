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
    /// Whether the beat divides in three (a shuffle, 6/8, 12/8).
    public var compound = false
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
/// 3. The metrical level: the folded beat grid is compared with its off-beats (a strong,
///    even half-beat pulse means the beat is twice as fast) and with its alternate beats
///    (every other beat much weaker means the beat is half as fast); the tracker then runs
///    again at the chosen level.
/// 4. Beats before the first stretch with a displayed tempo are kept only while their onsets
///    stay strong (quiet intros get none); beat-less audio (no display for three quarters of
///    the file) gets no beats at all.
public final class BeatAnalyzer {
    public let sampleRate: Int
    /// The causal tracker run alongside (its updates are in the result).
    public let tracker: TempoTracker
    /// Envelope frame hop (samples) and rate (frames/s).
    public let hop: Int
    public let frameRate: Double

    private let onset: OnsetStrength
    private let size: Int
    private let window: SlidingWindow
    private var envelope: [Float] = []
    private var lowEnvelope: [Float] = []
    private var midEnvelope: [Float] = []
    /// `OnsetStrength.bandCount` band levels per envelope frame.
    private var spectra: [Float] = []
    /// The causal display timeline so far.
    public private(set) var updates: [TempoUpdate] = []
    private let tracksBeats: Bool
    /// Pitch-class energies for the bar lines (only when beats are tracked).
    private let chroma: ChromaStream?

    /// Transition tightness α of the dynamic programme.
    static let tightness: Float = 100
    /// Seconds before an update whose audio it heard (for the tempo candidates).
    static let hearing = 6.0
    /// Delay (s) from a click's start to the centre of the envelope frame that shows it,
    /// measured on click tracks (subtracted from beat times).
    static let latency = 0.0

    /// - Parameter beats: false runs only the causal tracker (`updates`; `finish` then
    ///   finds no beats).
    public init(sampleRate: Int, beats: Bool = true) {
        self.sampleRate = sampleRate
        tracksBeats = beats
        chroma = beats ? ChromaStream(sampleRate: sampleRate) : nil
        tracker = TempoTracker(sampleRate: sampleRate)
        size = tracker.hop
        hop = size / 2
        frameRate = Double(sampleRate) / Double(hop)
        onset = OnsetStrength(sampleRate: sampleRate, size: size, bands: true)
        window = SlidingWindow(size: size, hop: hop)
        tracker.onUpdate = { [unowned self] in self.updates.append($0) }
    }

    /// Feeds mono samples (full scale ±1).
    public func process(_ samples: UnsafeBufferPointer<Float>) {
        tracker.process(samples)
        guard tracksBeats else { return }
        chroma?.process(samples)
        window.push(samples) { frame in
            envelope.append(onset.push(frame: frame))
            lowEnvelope.append(onset.lastLowFlux)
            midEnvelope.append(onset.lastMidFlux)
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
        let shown = shownSeconds()
        guard duration > 0, shown >= 0.25 * duration, envelope.count > 16 else { return result }
        let broad = normalised(envelope), low = normalised(lowEnvelope), mid = normalised(midEnvelope)
        let wb = Self.mix[0], wl = Self.mix[1], wm = Self.mix[2]
        var o = [Float](repeating: 0, count: broad.count)
        for i in 0..<o.count { o[i] = wb * broad[i] + wl * low[i] + wm * mid[i] }
        let runs = steadyRuns()
        guard !runs.isEmpty else { return result }

        // Tempo candidates per frame at the tracker's (folded) level.
        let folded = candidates(runs)
        var beats = track(o, periods: folded, factor: 1)
        guard beats.count >= 4 else { return result }

        // Metrical level.
        var factor = chooseLevel(broad: broad, low: low, mid: mid, beats: beats, tempo: mainTempo())
        if let range { factor = BeatAnalyzer.foldFactor(mainTempo(), into: range) }
        if factor != 1 { beats = track(o, periods: folded, factor: factor) }
        if factor == 2 { beats = snareOnTheBeat(beats, mid: mid, broad: broad) }
        beats = trimLeading(beats, o: o)
        beats = regularised(beats, o: o)
        result.levelFactor = factor
        result.segments = segments(beats: beats, factor: factor, duration: duration)
        // A segment's tempo: the time-weighted median of the display over it (the display is
        // within ±2 BPM far more often than a beat-interval fit), else the beats' own rate.
        for k in result.segments.indices {
            let seg = result.segments[k]
            let whole = result.segments.count == 1
            let lo = whole ? -Double.infinity : seg.start + 3, hi = whole ? Double.infinity : seg.end + Self.hearing
            if let m = displayMedian(from: lo, to: hi, near: whole ? nil : seg.bpm / factor) { result.segments[k].bpm = m * factor }
        }
        result.beats = beats.map { Beat(time: max(0, refine($0, o: o))) }
        // Beats that divide in three, never in two: a compound metre.
        if factor == 1, lastLevelFeatures.count >= 3, lastLevelFeatures[2] >= 0.3, lastLevelFeatures[0] < 0.25 { result.compound = true }
        if let (perBar, first) = bars(beats: beats, low: low, mid: mid, compound: result.compound) {
            result.beatsPerBar = perBar
            for k in result.beats.indices { result.beats[k].position = ((k - first) % perBar + perBar) % perBar + 1 }
        }
        return result
    }

    // MARK: - Tempo candidates

    /// Seconds during which the causal display shows a tempo.
    private func shownSeconds() -> Double {
        var total = 0.0
        for (k, u) in updates.enumerated() where u.display != nil {
            let end = k + 1 < updates.count ? updates[k + 1].time : tracker.time
            total += max(0, end - u.time)
        }
        return total
    }

    /// Median of the displayed tempo over the updates (folded level).
    private func mainTempo() -> Double {
        var values: [Double] = updates.compactMap { $0.display?.bpm }
        guard !values.isEmpty else { return 120 }
        values.sort()
        return values[values.count / 2]
    }

    /// Runs of the causal display that hold one tempo (±2 BPM) for at least `minRun`
    /// seconds: (first update time, last update time, median BPM at the folded level).
    func steadyRuns() -> [(start: Double, end: Double, bpm: Double)] {
        var runs: [(start: Double, end: Double, bpm: Double)] = []
        var values: [Double] = []
        var start = 0.0, last = 0.0
        func close() {
            if !values.isEmpty && last - start >= Self.minRun {
                let sorted = values.sorted()
                runs.append((start, last, sorted[sorted.count / 2]))
            }
            values.removeAll()
        }
        for u in updates {
            guard let d = u.display else { close(); continue }
            if let m = values.first, abs(d.bpm - m) > 2 { close() }
            if values.isEmpty { start = u.time }
            values.append(d.bpm)
            last = u.time
        }
        close()
        // Merge neighbouring runs of the same tempo.
        var merged: [(start: Double, end: Double, bpm: Double)] = []
        for r in runs {
            if let p = merged.last, abs(p.bpm - r.bpm) <= 2 {
                merged[merged.count - 1] = (p.start, r.end, (p.bpm * (p.end - p.start) + r.bpm * (r.end - r.start)) / (r.end - p.start))
            } else {
                merged.append(r)
            }
        }
        return merged
    }
    static let minRun = 3.0

    /// For each envelope frame, the tempi (BPM, folded level) of the steady runs whose
    /// updates heard it (display time within `hearing` s after the frame); the nearest
    /// run's where none did.
    private func candidates(_ runs: [(start: Double, end: Double, bpm: Double)]) -> [[Float]] {
        var out: [[Float]] = []
        out.reserveCapacity(envelope.count)
        for j in 0..<envelope.count {
            let t = frameTime(j)
            var set: [Float] = []
            var nearest = 0, distance = Double.infinity
            for (k, r) in runs.enumerated() {
                if r.end >= t && r.start <= t + Self.hearing {
                    if set.count < 4 { set.append(Float(r.bpm)) }
                }
                let d = t < r.start ? r.start - t : max(0, t - r.end)
                if d < distance { distance = d; nearest = k }
            }
            if set.isEmpty { set.append(Float(runs[nearest].bpm)) }
            out.append(set)
        }
        return out
    }

    // MARK: - Dynamic programming

    /// Onset envelope minus its 1 s local mean, half-wave rectified, over its standard deviation.
    private func normalised(_ env: [Float]) -> [Float] {
        let n = env.count
        var prefix = [Double](repeating: 0, count: n + 1)
        for i in 0..<n { prefix[i + 1] = prefix[i] + Double(env[i]) }
        let half = max(1, Int((0.5 * frameRate).rounded()))
        var out = [Float](repeating: 0, count: n)
        var sum2 = 0.0
        for i in 0..<n {
            let lo = max(0, i - half), hi = min(n, i + half + 1)
            let d = Double(env[i]) - (prefix[hi] - prefix[lo]) / Double(hi - lo)
            let v = max(0, d)
            out[i] = Float(v)
            sum2 += v * v
        }
        let sd = (sum2 / Double(n)).squareRoot()
        if sd > 0 { for i in 0..<n { out[i] /= Float(sd) } }
        return out
    }

    /// Ellis's dynamic programme with per-frame candidate periods (`periods` in BPM × `factor`).
    /// Returns beat frame indices.
    private func track(_ o: [Float], periods bpms: [[Float]], factor: Double) -> [Int] {
        let n = o.count
        let fr = Float(frameRate)
        let f = Float(factor)
        var maxPeriod: Float = 1
        for set in bpms { for b in set { maxPeriod = max(maxPeriod, 60 * fr / (b * f)) } }
        let longest = Int((2 * maxPeriod).rounded(.up)) + 1
        var logTable = [Float](repeating: 0, count: longest + 1)
        for d in 1...longest { logTable[d] = log(Float(d)) }
        var score = [Float](repeating: 0, count: n)
        var back = [Int](repeating: -1, count: n)
        var logP = [Float](repeating: 0, count: 4)
        for t in 0..<n {
            let set = bpms[t]
            var shortest: Float = .infinity, widest: Float = 0
            for (k, b) in set.enumerated() {
                let p = 60 * fr / (b * f)
                logP[k] = log(p)
                shortest = min(shortest, p); widest = max(widest, p)
            }
            let dMin = max(1, Int((shortest * 0.5).rounded()))
            let dMax = min(t, Int((widest * 2).rounded()))
            var best: Float = 0, bestFrom = -1
            if dMin <= dMax {
                best = -.infinity
                for d in dMin...dMax {
                    var pen: Float = .infinity
                    for k in 0..<set.count { let e = logTable[d] - logP[k]; pen = min(pen, e * e) }
                    let v = score[t - d] - Self.tightness * pen
                    if v > best { best = v; bestFrom = t - d }
                }
                if best < 0 { best = 0; bestFrom = -1 } // start afresh rather than pay
            }
            score[t] = o[t] + best
            back[t] = bestFrom
        }
        // The last beat: the best score within the final period.
        let lastPeriod = Int((60 * fr / (bpms[n - 1][0] * f)).rounded())
        var end = n - 1, endScore: Float = -.infinity
        for t in max(0, n - lastPeriod)..<n where score[t] > endScore { endScore = score[t]; end = t }
        var beats: [Int] = []
        var t = end
        while t >= 0 {
            beats.append(t)
            t = back[t]
        }
        beats.reverse()
        return beats
    }

    /// Beats pulled off a steady grid by a syncopated hit (a hip-hop kick a sixteenth early):
    /// a beat whose two intervals differ by more than `displacedShare` of their mean while
    /// the intervals on either side of them agree with that mean (within 8 %) moves to the
    /// strongest envelope frame within 5 % of a period of the midpoint of its neighbours.
    private func regularised(_ beats: [Int], o: [Float]) -> [Int] {
        guard beats.count >= 5 else { return beats }
        var out = beats
        for k in 2..<(beats.count - 2) {
            let a = Double(out[k - 1]), b = Double(beats[k + 1]), x = Double(beats[k])
            let p = (b - a) / 2
            guard p > 0, abs((x - a) - (b - x)) > Self.displacedShare * p else { continue }
            let before = a - Double(out[k - 2]), after = Double(beats[k + 2]) - b
            guard abs(before / p - 1) < 0.08, abs(after / p - 1) < 0.08 else { continue }
            let mid = (a + b) / 2, r = max(1, Int((0.05 * p).rounded()))
            var best = Int(mid.rounded()), top = -Float.infinity
            for j in max(0, best - r)...min(o.count - 1, best + r) where o[j] > top { top = o[j]; best = j }
            out[k] = best
        }
        return out
    }
    static let displacedShare = 0.2

    /// Sub-frame beat time: the parabola through the envelope peak at or next to `j`.
    private func refine(_ j: Int, o: [Float]) -> Double {
        var k = j
        if j > 0 && o[j - 1] > o[k] { k = j - 1 }
        if j + 1 < o.count && o[j + 1] > o[k] { k = j + 1 }
        var offset = 0.0
        if k > 0 && k + 1 < o.count {
            let a = Double(o[k - 1]), b = Double(o[k]), c = Double(o[k + 1])
            let den = a - 2 * b + c
            if den < 0 && b > 0 { offset = max(-0.5, min(0.5, 0.5 * (a - c) / den)) }
        }
        if o[k] <= 0 { return frameTime(j) }
        let t = Double(k) + offset
        return (Double(size / 2) + t * Double(hop)) / Double(sampleRate) - Self.latency
    }

    // MARK: - Metrical level

    /// Mean envelope value near frame position `x` (max within ±1 frame).
    private func strength(_ o: [Float], at x: Double) -> Float {
        let i = Int(x.rounded())
        var m: Float = 0
        for k in max(0, i - 1)...min(o.count - 1, i + 1) { m = max(m, o[k]) }
        return m
    }

    /// Level features of a beat grid on one envelope: (half-beat ÷ beat, weaker ÷ stronger
    /// of alternate beats, third-beat ÷ beat).
    private func gridFeatures(_ o: [Float], beats: [Int]) -> (mid: Double, alternation: Double, triplet: Double) {
        var on: Float = 0, mid: Float = 0, third: Float = 0, even: Float = 0, odd: Float = 0
        var evenCount: Float = 0, oddCount: Float = 0
        for k in 0..<beats.count {
            let s = strength(o, at: Double(beats[k]))
            on += s
            if k % 2 == 0 { even += s; evenCount += 1 } else { odd += s; oddCount += 1 }
            if k + 1 < beats.count {
                let a = Double(beats[k]), b = Double(beats[k + 1])
                mid += strength(o, at: (a + b) / 2)
                third += 0.5 * (strength(o, at: a + (b - a) / 3) + strength(o, at: a + 2 * (b - a) / 3))
            }
        }
        let onMean = max(on / Float(beats.count), 1e-6)
        let pairs = Float(max(1, beats.count - 1))
        let e = even / max(1, evenCount), d = odd / max(1, oddCount)
        return (Double(mid / pairs / onMean), Double(min(e, d) / max(max(e, d), 1e-6)), Double(third / pairs / onMean))
    }

    /// ½, 1 or 2: the ratio of the tapped beat to the folded grid `beats` at `tempo` BPM.
    func chooseLevel(broad: [Float], low: [Float], mid: [Float], beats: [Int], tempo: Double) -> Double {
        let b = gridFeatures(broad, beats: beats), l = gridFeatures(low, beats: beats), m = gridFeatures(mid, beats: beats)
        lastLevelFeatures = [b.mid, b.alternation, b.triplet, l.mid, l.alternation, l.triplet, m.mid, m.alternation, m.triplet]
        return Self.levelRule(tempo: tempo, broad: b, low: l, mid: m)
    }

    /// The level rules on grid features of the folded beat (also used causally by `TempoTracker`).
    static func levelRule(
        tempo: Double, broad b: (mid: Double, alternation: Double, triplet: Double),
        low l: (mid: Double, alternation: Double, triplet: Double),
        mid m: (mid: Double, alternation: Double, triplet: Double)
    ) -> Double {
        // Twice as fast: a slow folded beat (≤ 92 BPM) with a strong mid-band pulse (snare
        // body, chords) half-way between beats: drum & bass's snare on 2 and 4 at 174, a
        // waltz's every beat; hip-hop's half-beats are hi-hats (little mid band). Or with
        // the low band's pulse there at least as strong as on the beats: a folded grid on
        // drum & bass's loud snare, its kicks between (hip-hop's kicks fall on its beats).
        if tempo <= 92 && b.mid >= 0.5 && (m.mid >= 0.5 || l.mid >= Self.lowHalfBeat) { return 2 }
        // Half as fast: a brisk folded beat (≥ 110) with nothing between beats (no half- or
        // third-beat pulse: not a shuffle) and kicks on alternate beats only (not a waltz,
        // whose kick comes every bar of 3): ballads and reggae at 60–80 BPM.
        if tempo >= 110 && b.mid < 0.25 && b.triplet < 0.3 && l.alternation < 0.75 { return 0.5 }
        return 1
    }
    /// Low-band flux half-way between the folded beats, relative to on them, from which a
    /// slow folded beat doubles (public tempo set: the two drum & bass tracks only this rule
    /// doubles read 1.12 and 1.72; every level-1 track under 92 BPM reads at most 0.61).
    static let lowHalfBeat = 1.0
    /// Features of the last level decision, for tuning.
    public private(set) var lastLevelFeatures: [Double] = []
    /// Weights of the broadband, low-band (< 200 Hz) and mid-band (200 Hz – 3 kHz) envelopes
    /// in the tracking signal: hi-hats and rides, loud in broadband flux, sit on the
    /// off-beats of most dance styles, kicks and snares on the beats.
    static let mix: [Float] = [0, 1, 1]

    /// A doubled (fast) grid whose half-beats carry more mid band and broadband flux (snare,
    /// cymbals) than its beats is on the off-beat (drum & bass: kicks and bass syncopated,
    /// which the low band follows): shift it by half a beat.
    private func snareOnTheBeat(_ beats: [Int], mid: [Float], broad: [Float]) -> [Int] {
        guard beats.count >= 8 else { return beats }
        var on: Float = 0, off: Float = 0
        for k in 0..<(beats.count - 1) {
            on += strength(mid, at: Double(beats[k])) + strength(broad, at: Double(beats[k]))
            let half = Double(beats[k] + beats[k + 1]) / 2
            off += strength(mid, at: half) + strength(broad, at: half)
        }
        guard off > Self.offBeatShift * on else { return beats }
        var shifted: [Int] = []
        for k in 0..<(beats.count - 1) { shifted.append((beats[k] + beats[k + 1] + 1) / 2) }
        return shifted
    }
    static let offBeatShift: Float = 1

    // MARK: - Metre and downbeats

    /// Beats per bar (3 or 4) and the index of a downbeat, from the accent on each beat
    /// (kick and bass below 200 Hz plus the change of the coarse spectrum across the beat,
    /// as chords change at the bar line): the grouping and phase whose beats stand out most
    /// from the rest. In 4/4 the downbeat
    /// is then the phase with the best `downbeatWeights` score. Nil when no grouping stands
    /// out (`minContrast`) and the harmony does not place a 4/4 downbeat either
    /// (`harmonyMinContrast`).
    func bars(beats: [Int], low: [Float], mid: [Float], compound: Bool = false) -> (Int, Int)? {
        guard beats.count >= 12 else { return nil }
        // Spectral change at each beat: the mean coarse spectrum over the beat after it
        // against the beat before it (cosine distance); chords change on the bar line.
        let bands = OnsetStrength.bandCount
        func meanSpectrum(_ a: Int, _ b: Int) -> [Float] {
            var m = [Float](repeating: 0, count: bands)
            guard b > a else { return m }
            for j in a..<b { for q in 0..<bands { m[q] += spectra[j * bands + q] } }
            return m
        }
        // Cosine distance between the mean spectra of the `span` beats after each beat and the
        // `span` beats before it.
        func changes(span: Int) -> [Double] {
            var change = [Double](repeating: 0, count: beats.count)
            guard spectra.count >= envelope.count * bands else { return change }
            for k in beats.indices {
                let iv = k > 0 ? beats[k] - beats[k - 1] : beats[1] - beats[0]
                let a = k - span >= 0 ? beats[k - span] : max(0, beats[k] - span * iv)
                let b = k + span < beats.count ? beats[k + span] : min(envelope.count, beats[k] + span * iv)
                let previous = meanSpectrum(a, beats[k]), next = meanSpectrum(beats[k], b)
                var dot: Float = 0, na: Float = 0, nb: Float = 0
                for q in 0..<bands { dot += previous[q] * next[q]; na += previous[q] * previous[q]; nb += next[q] * next[q] }
                change[k] = na > 0 && nb > 0 ? Double(1 - dot / (na * nb).squareRoot()) : 0
            }
            return change
        }
        let change = changes(span: 1)
        let changeMean = max(1e-9, change.reduce(0, +) / Double(change.count))
        let lowAccents = beats.map { Double(strength(low, at: Double($0))) }
        let lowMean = max(1e-9, lowAccents.reduce(0, +) / Double(lowAccents.count))
        let accents = beats.indices.map { lowAccents[$0] / lowMean + Double(Self.barChangeWeight) * change[$0] / changeMean }
        let mean = accents.reduce(0, +) / Double(accents.count)
        guard mean > 0 else { return nil }
        var best: (contrast: Double, perBar: Int, phase: Int) = (-.infinity, 4, 0)
        var bestOf: [Int: Double] = [:]
        for perBar in [3, 4] {
            for phase in 0..<perBar {
                var on = 0.0, onCount = 0.0, off = 0.0, offCount = 0.0
                for (k, a) in accents.enumerated() {
                    if (k - phase) % perBar == 0 { on += a; onCount += 1 } else { off += a; offCount += 1 }
                }
                let contrast = (on / onCount - off / offCount) / mean
                bestOf[perBar] = max(bestOf[perBar] ?? -.infinity, contrast)
                if contrast > best.contrast { best = (contrast, perBar, phase) }
            }
        }
        lastBarContrast = (bestOf[3] ?? 0, bestOf[4] ?? 0)
        // The phase of a 4/4 bar with the largest mean of `values` on its first beat.
        func strongestPhase(_ values: [Double]) -> (phase: Int, mean: Double) {
            var best = (phase: 0, mean: -Double.infinity)
            for phase in 0..<4 {
                var on = 0.0, n = 0.0
                for (k, v) in values.enumerated() where (k - phase) % 4 == 0 { on += v; n += 1 }
                if n > 0 && on / n > best.mean { best = (phase, on / n) }
            }
            return best
        }
        if best.contrast >= Self.minContrast && best.perBar == 3 { return (3, best.phase) }
        // Chords change on the bar line: the half bars either side of a downbeat differ in
        // harmony, while the drums (kick and snare alternating beat by beat) are alike in both.
        let half = changes(span: 2)
        let halfMean = half.reduce(0, +) / Double(half.count)
        let ones = [Double](repeating: 1, count: beats.count)
        let chord = chroma?.changes(at: beats.map { frameTime($0) }, spans: [2, 4]) ?? [ones, ones]
        if best.contrast < Self.minContrast {
            // No accent pattern stands out (four on the floor): in 4/4 the harmony may.
            let harmony = max(
                halfMean > 0 ? strongestPhase(half).mean / halfMean - 1 : 0,
                strongestPhase(chord[1]).mean - 1)
            guard harmony >= Self.harmonyMinContrast else { return nil }
        }
        // The downbeat among the four: the phase with the highest score, a weighted sum of
        // per-beat cues averaged over the beats of that phase (`downbeatWeights`).
        func normalised(_ v: [Double]) -> [Double] {
            let m = v.reduce(0, +) / Double(max(1, v.count))
            return m > 0 ? v.map { $0 / m } : v.map { _ in 1 }
        }
        let cues: [[Double]] = [
            lowAccents.map { $0 / lowMean },
            normalised(beats.map { Double(strength(mid, at: Double($0))) }),
            normalised(change),
            normalised(half),
            normalised(changes(span: 3)),
            normalised(changes(span: 4)),
            chord[0],
            chord[1],
        ]
        var score = [Double](repeating: 0, count: 4), count = [Double](repeating: 0, count: 4)
        for k in beats.indices {
            var v = 0.0
            for (w, cue) in zip(Self.downbeatWeights, cues) { v += w * cue[k] }
            score[k % 4] += v
            count[k % 4] += 1
        }
        var phase = 0
        for p in 1..<4 where score[p] / max(1, count[p]) > score[phase] / max(1, count[phase]) { phase = p }
        return (4, phase)
    }
    /// (best 3-beat contrast, best 4-beat contrast) of the last metre decision, for tuning.
    public private(set) var lastBarContrast = (0.0, 0.0)
    /// Weight of the spectral change against the low-band accent.
    static let barChangeWeight: Float = 1
    /// Weights of the 4/4 downbeat score, per cue (each divided by its mean over the beats):
    /// low-band accent (kick, bass), mid-band accent (the backbeat snare: negative), change
    /// of the coarse spectrum across 1, 2, 3 and 4 beats either side, and the change of the
    /// chroma across 2 and 4 beats either side (`ChromaStream`: the chord change on the bar
    /// line, which repeating drums do not blur). Fitted as a multinomial logit over the four
    /// phases on the public tempo set's 76 tracks in four (L2 0.1); left out one at a time,
    /// 75 of 76 phases right, against 68 for the previous rule (low accent + 1.4 × the
    /// half-bar change), which put a shuffle's downbeat on beat 2 and a one-drop's on 2 or 3.
    static let downbeatWeights: [Double] = [2.38, -1.27, -1.26, -0.53, 2.17, 1.97, 1.57, 2.26]
    static let minContrast = 0.15
    /// Least contrast of the harmonic change across half bars, or of the chroma change across
    /// bars (on-phase mean over the mean − 1), that places a 4/4 downbeat where no accent
    /// pattern stands out.
    static let harmonyMinContrast = 0.1

    // MARK: - Intro trimming and segments

    /// Drops leading beats before the first displayed tempo whose onsets are weak (quiet intros).
    private func trimLeading(_ beats: [Int], o: [Float]) -> [Int] {
        guard let firstShown = updates.first(where: { $0.display != nil })?.time else { return [] }
        let strengths = beats.map { strength(o, at: Double($0)) }
        let locked = zip(beats, strengths).filter { frameTime($0.0) >= firstShown }.map { $0.1 }.sorted()
        guard !locked.isEmpty else { return beats }
        let typical = locked[locked.count / 2]
        // Walk back from the first beat heard by a display, keeping beats while the
        // average of the next few stays strong.
        var first = beats.firstIndex(where: { frameTime($0) >= firstShown - Self.hearing }) ?? 0
        while first > 0 {
            let window = strengths[max(0, first - 3)..<first]
            let mean = window.reduce(0, +) / Float(window.count)
            if mean < 0.4 * typical { break }
            first -= 1
        }
        // And forward over weak beats at the very start.
        while first < beats.count - 4 {
            let window = strengths[first..<(first + 3)]
            if window.reduce(0, +) / 3 >= 0.4 * typical { break }
            first += 1
        }
        return Array(beats[first...])
    }

    /// Tempo segments from the beat intervals: a running median of 8 intervals, split where
    /// it moves by more than 7 % and stays there (a drift of a few % is one segment).
    private func segments(beats: [Int], factor: Double, duration: Double) -> [TempoSegment] {
        guard beats.count >= 4 else { return [] }
        let times = beats.map { frameTime($0) }
        var local: [Double] = []
        for k in 1..<times.count {
            let lo = max(1, k - 4), hi = min(times.count - 1, k + 4)
            var iv = (lo...hi).map { times[$0] - times[$0 - 1] }
            iv.sort()
            local.append(60 / iv[iv.count / 2])
        }
        var segs: [TempoSegment] = []
        var start = 0
        for k in 1..<local.count where abs(local[k] - local[start]) > 0.07 * local[start] {
            // A change only when the next 8 intervals agree with the new value.
            let ahead = local[k..<min(local.count, k + 8)]
            if ahead.count >= 6 && ahead.allSatisfy({ abs($0 - local[k]) <= 0.03 * local[k] }) && times[k] - times[start] >= 4 {
                segs.append(TempoSegment(start: times[start], end: times[k], bpm: 0))
                start = k
            }
        }
        segs.append(TempoSegment(start: times[start], end: times[times.count - 1], bpm: 0))
        // Each segment's tempo: its beats' count over its span (least squares slope).
        for s in segs.indices {
            let inside = times.filter { $0 >= segs[s].start - 1e-9 && $0 <= segs[s].end + 1e-9 }
            segs[s].bpm = Self.slopeBPM(inside)
        }
        return segs
    }

    /// Time-weighted median of the displayed tempo (folded level) over updates in [lo, hi],
    /// only values within 8 % of `near` when given.
    func displayMedian(from lo: Double, to hi: Double, near: Double?) -> Double? {
        var spans: [(bpm: Double, seconds: Double)] = []
        for (i, u) in updates.enumerated() where u.time >= lo && u.time <= hi {
            guard let d = u.display else { continue }
            if let near, abs(d.bpm - near) > 0.08 * near { continue }
            let end = i + 1 < updates.count ? updates[i + 1].time : tracker.time
            spans.append((d.bpm, max(0, end - u.time)))
        }
        let total = spans.reduce(0) { $0 + $1.seconds }
        guard total > 0 else { return nil }
        spans.sort { $0.bpm < $1.bpm }
        var acc = 0.0
        for s in spans {
            acc += s.seconds
            if acc >= total / 2 { return s.bpm }
        }
        return spans.last?.bpm
    }

    /// BPM of a beat sequence by a least-squares line through (index, time).
    static func slopeBPM(_ times: [Double]) -> Double {
        let n = Double(times.count)
        guard times.count >= 2 else { return 0 }
        let meanK = (n - 1) / 2, meanT = times.reduce(0, +) / n
        var num = 0.0, den = 0.0
        for (k, t) in times.enumerated() { num += (Double(k) - meanK) * (t - meanT); den += (Double(k) - meanK) * (Double(k) - meanK) }
        return num > 0 ? 60 / (num / den) : 0
    }
}
