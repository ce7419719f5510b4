import SpecvizCore

#if canImport(Glibc)
import Glibc
#endif

// Beat tracking, step 2: the tempo candidates per envelope frame, from the causal display.
extension BeatAnalyzer {
    /// Seconds during which the causal display shows a tempo.
    func shownSeconds() -> Double {
        var total = 0.0
        for (k, u) in updates.enumerated() where u.display != nil {
            let end = k + 1 < updates.count ? updates[k + 1].time : tracker.time
            total += max(0, end - u.time)
        }
        return total
    }

    /// Median of the displayed tempo over the updates (folded level).
    func mainTempo() -> Double {
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
    func candidates(_ runs: [(start: Double, end: Double, bpm: Double)]) -> [[Float]] {
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
}
