import SpecvizCore

#if canImport(Glibc)
import Glibc
#endif

// The causal metrical level and the off-beat audit, from the predicted beats on the band rings.
extension TempoTracker {
    /// Mean-removed, deviation-scaled, half-wave rectified value of a band ring at frame `i`.
    @inline(__always)
    private func bandValue(_ r: UnsafeMutablePointer<Float>, _ i: Int, mean: Float, sd: Float) -> Float {
        guard i >= 0, i < framesIn, i > framesIn - capacity else { return 0 }
        return max(0, r[i % capacity] - mean) / sd
    }

    /// Grid features of the predicted beats in the history (or of `beats`, when given) on one
    /// band ring, as `BeatAnalyzer`'s (`GridFeatures`); nil with fewer than `minGridBeats` beats.
    private func gridFeatures(_ r: UnsafeMutablePointer<Float>, from first: Int = 0, every: Int = 1, parity: Int = 0, beats: [Double]? = nil)
        -> GridFeatures?
    {
        gridFeaturesAndGroups(r, from: first, every: every, parity: parity, beats: beats)?.features
    }

    /// `gridFeatures`, and the accent contrast of the best grouping of the beats in twos and
    /// in threes (mean of the accented beats over the mean of all, minus 1).
    private func gridFeaturesAndGroups(_ r: UnsafeMutablePointer<Float>, from first: Int = 0, every: Int = 1, parity: Int = 0, beats: [Double]? = nil)
        -> (features: GridFeatures, twos: Double, threes: Double)?
    {
        let stats = bandStats(r)
        func strength(_ x: Double) -> Float { bandStrength(r, at: x, stats) }
        var on: Float = 0, mid: Float = 0, third: Float = 0, quarter: Float = 0, even: Float = 0, odd: Float = 0
        var count = 0, evenCount: Float = 0, oddCount: Float = 0, pairs: Float = 0
        var previous: Double?
        var byThree: (Float, Float, Float) = (0, 0, 0)
        var index = 0
        func visit(_ f: Double) {
            index += 1
            guard (index - 1) % every == parity else { return }
            let s = strength(f)
            on += s
            switch count % 3 {
            case 0: byThree.0 += s;
            case 1: byThree.1 += s;
            default: byThree.2 += s
            }
            if count % 2 == 0 { even += s; evenCount += 1 } else { odd += s; oddCount += 1 }
            count += 1
            if let p = previous {
                mid += strength((p + f) / 2)
                third += 0.5 * (strength(p + (f - p) / 3) + strength(p + 2 * (f - p) / 3))
                quarter += 0.5 * (strength(p + (f - p) / 4) + strength(p + 3 * (f - p) / 4))
                pairs += 1
            }
            previous = f
        }
        if let beats { beats.forEach(visit) } else { forEachHeardBeat(from: first, visit) }
        guard count >= Self.minGridBeats, pairs > 0 else { return nil }
        let onMean = max(on / Float(count), 1e-6)
        let e = even / max(1, evenCount), d = odd / max(1, oddCount)
        let twos = Double(max(e, d) / onMean) - 1
        let thirds = Float(count) / 3
        let threes = Double(max(byThree.0, byThree.1, byThree.2) / max(thirds, 1) / onMean) - 1
        let features = GridFeatures(
            mid: Double(mid / pairs / onMean), alternation: Double(min(e, d) / max(max(e, d), 1e-6)),
            triplet: Double(third / pairs / onMean), quarter: Double(quarter / pairs / onMean))
        return (features, twos, threes)
    }

    /// Predicted beats in the history the grid features need. With 6 instead of 8 a 174 BPM
    /// drumless waltz, first shown at 87, gets its level 2.5 s sooner (public tempo set:
    /// display correct on waltz_nodrums 92 → 95 %, causal beat F 0.838 → 0.844, nothing else
    /// moved). 4 scored higher still (F 0.853), but only through a few tracks whose beat
    /// phase happened to move with the level; 6 keeps three beats each for the comparison of
    /// alternate beats.
    static let minGridBeats = 6

