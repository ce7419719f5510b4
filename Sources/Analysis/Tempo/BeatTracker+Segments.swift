import SpecvizCore

#if canImport(Glibc)
import Glibc
#endif

// Beat tracking, step 4: quiet intros trimmed; tempo segments and their tempi.
extension BeatAnalyzer {
    /// Drops leading beats before the first displayed tempo (or the first estimate of a pulse
    /// heard over the whole track) whose onsets are weak (quiet intros).
    func trimLeading(_ beats: [Int], o: [Float]) -> [Int] {
        guard let firstShown = updates.first(where: { $0.display != nil })?.time ?? heardFrom else { return [] }
        // Within ±3 frames (~35 ms): the smooth programme's grid does not follow a played
        // onset's jitter to its peak.
        let strengths = beats.map { strength(o, at: Double($0), reach: 3) }
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
    func segments(beats: [Int], factor: Double, duration: Double) -> [TempoSegment] {
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

    /// Sets each segment's tempo to the time-weighted median of the display over it (the
    /// display is within ±2 BPM far more often than a beat-interval fit); a segment the
    /// display never covered keeps the beats' own rate.
    func displayTempi(_ segments: inout [TempoSegment], factor: Double) {
        let whole = segments.count == 1
        for k in segments.indices {
            let seg = segments[k]
            let lo = whole ? -Double.infinity : seg.start + 3, hi = whole ? Double.infinity : seg.end + Self.hearing
            if let m = displayMedian(from: lo, to: hi, near: whole ? nil : seg.bpm / factor) { segments[k].bpm = m * factor }
        }
    }

    /// Adjacent segments of the same tempo (`TempoSegment.sameTempo`) joined into one.
    static func mergedSegments(_ segments: [TempoSegment]) -> [TempoSegment] {
        var out: [TempoSegment] = []
        for seg in segments {
            if let last = out.last, TempoSegment.sameTempo(last.bpm, seg.bpm) {
                out[out.count - 1] = last.joined(with: seg)
            } else {
                out.append(seg)
            }
        }
        return out
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
