import CKernels
import SpecvizCore

#if canImport(Glibc)
import Glibc
#endif

/// Fine frequency of the first partial of a latched note, from the phase advance of a
/// single-frequency DFT probe between consecutive hops (the phase-vocoder instantaneous
/// frequency; Flanagan & Golden 1966, Dolson 1986).
///
/// Why: a time-domain period (YIN, autocorrelation) is the common period of all partials.
/// Plucked and struck strings are stiff: partial k sits at k·f0·√(1 + B·k²), so the period
/// estimate reads sharp by up to several cents (seed 004 §13 prefers the time domain for
/// its lack of bin bias; this keeps that and removes the stretch). The first partial is only
/// 866·B cents above f0 (≈ 0.1 ¢ for B = 1e-4). Used only when the first partial is strong
/// and agrees with the period estimate; a missing fundamental keeps the period estimate.
///
/// All storage at construction; nothing here allocates.
public final class FirstPartialTracker {
    public let size: Int
    public let sampleRate: Double
    private let hann: OwnedBuffer<Float>
    private var probe = 0.0
    private var lastPhase = 0.0
    private var lastTime = -1
    private var hasPhase = false

    /// - Parameter size: window length, a multiple of 8.
    public init(size: Int, sampleRate: Double) {
        precondition(size > 0 && size % 8 == 0, "window length must be a multiple of 8")
        self.size = size
        self.sampleRate = sampleRate
        hann = OwnedBuffer(zeroed: size)
        for i in 0..<size { hann[i] = Float(0.5 - 0.5 * cos(2 * Double.pi * Double(i) / Double(size))) }
    }

    /// Forgets the phase history.
    public func reset() { hasPhase = false }

    /// Lowest frequency measured (Hz): 4 bins, so the partial's negative-frequency image
    /// (8 bins away) sits in the Hann window's far sidelobes.
    public var minimumFrequency: Double { 4 * sampleRate / Double(size) }

    /// Measures the first partial near `estimate` Hz in `window` (the newest `size` samples,
    /// ending at absolute sample index `endSample`). Returns the refined frequency (Hz) when
    /// the partial carries at least `minShare` of the window's energy and the previous hop
    /// probed the same frequency; nil otherwise. `energy` is Σx² of the window.
    public func refine(
        _ window: UnsafePointer<Float>, endSample: Int, estimate: Double, energy: Double,
        minShare: Double = 0.08
    ) -> Double? {
        guard estimate >= minimumFrequency else { hasPhase = false; return nil }
        // Keep the probe frequency fixed while the estimate stays within a quarter semitone,
        // so consecutive phases are comparable.
        if !hasPhase || abs(12 * log2(estimate / probe)) > 0.25 {
            probe = estimate
            hasPhase = false
        }
        let w = 2 * Double.pi * probe / sampleRate
        // Complex DFT at the probe frequency (CKernels: eight phasors at a time), phase
        // referenced to absolute time.
        var bin = (0.0, 0.0)
        withUnsafeMutableBytes(of: &bin) { b in
            spv_dft_bin(window, hann.base, Int32(size), w, b.baseAddress!.assumingMemoryBound(to: Double.self))
        }
        let (re, im) = bin
        let start = endSample - size
        // Energy share of the partial: |X|² for a Hann window ≈ (A·N/4)², A² / 2 = power.
        let amplitude = 4 * (re * re + im * im).squareRoot() / Double(size)
        let share = energy > 0 ? (0.5 * amplitude * amplitude * Double(size)) / energy : 0
        let phase = atan2(im, re) - w * Double(start) // phase of the partial at sample 0
        defer { lastPhase = phase; lastTime = endSample; hasPhase = true }
        guard hasPhase, share >= minShare, endSample > lastTime else { return nil }
        // The partial's phase at sample 0 drifts by 2π·(f − probe)·t/rate: its slope is the offset.
        var d = phase - lastPhase
        d -= 2 * Double.pi * (d / (2 * Double.pi)).rounded()
        let hop = Double(endSample - lastTime)
        return probe + d * sampleRate / (2 * Double.pi * hop)
    }
}