    /// The causal metrical level, once per tempo update: a forward filter over the levels ½, 1
    /// and 2 × the displayed (folded) tempo, whose observations are the live level model's
    /// probabilities (`LevelModel`, fitted on the live grid features of 8 s histories) for the
    /// predicted beats heard since the level last changed. Each update the belief leaks
    /// `levelLeak` towards the other levels (a groove may change), is multiplied by the
    /// model's probabilities (vetoes set one to 0) and normalised; the level changes when
    /// another level's belief passes `levelSure`. A confident model moves in one or two
    /// updates, a wavering one never: the three agreeing votes of the rules this replaces
    /// moved as fast on a weak reading as on a strong one, and a level that changes mid-track
    /// costs the beats between the two grids. At a doubled level the folded grid (every other
    /// beat, `undoDoubling`) is read the same way; half the tempo is kept until the tempo moves.
    func updateLevel() {
        guard let shown = filter.display else {
            level = 1
            levelBelief = Self.startBelief
            return
        }
        if level == 2 { undoDoubling(shown.bpm); return }
        guard level == 1 else { return }
        // The beats since the grid last moved (a phase shift or a new level): a window that spans
        // a shift holds intervals of one and a half beats, which read as another level.
        let back = gridSinceItMoved(period: 60 * frameRate / shown.bpm)
        guard let b = gridFeatures(broadRing.base, from: auditFrom, beats: back),
            let low = gridFeaturesAndGroups(lowRing.base, from: auditFrom, beats: back),
            let m = gridFeatures(midRing.base, from: auditFrom, beats: back)
        else { return }
        var p = readLevel(tempo: shown.bpm, broad: b, low: low, mid: m)
        if 2 * shown.bpm <= BeatAnalyzer.fastestBeatOfThree && isHalfABarOfThree(doubled: false) == true {
            p = Self.halfABarOfThree
        }
        observeLevel(p)
        let k = levelBelief[0] > levelBelief[2] ? 0 : 2
        guard levelBelief[k] > Self.levelSure else { return }
        level = LevelModel.factors[k]
        nextBeatFrame = nil
        auditFrom = framesIn
    }

    /// Once the grid has moved (`auditFrom`: the off-beat audit shifted it half a beat, or the
    /// level changed) and fewer than `minGridBeats` predicted beats have been heard since, the
    /// grid of the next beat carried back over the history (`gridBack`), which the level is read
    /// on instead: the beats heard before the move lie on the other grid, and waiting for six
    /// new ones left the level unread for seconds after every move. nil otherwise (enough beats
    /// since the move, or too few heard at all: at the display's start the level waits for its
    /// own beats, as before).
    private func gridSinceItMoved(period: Double) -> [Double]? {
        guard let next = nextBeatFrame else { return nil }
        var heard = 0, since = 0
        forEachHeardBeat { f in
            heard += 1
            if f >= Double(auditFrom) { since += 1 }
        }
        let oldest = Double(max(0, framesIn - capacity + 2)), newest = Double(framesIn - 2)
        guard heard >= Self.minGridBeats, since < Self.minGridBeats, oldest < newest else { return nil }
        return gridBack(next: next, period: period, over: oldest...newest)
    }

    /// The live model's P(½), P(1), P(2) for a folded grid, the vetoes applied (at the folded
    /// level `keepsLevel`, at both `halfBeatsSubdivide`); kept in `levelReadings` when
    /// `recordsLevel` (tempo --json --causal).
    private func readLevel(tempo: Double, broad b: GridFeatures, low: (features: GridFeatures, twos: Double, threes: Double), mid m: GridFeatures)
        -> SIMD3<Double>
    {
        LevelModel.features(into: &levelInputs, tempo: tempo, broad: b, low: low.features, mid: m)
        var p = LevelModel.posterior(levelInputs, fit: .live)
        if level == 1 && Self.keepsLevel(broad: b, threes: low.threes, twos: low.twos) { p[0] = 0 }
        if Self.halfBeatsSubdivide(broad: b, threes: low.threes) { p[2] = 0 }
        if recordsLevel {
            levelReadings.append(
                LevelReading(time: time, tempo: tempo, level: level, inputs: levelInputs, probabilities: [p[0], p[1], p[2]]))
        }
        return p
    }

