import SpecvizCore

#if canImport(Glibc)
import Glibc
#endif

// Beat tracking, step 3: the metrical level (½, 1 or 2 × the folded beat).

/// Level features of a beat grid on one band, each relative to the mean on the beats.
struct GridFeatures {
    /// Half-way between beats.
    var mid: Double
    /// The weaker over the stronger of alternate beats (1 = alike).
    var alternation: Double
    /// A third and two thirds of the way between beats.
    var triplet: Double
    /// A quarter and three quarters of the way between beats.
    var quarter: Double
}
extension BeatAnalyzer {
    /// Envelope value near frame position `x` (max within ±`reach` frames).
    func strength(_ o: [Float], at x: Double, reach: Int = 1) -> Float {
        let i = Int(x.rounded())
        var m: Float = 0
        for k in max(0, i - reach)...min(o.count - 1, i + reach) { m = max(m, o[k]) }
        return m
    }

    /// Level features of a beat grid on one envelope (see `GridFeatures`).
    private func gridFeatures(_ o: [Float], beats: [Int]) -> GridFeatures {
        var on: Float = 0, mid: Float = 0, third: Float = 0, quarter: Float = 0, even: Float = 0, odd: Float = 0
        var evenCount: Float = 0, oddCount: Float = 0
        for k in 0..<beats.count {
            let s = strength(o, at: Double(beats[k]))
            on += s
            if k % 2 == 0 { even += s; evenCount += 1 } else { odd += s; oddCount += 1 }
            if k + 1 < beats.count {
                let a = Double(beats[k]), b = Double(beats[k + 1])
                mid += strength(o, at: (a + b) / 2)
                third += 0.5 * (strength(o, at: a + (b - a) / 3) + strength(o, at: a + 2 * (b - a) / 3))
                quarter += 0.5 * (strength(o, at: a + (b - a) / 4) + strength(o, at: a + 3 * (b - a) / 4))
            }
        }
        let onMean = max(on / Float(beats.count), 1e-6)
        let pairs = Float(max(1, beats.count - 1))
        let e = even / max(1, evenCount), d = odd / max(1, oddCount)
        return GridFeatures(
            mid: Double(mid / pairs / onMean), alternation: Double(min(e, d) / max(max(e, d), 1e-6)),
            triplet: Double(third / pairs / onMean), quarter: Double(quarter / pairs / onMean))
    }

    /// ½, 1 or 2: the ratio of the tapped beat to the folded grid `beats` at `tempo` BPM (the
    /// likeliest level of `LevelModel`), its inputs and probabilities, and the grid's broadband
    /// features (which also tell a compound metre).
    func chooseLevel(broad: [Float], low: [Float], mid: [Float], beats: [Int], tempo: Double)
        -> (factor: Double, broad: GridFeatures, inputs: [Double], probabilities: [Double])
    {
        let b = gridFeatures(broad, beats: beats), l = gridFeatures(low, beats: beats), m = gridFeatures(mid, beats: beats)
        let x = LevelModel.features(tempo: tempo, broad: b, low: l, mid: m)
        let p = LevelModel.probabilities(x)
        return (LevelModel.factors[LevelModel.likeliest(p)], b, x, p)
    }

    /// `factor` (the level model's), or the level the metre asks for: a tapped beat divides the
    /// bar. Where the grid at twice the chosen beat falls in bars of three (`halvesBarsOfThree`),
    /// the chosen beat, two of those, is half a bar of three and no metrical level: the faster
    /// one is the beat (a drum-less waltz at 187 read at 93.5, past the tempo prior's
    /// `LevelModel.fastestBeat`). Twice the folded `grid` is the grid with its midpoints; not
    /// beyond `fastestBeatOfThree` BPM.
    func levelDividingTheBar(_ factor: Double, grid: [Int], low: [Float], tempo: Double) -> Double {
        guard grid.count >= 2 else { return factor }
        if factor == 0.5 { return halvesBarsOfThree(grid, low: low) ? 1 : factor }
        guard factor == 1, 2 * tempo <= Self.fastestBeatOfThree else { return factor }
        var doubled: [Int] = []
        doubled.reserveCapacity(2 * grid.count)
        for k in grid.indices {
            doubled.append(grid[k])
            if k + 1 < grid.count { doubled.append((grid[k] + grid[k + 1] + 1) / 2) }
        }
        return halvesBarsOfThree(doubled, low: low) ? 2 : factor
    }
    /// The fastest tapped beat the metre may ask for (BPM).
    static let fastestBeatOfThree = 240.0

