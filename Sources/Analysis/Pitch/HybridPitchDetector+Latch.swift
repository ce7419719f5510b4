import SpecvizCore

#if canImport(Glibc)
import Glibc
#endif

/// Step 1 of the detector: YIN on the latch-filtered window, and its relaxed search near
/// the latched lag.
extension HybridPitchDetector {
    /// Step 1, YIN's input when latched: the high-passed stream (`highPassed`, see
    /// StreamingHighPass) if given, low-passed at 12× f0 (≤ 4 kHz) when f0 ≤ 400 Hz
    /// (seed 004: zero phase, forward then backward). Otherwise the raw window.
    func latchFilteredInput(
        _ window: UnsafePointer<Float>, highPassed: UnsafePointer<Float>?, latched: Double?
    ) -> LagAnalysis {
        var yinInput = raw
        if let f = latched {
            let lp = f <= 400
            if lp || highPassed != nil {
                let src = highPassed ?? window
                if lp {
                    lowPass.setCutoff(min(12 * f, 4000), sampleRate: sampleRate)
                    lowPass.apply(src, filterBuffer.base, count: windowSize)
                } else {
                    filterBuffer.base.update(from: src, count: windowSize)
                }
                filtered.load(filterBuffer.base)
                // The low-pass is for the latched note's own harmonics. When it leaves less
                // than a fifth of the window's energy, the window holds something else above
                // the cutoff (a new, higher note; or the latch is on hum under a note whose
                // attack hid it): YIN reads the window unfiltered.
                if !lp || filtered.energy >= LatchFilter.minKeptEnergy * LagAnalysis.energy(src, windowSize) {
                    filtered.computeLags(withPearson: false) // YIN input only
                    yinInput = filtered
                }
            }
        }
        if yinInput === raw { raw.computeLags(withPearson: false) }
        return yinInput
    }

    /// Step 1, YIN: the standard search, and when latched, the relaxed search near the
    /// latched lag where the standard result left it.
    func latchedYin(_ yinInput: LagAnalysis, rumbleFree: UnsafePointer<Float>?, latched: Double?) -> LagEstimate? {
        var yin = YinSearch.search(yinInput, minLag: minLag, maxLag: maxLag, octaveCheck: rumbleFree)
        if let f = latched {
            var expected = sampleRate / f
            // A latch on a subharmonic (the rumble-free window is as periodic at a half or a
            // third of the latched period): track the shorter period instead.
            if let x = rumbleFree {
                let d = LagAnalysis.periodDivisor(
                    in: x, size: windowSize, lag: Int(expected.rounded()),
                    minLag: minLag, maxLag: raw.maxLag)
                if d > 1 { expected /= Double(d) }
            }
            let inWindow = yin.map { abs(log2($0.lag / expected)) < 1.0 / 12 } ?? false
            // A deep first dip at 1/2, 1/3 or 1/4 of the latched period means the latch is on a
            // subharmonic (every period-T signal also dips at 2T): keep the standard result.
            let subharmonicLatch =
                yin.map { y in
                    y.confidence >= 1 - Double(YinSearch.threshold)
                        && (2...4).contains { k in
                            abs(log2(Double(k) * y.lag / expected)) < 0.04
                        }
                } ?? false
            if !inWindow, !subharmonicLatch {
                yin = searchNearLatch(yinInput, yin: yin, expected: expected, rumbleFree: rumbleFree)
            }
        }
        return yin
    }

    /// Step 1, the relaxed search near the latched lag `expected` when the standard result
    /// `yin` is elsewhere: its result when it wins, else `yin`.
    func searchNearLatch(
        _ yinInput: LagAnalysis, yin: LagEstimate?, expected: Double, rumbleFree: UnsafePointer<Float>?
    ) -> LagEstimate? {
        // The standard result at an integer multiple (2…6) of the latched period is that
        // note's own subharmonic dip: keep the latched period if it dips below 0.40.
        // (Unless the latched lag is itself only half a period: the octave check.)
        let multiple =
            yin.map { y in
                (2...6).contains { k in abs(log2(y.lag / (Double(k) * expected))) < 0.03 }
                    && (rumbleFree.map {
                        LagAnalysis.periodMultiple(
                            in: $0, size: windowSize, lag: Int(expected.rounded()),
                            maxLag: raw.maxLag) > 1
                    } ?? yinInput.isHalfPeriod(Int(expected.rounded()))) == false
            } ?? false
        let threshold = multiple ? YinSearch.relaxedThreshold : YinSearch.latchedThreshold
        guard
            let near = YinSearch.searchNear(
                yinInput, expectedLag: expected, minLag: minLag, maxLag: maxLag,
                threshold: threshold)
        else { return yin }
        // Unless the standard result's period divides the one found near the latch
        // and the window repeats at it as well: then the near one is a subharmonic
        // of the standard (a new, higher note after a low one: every period-T
        // window dips at kT too) and the shortest period wins, as in YIN.
        let subharmonicNear =
            yin.map { y in
                let k = (near.lag / y.lag).rounded()
                guard k >= 2 && abs(near.lag / (k * y.lag) - 1) < 0.03 else { return false }
                let dShort = yinInput.normalizedDifference(near: Int(y.lag.rounded()), radius: 1)
                let dNear = yinInput.normalizedDifference(near: Int(near.lag.rounded()), radius: 1)
                return dShort <= 0.05 && dShort <= dNear + 0.01
            } ?? false
        if !subharmonicNear && (yin == nil || multiple || near.confidence >= yin!.confidence - 0.05) { return near }
        return yin
    }
}