    /// Whether the folded beat is half a bar of three: the grid twice the folded beat (the heard
    /// beats since the grid last moved with their midpoints at the folded level, the heard
    /// beats themselves at a `doubled` one) falls in bars of three whose bar lines come in turn
    /// on the folded beats and half-way between (`BeatAnalyzer.barLinesAlternate` on the low
    /// band); nil (no verdict) over fewer than `metreGridBeats` points. The level model does
    /// not see the metre, and its tempo prior lets it double no folded beat above
    /// `LevelModel.doubleUpTo`: a drum-less waltz at 187 was shown at 93.5 to the end.
    private func isHalfABarOfThree(doubled: Bool) -> Bool? {
        let stats = bandStats(lowRing.base)
        var accents: [Double] = []
        var previous: Double?
        forEachHeardBeat(from: auditFrom) { f in
            if !doubled, let p = previous { accents.append(Double(bandStrength(lowRing.base, at: (p + f) / 2, stats))) }
            accents.append(Double(bandStrength(lowRing.base, at: f, stats)))
            previous = f
        }
        return accents.count >= Self.metreGridBeats ? BeatAnalyzer.barLinesAlternate(accents) : nil
    }
    /// Least points of the grid twice the folded beat that the live metre is read on (2½ bars
    /// of 4/4's eighths). Hip-hop's syncopated kicks (3 + 3 + 2 eighths) grouped in three with
    /// alternating bar lines over 13–17 points on two tracks of the development copies, never
    /// over 19 or more; the fast waltzes did over 20–25 from 10–13 s on.
    static let metreGridBeats = 20
    /// The level filter's observation where the folded beat is half a bar of three (P(½), P(1),
    /// P(2)): in place of the level model's, which cannot double it. Three in a row double it.
    static let halfABarOfThree = SIMD3<Double>(0, 0.1, 0.9)

    /// One step of the level filter: leak, observe, normalise (back to the start when every
    /// level is ruled out).
    func observeLevel(_ p: SIMD3<Double>) {
        let total = levelBelief[0] + levelBelief[1] + levelBelief[2]
        let predicted = levelBelief * (1 - 1.5 * Self.levelLeak) + SIMD3(repeating: total * Self.levelLeak / 2)
        let posterior = predicted * p
        let sum = posterior[0] + posterior[1] + posterior[2]
        levelBelief = sum > 0 ? posterior / sum : Self.startBelief
    }

    /// The belief before any reading: the folded level, the others not ruled out.
    static let startBelief = SIMD3<Double>(0.05, 0.9, 0.05)
    /// The share of belief that moves to each other level per update (the filter's transition
    /// probability). 0.3 % and 1 % gave the same causal beat F on the development sets (dev3
    /// 0.911 and 0.910, dev4 0.899 and 0.898); 1 % lets a level ruled out come back within a
    /// few updates of clear evidence.
    static let levelLeak = 0.01
    /// The belief at which the level changes. 0.8 and 0.9 scored alike (causal beat F: dev3
    /// 0.910 both, dev4 0.899 and 0.898; the real development recordings real-dev 0.726 and
    /// 0.730, real-dev4 0.740 and 0.738); the surer keeps a real recording, scored at any
    /// level, from changing level mid-track on a passing reading.
    static let levelSure = 0.9

    /// Vetoes on half the displayed tempo, read on the 8 s history (the model reads one reading
    /// at a time; these read what it does not, the grouping of the kicks):
    /// - kicks grouped in threes (a waltz): the contrast of the best grouping in threes beyond
    ///   `threesOverTwos` × that in twos. By chance alone the best of three groups of n/3
    ///   beats stands out about 1.8 × as far as the best of two groups of n/2 (the expected
    ///   maximum of 3 and of 2 normal means: 0.85 σ·√(3/n) against 0.56 σ·√(2/n)), so a
    ///   plain "threes > twos" vetoed 4/4 grooves whose kicks are syncopated (a ballad shown
    ///   at twice its 59 BPM kept twice its beats for 17 s). Where nothing sounds half-way
    ///   between the beats (`b.mid` < `alikeNeedsMid`: they may be the eighths of a slower
    ///   beat), the grouping must also read as a bar of three (`threes` ≥ `barOfThree`): over
    ///   the first 6–9 beats a one-drop shown at twice its tempo holds one accent (its bar is 8
    ///   shown beats), and one accent alone puts threes at twice twos by the groups' sizes (one
    ///   group of n/3 holds it, against one of n/2). Development and training sets, level
    ///   readings at the folded level: the waltzes read 1.9–2.0 when the model asked for ½; the
    ///   one-drops and ballads this veto kept from their half tempo 0.3–1.7, most below 1.4, for
    ///   their first 4–8 s. A busy grid keeps the veto as it was: a rock track at 145 and a
    ///   syncopated funk at 116 (b.mid 0.27–0.68), which the model would halve, read threes at
    ///   twice twos by chance;
    /// - alternate beats alike in the full band (a stride piano's bass and chord, a waltz),
    ///   when something sounds half-way between them (`b.mid` ≥ `alikeNeedsMid`): with nothing
    ///   there the beats are the eighths of a slower beat whose low band alternates (a one-drop
    ///   at 67.5 BPM shown at 135: a chop on every eighth, the full band alike, the bass and
    ///   kick on alternate ones). The development sets' live b.mid: ≤ 0.05 on such grids,
    ///   0.21–0.30 on stride piano at its own tempo;
    /// - a bare pulse with nothing at all at its half- and third-beats (a metronome, a click
    ///   track): there is nothing to hear at half the rate.
    static func keepsLevel(broad b: GridFeatures, threes: Double, twos: Double) -> Bool {
        let halfWay = b.mid >= alikeNeedsMid
        let grouped = threes > threesOverTwos * twos && (threes >= barOfThree || halfWay)
        return grouped || (b.alternation >= 0.8 && halfWay) || b.mid + b.triplet < 0.01
    }
    static let threesOverTwos = 2.0
    static let alikeNeedsMid = 0.1

