#if canImport(Glibc)
import Glibc
#endif

/// The low band's percussive onsets: a kick, not a bass note (issue 37).
///
/// Below 200 Hz a kick and a bass note both bring new energy, and in house the bass on
/// every off-beat can carry as much of it as the kick on the beat, so the low band's flux
/// alone cannot tell where the beat is. What tells them apart is the shape in time: a kick
/// is a vertical event whose low-band energy has mostly gone ~50 ms later (a fast decay,
/// its pitch sweeping down out of the band); a bass note is a horizontal line that
/// sustains. This is the time half of median-filter harmonic/percussive separation
/// (Fitzgerald 2010) at the cost of a few comparisons per frame. With E[n] the band's
/// summed magnitude,
///
///     peak[n]  = max(E[n], E[n+1])
///     rise[n]  = max(0, peak[n] − max(E[n−3], E[n−2], E[n−1]))      new energy
///     decay[n] = clamp(1 − max(E[n+4] … E[n+7]) / peak[n], 0, 1)      gone ~50 ms later
///     kick[n]  = log(1 + 10 · rise[n] · decay[n])
///
/// Maxima over several frames, because a ~23 ms window holds barely one period of a
/// 40–80 Hz bass: a held note's level flickers from frame to frame with its phase, which a
/// frame-to-frame flux reads as onsets and a single later frame as a decay. Offline only:
/// it reads ~90 ms ahead.
enum PercussiveLow {
    /// Frames before the onset whose level the new energy must exceed (~35 ms at ~86 frames/s).
    static let before = 3
    /// First frame after the onset at which the decay is read (~46 ms), and how many (~46 ms).
    static let horizon = 4
    static let span = 4

    /// The percussive low-band envelope from `level[n]`, the band's summed magnitude per
    /// envelope frame (`OnsetStrength.lastLowLevel`), log-compressed like the onset flux.
    static func envelope(level: [Float]) -> [Float] {
        let n = level.count
        var out = [Float](repeating: 0, count: n)
        func at(_ j: Int) -> Float { j >= 0 && j < n ? level[j] : 0 }
        for i in 0..<n { out[i] = kick(at: i, peak: 2, before: before, horizon: horizon, span: span, at) }
        return out
    }

    /// The kick at position `i` of a level sequence `level` (≥ 0): the peak over `peak`
    /// positions from i, its rise over the largest of the `before` positions before, times the
    /// share of it gone at positions i + `horizon` … i + `horizon` + `span` − 1, as
    /// log(1 + 10 · rise · decay). Offline on ~11.6 ms frames; live on ~5.8 ms quarter frames
    /// (`TempoTracker.updateKicks`).
    @inline(__always)
    static func kick(at i: Int, peak width: Int, before: Int, horizon: Int, span: Int, _ level: (Int) -> Float) -> Float {
        var peak: Float = 0
        for j in i..<(i + width) { peak = max(peak, level(j)) }
        guard peak > 0 else { return 0 }
        var earlier: Float = 0, later: Float = 0
        for j in (i - before)..<i { earlier = max(earlier, level(j)) }
        for j in (i + horizon)..<(i + horizon + span) { later = max(later, level(j)) }
        let rise = max(0, peak - earlier)
        let decay = min(1, max(0, 1 - later / peak))
        return log(1 + 10 * rise * decay)
    }
}

// The beat's phase from the kicks: a grid whose percussive low-band onsets fall half-way
// between its beats is half a beat off (`PhaseModel`'s first inputs; the live phase's rule).
extension BeatAnalyzer {
    /// log((mean at the beats + 0.1) ÷ (mean at the half-beats + 0.1)) of envelope `o` on
    /// the grid `beats` (frame indices): > 0 when `o`'s onsets fall on the beats; and the
    /// share of half-beats where `o` reaches 1 (one deviation of the normalised envelope).
    func beatToHalfBeat(_ o: [Float], beats: [Int]) -> (ratio: Double, halfCover: Double) {
        guard beats.count >= 2 else { return (0, 0) }
        return Self.beatToHalfBeat(
            count: beats.count, atBeat: { strength(o, at: Double(beats[$0])) },
            atHalf: { strength(o, at: Double(beats[$0] + beats[$0 + 1]) / 2) })
    }

    /// `beatToHalfBeat` of `count` (≥ 2) beats whose strength is `atBeat(k)`, and `atHalf(k)`
    /// half-way between beat k and beat k + 1 (also for `TempoTracker`'s live beats).
    static func beatToHalfBeat(count: Int, atBeat: (Int) -> Float, atHalf: (Int) -> Float) -> (ratio: Double, halfCover: Double) {
        var on: Float = 0, off: Float = 0, covered = 0
        for k in 0..<count { on += atBeat(k) }
        for k in 0..<(count - 1) {
            let s = atHalf(k)
            off += s
            if s >= 1 { covered += 1 }
        }
        let a = Double(on) / Double(count), b = Double(off) / Double(count - 1)
        return (log((a + 0.1) / (b + 0.1)), Double(covered) / Double(count - 1))
    }

    /// Kicks this far (log ratio) off the live grid move it (`TempoTracker.beatsOffTheBeat`;
    /// offline, the rule of earlier builds; `PhaseModel` reads the kicks now). Development
    /// sets (dev, dev-ext) at their true beats: every grid on the beat reads ≥ −0.97 (a
    /// drumless orchestral track) and, with kicks on half of its half-beats, ≥ −0.57 (funk);
    /// the off-beat grids of house with loud hats, of a techno and a house track read ≤ −1.28.
    static let kickShift = 0.9
    /// … and only when at least this share of its half-beats carries a kick (drumless
    /// tracks there: ≤ 0.28; the loud-hat house tracks' beats: ≥ 0.73).
    static let kickCover = 0.5
}
