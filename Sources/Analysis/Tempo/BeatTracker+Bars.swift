import SpecvizCore

#if canImport(Glibc)
import Glibc
#endif

// Beat tracking: the metre (beats per bar) and the downbeats.
extension BeatAnalyzer {
    /// Beats per bar (3 or 4) and the index of a downbeat, from the accent on each beat
    /// (kick and bass below 200 Hz plus the change of the coarse spectrum across the beat,
    /// as chords change at the bar line): the grouping and phase whose beats stand out most
    /// from the rest. In 4/4 the downbeat
    /// is then the phase with the best `downbeatWeights` score. Nil when no grouping stands
    /// out (`minContrast`) and the harmony does not place a 4/4 downbeat either
    /// (`harmonyMinContrast`).
    func bars(beats: [Int], low: [Float], mid: [Float], compound: Bool = false) -> (Int, Int)? {
        guard beats.count >= 12 else { return nil }
        let (accents, lowAccents, lowMean, change) = barAccents(beats, low: low)
        let mean = accents.reduce(0, +) / Double(accents.count)
        guard mean > 0 else { return nil }
        let best = Self.bestGrouping(accents, mean: mean, perBars: [3, 4])
        lastBarContrast = (best.bestOf[0], best.bestOf[1])
        if best.contrast >= Self.minContrast && best.perBar == 3
            && Self.groupingSignificance(accents, perBar: 3, phase: best.phase) >= Self.barSignificance
        {
            return (3, best.phase)
        }
        // Chords change on the bar line: the half bars either side of a downbeat differ in
        // harmony, while the drums (kick and snare alternating beat by beat) are alike in both.
        let half = spectralChanges(beats, span: 2)
        let halfMean = half.reduce(0, +) / Double(half.count)
        let ones = [Double](repeating: 1, count: beats.count)
        let chord = chroma?.changes(at: beats.map { frameTime($0) }, spans: [2, 4]) ?? [ones, ones]
        if lastBarContrast.1 < Self.minContrast {
            // No accent pattern stands out (four on the floor): in 4/4 the harmony may.
            let harmony = max(
                halfMean > 0 ? strongestPhase(half).mean / halfMean - 1 : 0,
                strongestPhase(chord[1]).mean - 1)
            guard harmony >= Self.harmonyMinContrast else { return nil }
        }
        // The downbeat among the four: the phase with the highest score, a weighted sum of
        // per-beat cues averaged over the beats of that phase (`downbeatWeights`).
        let cues: [[Double]] = [
            lowAccents.map { $0 / lowMean },
            meanNormalised(beats.map { Double(strength(mid, at: Double($0))) }),
            meanNormalised(change),
            meanNormalised(half),
            meanNormalised(spectralChanges(beats, span: 3)),
            meanNormalised(spectralChanges(beats, span: 4)),
            chord[0],
            chord[1],
        ]
        let phase = downbeatPhase(cues, beats: beats.count)
        downbeatReading = DownbeatReading(
            beats: beats.map(frameTime), cues: (0..<4).map { p in Self.phaseMeans(cues, phase: p, beats: beats.count) }, phase: phase)
        return (4, phase)
    }

    /// The 4/4 downbeat decision: the beats (media times), the mean of each cue
    /// (`downbeatWeights`' order) over the beats of each phase (beat k is in phase k mod 4),
    /// and the phase chosen. `tempo --json` prints it, for `eval/tempo/downbeat/fit_downbeat.py`.
    public struct DownbeatReading: Sendable {
        public var beats: [Double]
        public var cues: [[Double]]
        public var phase: Int
    }

    /// The mean of each cue over the beats k ≡ `phase` (mod 4).
    static func phaseMeans(_ cues: [[Double]], phase: Int, beats count: Int) -> [Double] {
        cues.map { cue in
            var sum = 0.0, n = 0.0
            for k in stride(from: phase, to: count, by: 4) { sum += cue[k]; n += 1 }
            return n > 0 ? sum / n : 0
        }
    }

    /// Mean coarse spectrum (`OnsetStrength.bandCount` bands) over envelope frames a..<b.
    private func meanSpectrum(_ a: Int, _ b: Int) -> [Float] {
        let bands = OnsetStrength.bandCount
        var m = [Float](repeating: 0, count: bands)
        guard b > a else { return m }
        for j in a..<b { for q in 0..<bands { m[q] += spectra[j * bands + q] } }
        return m
    }

    /// Cosine distance between the mean spectra of the `span` beats after each beat and the
    /// `span` beats before it.
    private func spectralChanges(_ beats: [Int], span: Int) -> [Double] {
        let bands = OnsetStrength.bandCount
        var change = [Double](repeating: 0, count: beats.count)
        guard spectra.count >= envelope.count * bands else { return change }
        for k in beats.indices {
            let iv = k > 0 ? beats[k] - beats[k - 1] : beats[1] - beats[0]
            let a = k - span >= 0 ? beats[k - span] : max(0, beats[k] - span * iv)
            let b = k + span < beats.count ? beats[k + span] : min(envelope.count, beats[k] + span * iv)
            let previous = meanSpectrum(a, beats[k]), next = meanSpectrum(beats[k], b)
            let similarity = ChromaStream.cosineSimilarity(previous, next, count: bands)
            change[k] = similarity.map { Double(1 - $0) } ?? 0
        }
        return change
    }