    /// The candidates at the tapped level where one level does not fit every tempo of the track:
    /// `folded` times `factor`, but halved (doubled) through each tempo segment of the folded
    /// `grid` that `factor` would take faster (slower) than a tapped beat can be
    /// (`LevelModel.fastestBeat`, `slowestBeat`). A funk at 91 BPM doubled by its sixteenths is
    /// not doubled where it speeds up to 122: 244 is no beat. Nil when `factor` fits them all.
    func tappable(_ folded: [[Float]], grid: [Int], factor: Double, duration: Double) -> [[Float]]? {
        let segments = Self.mergedSegments(segments(beats: grid, factor: 1, duration: duration))
        guard segments.count >= 2 else { return nil }
        let factors = segments.map { seg -> Double in
            var f = factor
            while seg.bpm * f > LevelModel.fastestBeat && f > 0.5 { f /= 2 }
            while seg.bpm > 0 && seg.bpm * f < LevelModel.slowestBeat && f < 2 { f *= 2 }
            return f
        }
        guard factors.contains(where: { $0 != factor }) else { return nil }
        var k = 0
        return folded.indices.map { j in
            let t = frameTime(j)
            while k + 1 < segments.count && t >= segments[k].end { k += 1 }
            let f = Float(factors[k])
            return folded[j].map { $0 * f }
        }
    }

    /// Whether the half-beats of a slow folded grid are its subdivision rather than beats: weaker
    /// than the beats (`mid` < `equalHalfBeat`) and with nothing below them, a quarter of the
    /// way between beats (`quarter` < `subdivision`), where a doubled beat would have its own
    /// half-beats (hats, eighth notes). Then the folded beat is the beat, however much sounds
    /// half-way (a slow groove whose chords or organ fill the eighths): the live level rules out
    /// twice the beat (`TempoTracker.readLevel`). Half-beats as strong as the beats are beats themselves (a
    /// drumless waltz at 180, every beat a note, nothing between). Live, the first seconds of
    /// history read that waltz's half-beats weaker (0.69 at 6 s, 1.0 at 12 s), as a slow groove's:
    /// there `TempoTracker.halfBeatsSubdivide` also asks the low band whether the grid is a bar
    /// of three folded into two.
    static func halfBeatsSubdivide(_ b: GridFeatures) -> Bool {
        b.mid < equalHalfBeat && b.quarter < subdivision
    }
    /// Broadband flux a quarter of the way between the folded beats, relative to on them, that
    /// a doubling needs: not nothing at all. Development sets: 0.14–1.0 on every track shown
    /// at half its beat (a drumless waltz at 176 lowest: its melody's notes are few between
    /// its beats), 0.02–0.05 on the slow 4/4 grooves the level rules doubled wrongly whose
    /// half-beats were their eighths (a song's, 0.15, and a funk's, 0.66, stay doubled).
    static let subdivision = 0.1
    /// Broadband flux half-way between the folded beats, relative to on them, from which the
    /// half-beats are beats in their own right, whatever lies between (development sets: 0.61–0.85
    /// on the slow grooves above; 0.95 on a drumless waltz at 180 whose notes fall on its beats only).
    static let equalHalfBeat = 0.9
    /// Weights of the broadband, low-band (< 200 Hz) and mid-band (200 Hz – 3 kHz) envelopes
    /// in the tracking signal: hi-hats and rides, loud in broadband flux, sit on the
    /// off-beats of most dance styles, kicks and snares on the beats.
    static let mix: [Float] = [0, 1, 1]

    /// A doubled (fast) grid whose half-beats carry more mid band and broadband flux (snare,
    /// cymbals) than its beats is on the off-beat (drum & bass: kicks and bass syncopated,
    /// which the low band follows): shift it by half a beat.
    func snareOnTheBeat(_ beats: [Int], mid: [Float], broad: [Float]) -> [Int] {
        guard beats.count >= 8 else { return beats }
        var on: Float = 0, off: Float = 0
        for k in 0..<(beats.count - 1) {
            on += strength(mid, at: Double(beats[k])) + strength(broad, at: Double(beats[k]))
            let half = Double(beats[k] + beats[k + 1]) / 2
            off += strength(mid, at: half) + strength(broad, at: half)
        }
        guard off > Self.offBeatShift * on else { return beats }
        return Self.halfBeatLater(beats, frames: mid.count)
    }
    static let offBeatShift: Float = 1

    /// The grid moved half a beat later: the midpoints of its neighbouring beats, and half
    /// the last interval after the last beat when that is still within the `frames` heard.
    static func halfBeatLater(_ beats: [Int], frames: Int) -> [Int] {
        guard beats.count >= 2 else { return [] }
        var moved: [Int] = (0..<(beats.count - 1)).map { (beats[$0] + beats[$0 + 1] + 1) / 2 }
        let last = beats[beats.count - 1], interval = last - beats[beats.count - 2]
        let after = last + (interval + 1) / 2
        if after < frames { moved.append(after) }
        return moved
    }
}
