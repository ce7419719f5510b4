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