    /// The accent on each beat that the bar is read from: the low band (kick, bass) over its
    /// mean plus the spectral change across the beat over its mean (the mean coarse spectrum
    /// over the beat after it against the beat before it; chords change on the bar line).
    /// Also the low accents, their mean and the changes, which the 4/4 downbeat weighs apart.
    private func barAccents(_ beats: [Int], low: [Float])
        -> (accents: [Double], low: [Double], lowMean: Double, change: [Double])
    {
        let change = spectralChanges(beats, span: 1)
        let changeMean = max(1e-9, change.reduce(0, +) / Double(change.count))
        let lowAccents = beats.map { Double(strength(low, at: Double($0))) }
        let lowMean = max(1e-9, lowAccents.reduce(0, +) / Double(lowAccents.count))
        let accents = beats.indices.map { lowAccents[$0] / lowMean + Double(Self.barChangeWeight) * change[$0] / changeMean }
        return (accents, lowAccents, lowMean, change)
    }

    /// Whether `grid`, twice a beat, falls in bars of three whose bar lines come in turn on that
    /// beat (the grid's even points) and half-way between (its odd ones): then the beat is half
    /// a bar of three, no metrical level. A grouping in three must stand out from the rest
    /// (`minContrast`) and from chance (`barSignificance`), and its bar lines on the odd points
    /// must stand out about as much as those on the even ones (the weaker at least
    /// `alternateBarLines` of the stronger's contrast). A waltz at its beat, doubled to its
    /// eighths, groups in three too, by its accented downbeat, but every bar line is on a beat
    /// (development waltzes: the weaker 0.12 or less of the stronger; half a fast waltz 0.83–0.86).
    func halvesBarsOfThree(_ grid: [Int], low: [Float]) -> Bool {
        grid.count >= 12 && Self.barLinesAlternate(barAccents(grid, low: low).accents)
    }

    /// `halvesBarsOfThree`'s test on the accents of a grid's points.
    static func barLinesAlternate(_ accents: [Double]) -> Bool {
        guard accents.count >= 12 else { return false }
        let mean = accents.reduce(0, +) / Double(accents.count)
        guard mean > 0 else { return false }
        let best = bestGrouping(accents, mean: mean, perBars: [3])
        guard best.contrast >= minContrast,
            groupingSignificance(accents, perBar: 3, phase: best.phase) >= barSignificance
        else { return false }
        var on = SIMD2<Double>(), count = SIMD2<Double>(), off = 0.0, offCount = 0.0
        for (k, a) in accents.enumerated() {
            if (k - best.phase) % 3 == 0 { on[k % 2] += a; count[k % 2] += 1 } else { off += a; offCount += 1 }
        }
        guard count.min() > 0, offCount > 0 else { return false }
        let contrast = (on / count - off / offCount) / mean
        return contrast.min() >= minContrast && contrast.min() >= alternateBarLines * contrast.max()
    }
    /// Least contrast of the bar lines on a grid's odd points, over that of those on its even
    /// points (or the other way round), that puts the bar lines in turn on both.
    static let alternateBarLines = 0.5

    /// Of the groupings in `perBars` beats and their phases, the one whose accented beats stand
    /// out most from the rest (contrast: on-beat mean − off-beat mean, over the mean), and the
    /// best contrast of each grouping in `perBars`' order.
    static func bestGrouping(_ accents: [Double], mean: Double, perBars: [Int])
        -> (contrast: Double, perBar: Int, phase: Int, bestOf: [Double])
    {
        var best: (contrast: Double, perBar: Int, phase: Int) = (-.infinity, perBars[perBars.count - 1], 0)
        var bestOf = [Double](repeating: -.infinity, count: perBars.count)
        for (i, perBar) in perBars.enumerated() {
            for phase in 0..<perBar {
                var on = 0.0, onCount = 0.0, off = 0.0, offCount = 0.0
                for (k, a) in accents.enumerated() {
                    if (k - phase) % perBar == 0 { on += a; onCount += 1 } else { off += a; offCount += 1 }
                }
                let contrast = (on / onCount - off / offCount) / mean
                bestOf[i] = max(bestOf[i], contrast)
                if contrast > best.contrast { best = (contrast, perBar, phase) }
            }
        }
        return (best.contrast, best.perBar, best.phase, bestOf)
    }

