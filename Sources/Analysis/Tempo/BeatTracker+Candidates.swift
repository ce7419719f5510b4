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
    ///
    /// Rubato: a display that glides (a played tempo that breathes by ±5–8 %) leaves its
    /// ±2 BPM band within a second or two, so it holds no run of `minRun` and the track got
    /// no beats. A piece of at least `minGlidePiece` seconds counts too when it belongs to a
    /// *glide*: a stretch of display without a blank whose neighbouring pieces are within
    /// `glideStep` of each other (not a jump to another tempo or level), at least `minRun`
    /// long in all. Each piece keeps its own tempo, so the candidates follow the rubato.
    func steadyRuns() -> [(start: Double, end: Double, bpm: Double)] {
        var pieces: [(start: Double, end: Double, bpm: Double, glide: Int)] = []
        var values: [Double] = []
        var start = 0.0, last = 0.0, glide = 0
        func close() {
            guard !values.isEmpty else { return }
            let sorted = values.sorted()
            let bpm = sorted[sorted.count / 2]
            if let p = pieces.last, p.glide == glide, abs(bpm / p.bpm - 1) > Self.glideStep { glide += 1 }
            pieces.append((start, last, bpm, glide))
            values.removeAll()
        }
        for u in updates {
            guard let d = u.display else {
                close()
                glide += 1
                continue
            }
            if let m = values.first, abs(d.bpm - m) > 2 { close() }
            if values.isEmpty { start = u.time }
            values.append(d.bpm)
            last = u.time
        }
        close()
        // Each glide's span (first piece's start to last piece's end).
        var span: [Int: (start: Double, end: Double)] = [:]
        for p in pieces {
            let s = span[p.glide]
            span[p.glide] = (min(s?.start ?? p.start, p.start), max(s?.end ?? p.end, p.end))
        }
        var runs: [(start: Double, end: Double, bpm: Double)] = []
        for p in pieces {
            let length = p.end - p.start
            let g = span[p.glide].map { $0.end - $0.start } ?? 0
            if length >= Self.minRun || (length >= Self.minGlidePiece && g >= Self.minRun) {
                runs.append((p.start, p.end, p.bpm))
            }
        }
        // Merge neighbouring runs of the same tempo.
        var merged: [(start: Double, end: Double, bpm: Double)] = []
        for r in runs {
            if let p = merged.last, abs(p.bpm - r.bpm) <= 2 {
                // The tempo weighted by the two runs' own lengths, as segments join (a gap between
                // them is part of neither: weighing by the whole span pulled 160 down to 130).
                let joined = TempoSegment(start: p.start, end: p.end, bpm: p.bpm)
                    .joined(with: TempoSegment(start: r.start, end: r.end, bpm: r.bpm))
                merged[merged.count - 1] = (joined.start, joined.end, joined.bpm)
            } else {
                merged.append(r)
            }
        }
        return merged
    }
    static let minRun = 3.0
    /// Shortest piece of a glide that counts as a run (s).
    static let minGlidePiece = 1.0
    /// Largest relative step between neighbouring pieces of one glide.
    static let glideStep = 0.06

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
