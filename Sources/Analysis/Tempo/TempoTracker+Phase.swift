#if canImport(Glibc)
import Glibc
#endif

// The live beat's phase: `BeatAnalyzer.onTheBeat`'s evidence, read on the predicted beats of
// the history.
//
// The forward programme follows the low and mid bands, which in house with loud hats and an
// off-beat bass, or in funk with syncopated kicks, are stronger half-way between the beats: its
// marks then sit on the off-beat. The offline analysis moves such a grid by half a beat when the
// kicks fall between its beats, or, where the kicks mark neither, when the broadband flux, the
// log spectrum's rise and the high band all do. The same evidence, normalised the same way (local
// mean over ±0.5 s removed, over the deviation), is read here on the predicted beats since the
// last audit.
extension TempoTracker {
    /// Whether the predicted beats since `auditFrom` are on the off-beat by the offline rules
    /// (`BeatAnalyzer.kickShift`, `kickCover`, `attackShift`); nil with fewer than
    /// `phaseGridBeats` beats heard whose ±0.5 s the history holds.
    func beatsOffTheBeat() -> Bool? {
        // Frames whose local mean (±0.5 s) has been heard; the kick's decay is read 3 frames on.
        let half = Int((0.5 * frameRate).rounded())
        let newest = framesIn - 1 - max(half, 3), oldest = max(0, framesIn - capacity + 3)
        guard newest - oldest > 4 * half else { return nil }
        var beats: [Double] = []
        forEachHeardBeat(from: auditFrom) { f in
            if f - 1 >= Double(oldest + half), f + 1 <= Double(newest - half) { beats.append(f) }
        }
        guard beats.count >= Self.phaseGridBeats else { return nil }
        let span = oldest...newest
        let kick = phaseRatio(span, beats, cover: true) { self.kickAt($0) }
        if kick.ratio <= -BeatAnalyzer.kickShift { return kick.halfCover >= BeatAnalyzer.kickCover }
        guard kick.ratio < BeatAnalyzer.kickShift else { return false }
        let limits = BeatAnalyzer.attackShift
        return phaseRatio(span, beats) { self.broadRing[$0 % self.capacity] }.ratio <= limits.broad
            && phaseRatio(span, beats) { self.logRing[$0 % self.capacity] }.ratio <= limits.log
            && phaseRatio(span, beats) { self.highRing[$0 % self.capacity] }.ratio <= limits.high
    }

    /// Predicted beats an audit of the phase reads (8, as the offline decision's least).
    static let phaseGridBeats = 8

    /// `BeatAnalyzer.beatToHalfBeat` of the envelope `value` over frames `span`, normalised as
    /// `BeatAnalyzer.normalised` does, at the frame positions `beats`.
    private func phaseRatio(_ span: ClosedRange<Int>, _ beats: [Double], cover: Bool = false, _ value: (Int) -> Float)
        -> (ratio: Double, halfCover: Double)
    {
        let n = span.count, half = Int((0.5 * frameRate).rounded())
        let prefix = phaseScratch.base, out = phaseScratch.base + (n + 1)
        prefix[0] = 0
        for k in 0..<n { out[k] = value(span.lowerBound + k); prefix[k + 1] = prefix[k] + out[k] }
        var squares: Float = 0
        for k in 0..<n {
            let lo = max(0, k - half), hi = min(n, k + half + 1)
            let v = max(0, out[k] - (prefix[hi] - prefix[lo]) / Float(hi - lo))
            out[k] = v
            squares += v * v
        }
        let sd = max(1e-9, (squares / Float(n)).squareRoot())
        func strength(_ x: Double) -> Float {
            let c = Int(x.rounded()) - span.lowerBound
            var s: Float = 0
            for j in max(0, c - 1)...min(n - 1, c + 1) { s = max(s, out[j] / sd) }
            return s
        }
        var on: Float = 0, off: Float = 0, covered = 0
        for k in beats.indices { on += strength(beats[k]) }
        for k in 0..<(beats.count - 1) {
            let s = strength((beats[k] + beats[k + 1]) / 2)
            off += s
            if s >= 1 { covered += 1 }
        }
        let a = Double(on) / Double(beats.count), b = Double(off) / Double(beats.count - 1)
        return (log((a + 0.1) / (b + 0.1)), Double(covered) / Double(beats.count - 1))
    }

    /// `PercussiveLow`'s kick at frame `i` in this tracker's frames (~23 ms: the new energy
    /// over the 2 frames before, the decay read 2–3 frames after); needs frame i + 3 heard.
    func kickAt(_ i: Int) -> Float {
        func at(_ j: Int) -> Float { j > framesIn - capacity && j < framesIn ? lowLevelRing[j % capacity] : 0 }
        let peak = max(at(i), at(i + 1))
        guard peak > 0 else { return 0 }
        let earlier = max(at(i - 1), at(i - 2)), later = max(at(i + 2), at(i + 3))
        return log(1 + 10 * max(0, peak - earlier) * min(1, max(0, 1 - later / peak)))
    }
}
