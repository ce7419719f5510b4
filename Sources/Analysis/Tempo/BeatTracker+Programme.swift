import SpecvizCore

#if canImport(Glibc)
import Glibc
#endif

// Beat tracking, step 2: the dynamic programme that picks the beats, and their clean-up.
extension BeatAnalyzer {
    /// Onset envelope minus its 1 s local mean, half-wave rectified, over its standard deviation.
    func normalised(_ env: [Float]) -> [Float] {
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
    func track(_ o: [Float], periods bpms: [[Float]], factor: Double) -> [Int] {
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

    /// The beat programme with a second-order term (the final beats; `track` chooses the
    /// level). A state is a beat together with the interval since the beat before it, so
    /// besides an interval away from the candidate periods (`tightness` × (log ratio)²) the
    /// programme pays for a change of that ratio from one beat to the next (`smoothness` ×
    /// its square). A played tempo changes little between consecutive beats: a rubato of a
    /// few per cent costs little, a beat pulled a fifth of a period towards a syncopated
    /// onset costs more than the onset brings, so the grid no longer wanders after the
    /// strongest onsets. The ratio is taken against the candidate period, so a change of
    /// tempo that the candidates follow is free.
    ///
    /// Cost: per frame, the intervals within `shortestInterval`…`longestInterval` of its
    /// candidate periods, each looking back at the intervals whose ratio is within
    /// `largestIntervalStep` of its own.
    func trackSmooth(_ o: [Float], periods bpms: [[Float]], factor: Double) -> [Int] {
        let n = o.count
        guard n > 0 else { return [] }
        let fr = Float(frameRate), f = Float(factor)
        let alpha = Self.tightness, beta = Self.smoothness
        // Candidate periods (frames) and the interval range of each frame.
        var period = [Float](repeating: 0, count: 4 * n), logPeriod = [Float](repeating: 0, count: 4 * n)
        var count = [Int](repeating: 0, count: n), lo = [Int](repeating: 0, count: n)
        var base = [Int](repeating: 0, count: n + 1)
        var longest = 1
        for t in 0..<n {
            var shortest: Float = .infinity, widest: Float = 0
            for (k, b) in bpms[t].prefix(4).enumerated() {
                let p = 60 * fr / (b * f)
                period[4 * t + k] = p
                logPeriod[4 * t + k] = log(p)
                shortest = min(shortest, p); widest = max(widest, p)
            }
            count[t] = min(4, bpms[t].count)
            lo[t] = max(1, Int((shortest * Self.shortestInterval).rounded(.down)))
            let hi = max(lo[t], Int((widest * Self.longestInterval).rounded(.up)))
            longest = max(longest, hi)
            base[t + 1] = base[t] + (hi - lo[t] + 1)
        }
        var logTable = [Float](repeating: 0, count: longest + 1)
        for d in 1...longest { logTable[d] = log(Float(d)) }
        // Per state (frame t, interval d) at base[t] + d − lo[t]: the best chain's score,
        // the interval's log ratio to its nearest candidate, and the interval before (0: the
        // chain starts at t − d).
        var score = [Float](repeating: -.infinity, count: base[n])
        var ratio = [Float](repeating: 0, count: base[n])
        var back = [Int16](repeating: 0, count: base[n])
        // The best chain ending at each frame, and its last interval (0: a lone beat).
        var ended = [Float](repeating: 0, count: n), endedInterval = [Int](repeating: 0, count: n)
        let step = Self.largestIntervalStep
        score.withUnsafeMutableBufferPointer { score in
            ratio.withUnsafeMutableBufferPointer { ratio in
                back.withUnsafeMutableBufferPointer { back in
                    for t in 0..<n {
                        ended[t] = o[t]
                        let hi = min(t, base[t + 1] - base[t] + lo[t] - 1)
                        guard lo[t] <= hi else { continue }
                        for d in lo[t]...hi {
                            let from = t - d
                            let ld = logTable[d]
                            var r = ld - logPeriod[4 * t], near = period[4 * t]
                            for k in 1..<max(1, count[t]) {
                                let e = ld - logPeriod[4 * t + k]
                                if abs(e) < abs(r) { r = e; near = period[4 * t + k] }
                            }
                            // The chain may start at `from`, or continue one whose last
                            // interval had a ratio within `step` of this one's.
                            var best = o[from], bestInterval: Int16 = 0
                            let row = base[from] - lo[from]
                            let fromHi = min(from, base[from + 1] - base[from] + lo[from] - 1)
                            let scale = Float(d) / near
                            for k in 0..<count[from] {
                                let centre = scale * period[4 * from + k]
                                let eLo = max(lo[from], Int((centre / step).rounded(.up)))
                                let eHi = min(fromHi, Int((centre * step).rounded(.down)))
                                guard eLo <= eHi else { continue }
                                for e in eLo...eHi {
                                    let c = r - ratio[row + e]
                                    let v = score[row + e] - beta * c * c
                                    if v > best { best = v; bestInterval = Int16(truncatingIfNeeded: e) }
                                }
                            }
                            let i = base[t] - lo[t] + d
                            ratio[i] = r
                            score[i] = o[t] - alpha * r * r + best
                            back[i] = bestInterval
                            if score[i] > ended[t] { ended[t] = score[i]; endedInterval[t] = d }
                        }
                    }
                }
            }
        }
        // The last beat: the best chain ending within the final period.
        let lastPeriod = Int((60 * fr / (bpms[n - 1][0] * f)).rounded())
        var t = n - 1
        for u in max(0, n - lastPeriod)..<n where ended[u] > ended[t] { t = u }
        var beats = [t]
        var d = endedInterval[t]
        while d > 0 {
            let before = Int(back[base[t] - lo[t] + d])
            t -= d
            beats.append(t)
            d = before
        }
        beats.reverse()
        return beats
    }
    /// Interval range of the smooth programme around the candidate periods.
    static let shortestInterval: Float = 0.75
    static let longestInterval: Float = 1.33
    /// Largest change of the interval's ratio between consecutive beats (a 10 % change
    /// already costs 9 at the default smoothness, more than most onsets bring).
    static let largestIntervalStep: Float = 1.08
    static let smoothness: Float = 1000

    /// Beats pulled off a steady grid by a syncopated hit (a hip-hop kick a sixteenth early):
    /// a beat whose two intervals differ by more than `displacedShare` of their mean while
    /// the intervals on either side of them agree with that mean (within 8 %) moves to the
    /// strongest envelope frame within 5 % of a period of the midpoint of its neighbours.
    func regularised(_ beats: [Int], o: [Float]) -> [Int] {
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

    /// How far (frames, ≤ 0) the log spectrum's rise leads the beats on average: for each beat,
    /// the strongest frame of `log` from `attackReach` frames before it to 2 after. A drum's
    /// attack is one frame long and both envelopes peak on it (public set, drum styles: −0.04 to
    /// −0.5 frames); a bowed or swelling note's linear flux peaks when its energy does, some
    /// 30–60 ms after it starts, while the log rise peaks as its partials appear (orchestral
    /// pieces: −1.3 to −3.1 frames, and their beats were marked 20–60 ms after the notes, where
    /// madmom's fall 7–25 ms after). Nil with fewer than 8 beats.
    func attackLead(_ beats: [Int], log: [Float]) -> Double? {
        let heard = beats.filter { $0 >= Self.attackReach && $0 + 2 < log.count }
        return Self.attackLead(heard, reach: Self.attackReach) { log[$0] }
    }

    /// `attackLead` on any envelope: the mean offset (frames, clamped to ≤ 0) of the strongest
    /// of `value(j − reach) … value(j + 2)` from each beat j of `beats` (all of whose frames
    /// `value` must hold); nil with fewer than 8 beats. The live tracker reads its own ring.
    static func attackLead(_ beats: [Int], reach: Int, value: (Int) -> Float) -> Double? {
        guard beats.count >= 8 else { return nil }
        var sum = 0
        for j in beats {
            var best = j, top = -Float.infinity
            for d in -reach...2 where value(j + d) > top { top = value(j + d); best = j + d }
            sum += best - j
        }
        return min(0, Double(sum) / Double(beats.count))
    }
    /// Frames (~70 ms) before a beat that `attackLead` looks for its log rise.
    static let attackReach = 6

    /// Sub-frame beat time: the parabola through the envelope peak at or next to `j`.
    func refine(_ j: Int, o: [Float]) -> Double {
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
}
