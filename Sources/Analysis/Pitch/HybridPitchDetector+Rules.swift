import SpecvizCore
import Tuning

#if canImport(Glibc)
import Glibc
#endif

/// The detector's fixed rules: readability, level, the band combination and the same-note test.
extension HybridPitchDetector {
    /// A window's level (dBFS RMS).
    static func level(of a: LagAnalysis) -> Double {
        let ms = a.energy / Double(a.size)
        return ms > 1e-24 ? 10 * log10(ms) : -240
    }

    /// Whether the estimators can read the window at all. Below −140 dBFS, or (nearly) pure
    /// DC: a constant window is "periodic" at every lag and its difference function is
    /// single-precision rounding noise (it read as the shortest lag, "B6 −49.4 ¢"). The
    /// varying part must be above −140 dBFS and within 50 dB of the DC.
    static func isReadable(_ a: LagAnalysis) -> Bool {
        let ms = a.energy / Double(a.size), acMs = a.acEnergy / Double(a.size)
        return ms > 1e-14 && acMs > max(1e-14, 1e-5 * ms)
    }

    /// The search of the rumble-free retry (step 2) on its analysed window: YIN without the
    /// octave check, and the autocorrelation peak.
    static func retrySearch(_ a: LagAnalysis, minLag: Int, maxLag: Int) -> (LagEstimate?, PearsonPeakSearch.Result?) {
        (YinSearch.search(a, minLag: minLag, maxLag: maxLag), PearsonPeakSearch.search(a, minLag: minLag, maxLag: maxLag))
    }

    /// `combine` for a sample rate (`HopPreparer` foresees the detector's fallbacks with it).
    static func combine(
        yin: LagEstimate?, ac: @autoclosure () -> PearsonPeakSearch.Result?, sampleRate: Double
    ) -> PitchEstimate? {
        guard let y = yin else { return nil }
        let fy = y.frequency(sampleRate: sampleRate)
        if fy > 95 { return PitchEstimate(frequency: fy, confidence: y.confidence, source: .yin) }
        let agree = ac().map { sameNote($0.estimate.frequency(sampleRate: sampleRate), fy) } ?? false
        if fy > 95 || (fy >= 65 && (y.confidence >= 0.88 || agree)) || agree {
            return PitchEstimate(frequency: fy, confidence: y.confidence, source: agree ? .both : .yin)
        }
        return nil
    }

    /// Same MIDI note: within `tolerance` semitones (0.5 = rounds to the same note).
    @inline(__always) static func sameNote(_ a: Double, _ b: Double, tolerance: Double = 0.5) -> Bool {
        abs(12 * log2(a / b)) < tolerance
    }
}

/// How long and how near to the mains a period is taken for hum after exact hum.
enum HumContext {
    /// Hops (about 0.13 s at 512 samples and 48 kHz).
    static let hops = 12
    /// Hops of exact hum in a row that open it.
    static let minRun = 10
    /// Relative distance from 50, 60, 100, 120, 150 or 180 Hz.
    static let tolerance = 0.035
    /// dB under the latched note's peak within which a period at the mains on that note is
    /// the note, not hum.
    static let noteDrop = 10.0
}

/// The latch-aware filter's sanity check (see `HybridPitchDetector.detect`).
enum LatchFilter {
    /// Least share of the window's energy the low-pass must keep for YIN to read the
    /// filtered window.
    static let minKeptEnergy = 0.2
}

extension Note {
    /// Fractional MIDI number for A4 = 440 Hz (used only to bucket rescue candidates).
    @inline(__always) static func midiValueApprox(_ f: Double) -> Double { 69 + 12 * log2(f / 440) }
}
