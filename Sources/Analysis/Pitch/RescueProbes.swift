import SpecvizCore

/// The Spectral Harmonic Fingerprint rescue's probes of one window (`HybridPitchDetector`,
/// step 3): its candidate periods, the 4 lowest CMND local minima and the 4 highest Pearson
/// local maxima of the raw window, and each one's harmonic evidence. None of it depends on
/// the tracker's state (the persistence bonus is added by the detector), so `HopPreparer`
/// can probe a window ahead on the decoding thread. Does not allocate after `init`.
final class RescueProbes {
    /// Candidates per window.
    static let count = 8
    /// Candidate lags (samples; 0 = unused, and a lag that is both a CMND minimum and a
    /// Pearson maximum is kept once, at its first place).
    let lags = OwnedBuffer<Int>(zeroed: RescueProbes.count)
    /// The fingerprint's evidence for each used lag.
    let evidence = OwnedBuffer(
        count: RescueProbes.count, repeating: HarmonicFingerprint.Evidence(present: 0, score: 0, rejected: true))

    /// Picks the candidates of `raw` (its lags computed) within `minLag…maxLag` and probes
    /// each on `fingerprint`, loaded with the same window.
    func probe(_ raw: LagAnalysis, fingerprint: HarmonicFingerprint, minLag: Int, maxLag: Int) {
        let lowest = UnsafeMutableBufferPointer(start: lags.base, count: 4)
        let highest = UnsafeMutableBufferPointer(start: lags.base + 4, count: 4)
        RescueProbes.pickExtrema(raw.cmnd.base, lowest: true, minLag: minLag, maxLag: maxLag, into: lowest)
        RescueProbes.pickExtrema(raw.pearson.base, lowest: false, minLag: minLag, maxLag: maxLag, into: highest)
        for i in 0..<RescueProbes.count where lags[i] > 0 {
            if (0..<i).contains(where: { lags[$0] == lags[i] }) { lags[i] = 0; continue }
            evidence[i] = fingerprint.evaluate(f0: fingerprint.sampleRate / Double(lags[i]))
        }
    }

    /// The `out.count` most extreme local extrema of `v` in the lag range (0 = unused).
    private static func pickExtrema(
        _ v: UnsafeMutablePointer<Float>, lowest: Bool, minLag: Int, maxLag: Int, into out: UnsafeMutableBufferPointer<Int>
    ) {
        for i in out.indices { out[i] = 0 }
        let sign: Float = lowest ? 1 : -1
        var filled = 0
        var worstValue = Float.infinity // once the list is full: its worst entry
        for t in (minLag + 1)..<maxLag {
            let x = sign * v[t]
            // Fast path once full: not better than the worst entry, nothing changes.
            if filled == out.count && !(x < worstValue) { continue }
            guard x <= sign * v[t - 1] && x <= sign * v[t + 1] else { continue }
            defer {
                filled = out.reduce(0) { $0 + ($1 != 0 ? 1 : 0) }
                if filled == out.count { worstValue = out.reduce(-Float.infinity) { max($0, sign * v[$1]) } }
            }
            // Insert into the sorted list if better than its worst entry.
            var worst = out.startIndex
            for i in out.indices {
                if out[i] == 0 { worst = i; break }
                if sign * v[out[i]] > sign * v[out[worst]] { worst = i }
            }
            if out[worst] == 0 || x < sign * v[out[worst]] { out[worst] = t }
        }
    }
}