    /// How far the accents on every `perBar`-th beat from `phase` stand above the others, in
    /// standard errors of that difference (a two-sample t statistic, the variance pooled).
    /// With ~70 beats, accents that follow no bar at all put some phase of a grouping in three
    /// up to ~2.9 standard errors above the rest.
    static func groupingSignificance(_ accents: [Double], perBar: Int, phase: Int) -> Double {
        var on: [Double] = [], off: [Double] = []
        for (k, a) in accents.enumerated() {
            if (k - phase) % perBar == 0 { on.append(a) } else { off.append(a) }
        }
        guard on.count >= 2, off.count >= 2 else { return 0 }
        let mOn = on.reduce(0, +) / Double(on.count), mOff = off.reduce(0, +) / Double(off.count)
        let squares = on.reduce(0) { $0 + ($1 - mOn) * ($1 - mOn) } + off.reduce(0) { $0 + ($1 - mOff) * ($1 - mOff) }
        let variance = squares / Double(accents.count - 2)
        let error = (variance * (1 / Double(on.count) + 1 / Double(off.count))).squareRoot()
        return error > 0 ? (mOn - mOff) / error : .infinity
    }

    /// The phase of a 4/4 bar with the largest mean of `values` on its first beat.
    private func strongestPhase(_ values: [Double]) -> (phase: Int, mean: Double) {
        var best = (phase: 0, mean: -Double.infinity)
        for phase in 0..<4 {
            var on = 0.0, n = 0.0
            for (k, v) in values.enumerated() where (k - phase) % 4 == 0 { on += v; n += 1 }
            if n > 0 && on / n > best.mean { best = (phase, on / n) }
        }
        return best
    }

    /// `v` over its mean (all ones when the mean is not positive).
    private func meanNormalised(_ v: [Double]) -> [Double] {
        let m = v.reduce(0, +) / Double(max(1, v.count))
        return m > 0 ? v.map { $0 / m } : v.map { _ in 1 }
    }

    /// The 4/4 downbeat phase (0…3) of `count` beats: the highest `downbeatWeights`-weighted
    /// sum of the cues' means over the phase's beats and of the low accent's means over the
    /// beats one, two and three beats later (where in the bar the kicks fall).
    private func downbeatPhase(_ cues: [[Double]], beats count: Int) -> Int {
        Self.downbeatPhase(means: (0..<4).map { Self.phaseMeans(cues, phase: $0, beats: count) })
    }

    /// `downbeatPhase` from the cues' means per phase (`DownbeatReading.cues`).
    static func downbeatPhase(means: [[Double]]) -> Int {
        let score = (0..<4).map { p in
            var v = 0.0
            for (w, m) in zip(downbeatWeights, means[p]) { v += w * m }
            for (i, shift) in downbeatShifts.enumerated() { v += downbeatWeights[means[p].count + i] * means[(p + shift) % 4][0] }
            return v
        }
        var phase = 0
        for p in 1..<4 where score[p] > score[phase] { phase = p }
        return phase
    }
    /// Weight of the spectral change against the low-band accent.
    static let barChangeWeight: Float = 1
    /// Weights of the 4/4 downbeat score, per cue (each divided by its mean over the beats):
    /// low-band accent (kick, bass), mid-band accent (the backbeat snare: negative), change
    /// of the coarse spectrum across 1, 2, 3 and 4 beats either side, and the change of the
    /// chroma across 2 and 4 beats either side (`ChromaStream`: the chord change on the bar
    /// line, which repeating drums do not blur); then the low accent one, two and three beats
    /// after the downbeat (`downbeatShifts`: a one-drop has no kick on 1 and its kick on 3).
    /// Fitted by `eval/tempo/downbeat/fit_downbeat.py` (a multinomial logit over the four
    /// phases, L2 0.001) on 1693 tracks in four of 21 development and training copies: left
    /// out a copy at a time, 99.1 % of the phases right, against 98.1 % for the weights before,
    /// fitted on the public set's 76 tracks without the later beats (reggae's one-drop put on 2
    /// on a third of its tracks).
    static let downbeatWeights: [Double] = [1.87, -1.28, -1.29, -1.97, 2.63, 2.37, 2.71, 2.32, -1.69, 0.33, -0.51]
    /// Beats after the downbeat whose low accent the score also weighs.
    static let downbeatShifts = [1, 2, 3]
    static let minContrast = 0.15
    /// Least `groupingSignificance` of a bar of three. Four-on-the-floor house and techno,
    /// whose stabs and fills follow no bar of three, read 0.8–2.9 in their best phase of three
    /// (21 tracks of the development and training copies, 11 of them over `minContrast` and
    /// so reported in 3/4); the waltzes read 3.2–38.6 (60 tracks, drumless ones lowest). A
    /// grouping in three below it is no bar: the bar of four, or the harmony, decides.
    static let barSignificance = 3.0
    /// Least contrast of the harmonic change across half bars, or of the chroma change across
    /// bars (on-phase mean over the mean − 1), that places a 4/4 downbeat where no accent
    /// pattern stands out.
    static let harmonyMinContrast = 0.1
}