    /// Whether the half-beats of a slow folded grid are its subdivision, not beats: the offline
    /// check (`BeatAnalyzer.halfBeatsSubdivide`: half-beats weaker than the beats, nothing a
    /// quarter of the way between them), unless the low band marks one folded beat in three
    /// (`threes` ≥ `barOfThree`). Then the grid is a bar of three beats folded into two, whose
    /// half-beats are beats: over its first seconds a drumless waltz at 180 reads 0.69–0.89
    /// half-way and 0.03 at the quarter-beats, as a one-drop's eighths do (0.77–0.90, 0.02–0.08),
    /// but its bass note falls on one folded beat in three (1.96; one-drops 0.44–0.85).
    static func halfBeatsSubdivide(broad b: GridFeatures, threes: Double) -> Bool {
        BeatAnalyzer.halfBeatsSubdivide(b) && threes < barOfThree
    }
    /// The low band's contrast of one folded beat in three (3 × its share of the beats' low-band
    /// flux − 1; 2 = all of it) from which the grid is read as a bar of three.
    static let barOfThree = 1.5

    /// While doubled, the folded grid (every other predicted beat since the level changed,
    /// the parity whose broadband onsets are stronger) is read by the same model, the
    /// subdivision veto included (a one-drop doubled early on stays doubled without it); when
    /// the folded level's belief (with ½'s) passes `levelSure`, the doubling is undone. The
    /// first seconds decide a doubling, and they may not be the track's: a hip-hop groove at
    /// 84 read 1.77 at its low band's half-beats over its first 7 s (0.37 over the whole
    /// track) and was shown at 168 to the end.
    func undoDoubling(_ bpm: Double) {
        let broad = bandStats(broadRing.base)
        var sums = SIMD2<Float>(0, 0)
        var index = 0
        forEachHeardBeat(from: auditFrom) { f in
            sums[index % 2] += bandStrength(broadRing.base, at: f, broad)
            index += 1
        }
        let parity = sums[1] > sums[0] ? 1 : 0
        guard let b = gridFeatures(broadRing.base, from: auditFrom, every: 2, parity: parity),
            let low = gridFeaturesAndGroups(lowRing.base, from: auditFrom, every: 2, parity: parity),
            let m = gridFeatures(midRing.base, from: auditFrom, every: 2, parity: parity)
        else { return }
        var p = readLevel(tempo: bpm, broad: b, low: low, mid: m)
        // Past the tempo prior the model's reading rules twice this beat out whatever it hears:
        // a bar of three speaks for it, and until the metre has a verdict (the first beats after
        // the doubling) nothing is read.
        switch isHalfABarOfThree(doubled: true) {
        case true?: p = Self.halfABarOfThree
        case nil where bpm > LevelModel.doubleUpTo: return
        default: break
        }
        observeLevel(p)
        guard levelBelief[0] + levelBelief[1] > Self.levelSure else { return }
        level = 1
        nextBeatFrame = nil
        forgetGrid()
    }

    /// The largest relative change of the displayed tempo that keeps the metrical level.
    static let levelKeeps = 0.05

    /// The off-beat audit, once per tempo update. The predicted beats are on the off-beat when
    /// - on a doubled grid (level 2), their half-beats carry more mid-band and broadband flux
    ///   (snare, cymbals) than the beats themselves (`BeatAnalyzer.snareOnTheBeat`, causally:
    ///   drum & bass, whose syncopated kicks the low band follows), or
    /// - at the folded level or half of it, the offline phase evidence says so (`beatsOffTheBeat`: house whose
    ///   off-beat bass and hats outweigh the kick, funk with syncopated kicks and bass).
    /// After `offBeatUpdates` such audits in a row the phase moves by half a beat.
    func auditOffBeat() {
        guard let shown = filter.display, let next = nextBeatFrame else { offBeatVotes = 0; halfShift = 0; return }
        // A doubled grid's kicks may fall between its beats (drum & bass): there the snares decide.
        let period = 60 * frameRate / (shown.bpm * level)
        let off = level == 2 ? (halfBeatRatio() ?? 0) > 1 : beatsOffTheBeat(next: next, period: period) == true
        guard off, !reviewHolds else { offBeatVotes = 0; return }
        offBeatVotes += 1
        guard offBeatVotes >= Self.offBeatUpdates else { return }
        offBeatVotes = 0
        nextBeatFrame = next + 0.5 * period
        halfShift = halfShift == 0 ? 0.5 : 0
        // Beats already announced stay; the history's beats must not vote again.
        auditFrom = framesIn
    }
    static let offBeatUpdates = 2

    /// (mid + broad at the half-beats) ÷ (mid + broad at the predicted beats) over the
    /// history since `auditFrom`; nil with fewer than `minGridBeats` beats.
    private func halfBeatRatio() -> Float? {
        let mid = bandStats(midRing.base), broad = bandStats(broadRing.base)
        // A triangle two frames wide each side: a half-beat position falls between frames,
        // and rounding it would read half-beats half a frame late and beats on time (a click
        // fills one ~23 ms frame).
        func strength(_ x: Double) -> Float {
            var s: Float = 0
            for j in Int((x - 2).rounded(.up))...Int((x + 2).rounded(.down)) {
                let w = Float(1 - abs(Double(j) - x) / 2)
                s += w * (bandValue(midRing.base, j, mean: mid.mean, sd: mid.sd) + bandValue(broadRing.base, j, mean: broad.mean, sd: broad.sd))
            }
            return s
        }
        var on: Float = 0, off: Float = 0, count = 0
        var previous: Double?
        forEachHeardBeat(from: auditFrom) { f in
            on += strength(f)
            if let p = previous { off += strength((p + f) / 2) }
            count += 1
            previous = f
        }
        guard count >= Self.minGridBeats, on > 0 else { return nil }
        return off * Float(count) / Float(count - 1) / on
    }

    /// Mean and deviation of a band ring over the history.
    private func bandStats(_ r: UnsafeMutablePointer<Float>) -> (mean: Float, sd: Float) {
        let n = min(framesIn, capacity)
        var mean: Float = 0, m2: Float = 0
        for k in 0..<n { let v = r[(framesIn - 1 - k) % capacity]; mean += v; m2 += v * v }
        return (mean / Float(n), Self.deviation(mean, m2, Float(n)))
    }

    /// `bandValue` summed over ±1 frame of frame x: at ~43 frames/s a hit's flux splits
    /// between two frames depending on where it falls, which a max would read as an accent
    /// pattern.
    private func bandStrength(_ r: UnsafeMutablePointer<Float>, at x: Double, _ s: (mean: Float, sd: Float)) -> Float {
        let i = Int(x.rounded())
        return bandValue(r, i - 1, mean: s.mean, sd: s.sd) + bandValue(r, i, mean: s.mean, sd: s.sd) + bandValue(r, i + 1, mean: s.mean, sd: s.sd)
    }
}

/// One reading of the live level model (`TempoTracker.recordsLevel`): what the fit of its
/// weights learns from (`eval/tempo/level/fit_level.py --live`).
public struct LevelReading: Equatable, Sendable {
    /// Media time (s) of the update.
    public var time: Double
    /// The folded tempo the grid was read at (BPM).
    public var tempo: Double
    /// The level shown when it was read (2: the folded grid of a doubled one).
    public var level: Double
    /// The model's inputs (`LevelModel.features`).
    public var inputs: [Double]
    /// P(½), P(1), P(2), vetoes applied.
    public var probabilities: [Double]
}
