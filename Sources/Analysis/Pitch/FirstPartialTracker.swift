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
    /// The probe's windowed phasors (`spv_probe_table`), made for `tableW` (radians per
    /// sample): a probe holds its frequency from hop to hop, so each hop's bin is two dot
    /// products (demo: 125 tables for 5479 probes).
    private let tableRe: OwnedBuffer<Float>
    private let tableIm: OwnedBuffer<Float>
    private var tableW = Double.nan
    /// Measurements back that the phase advance is taken over.
    public let span: Int
    private var probe = 0.0
    /// The last `span` phases and their window ends, a ring at `next`.
    private let phases: OwnedBuffer<Double>
    private let times: OwnedBuffer<Int>
    private var next = 0
    /// Consecutive measurements at the current probe (up to `span`).
    private var count = 0
    /// The partial's share of the window's energy at the last measurement.
    public private(set) var share = 0.0

    /// - Parameters:
    ///   - size: window length, a multiple of 8.
    ///   - span: how many measurements back the phase advance is taken over (1 = the
    ///     previous hop). Longer spans divide the phase noise of a noisy partial over more
    ///     time; the partial must stay within `sampleRate / (2 · span · hop)` Hz of the probe.
    public init(size: Int, sampleRate: Double, span: Int = 1) {
        precondition(size > 0 && size % 8 == 0, "window length must be a multiple of 8")
        precondition(span >= 1)
        self.size = size
        self.sampleRate = sampleRate
        self.span = span
        hann = OwnedBuffer(zeroed: size)
        tableRe = OwnedBuffer(zeroed: size)
        tableIm = OwnedBuffer(zeroed: size)
        for i in 0..<size { hann[i] = Float(0.5 - 0.5 * cos(2 * Double.pi * Double(i) / Double(size))) }
        phases = OwnedBuffer(zeroed: span)
        times = OwnedBuffer(count: span, repeating: -1)
    }

    /// Least share of the window's energy a partial must carry to be read (`refine`).
    public static let minShare = 0.08

    /// Forgets the phase history.
    public func reset() { count = 0 }

    /// Lowest frequency measured (Hz): 4 bins, so the partial's negative-frequency image
    /// (8 bins away) sits in the Hann window's far sidelobes.
    public var minimumFrequency: Double { 4 * sampleRate / Double(size) }

    /// Measures the first partial near `estimate` Hz in `window` (the newest `size` samples,
    /// ending at absolute sample index `endSample`). Returns the refined frequency (Hz) when
    /// the partial carries at least `minShare` of the window's energy and the previous hop
    /// probed the same frequency; nil otherwise. `energy` is Σx² of the window. The phase
    /// advance is taken over `lag` measurements back (default `span`); with `shorter`, over
    /// as many as there are, up to that (a fresh probe gives a reading from its second hop).
    public func refine(
        _ window: UnsafePointer<Float>, endSample: Int, estimate: Double, energy: Double,
        minShare: Double = FirstPartialTracker.minShare, retune: Double = 0.25, lag: Int? = nil, shorter: Bool = false
    ) -> Double? {
        guard estimate >= minimumFrequency else { count = 0; return nil }
        // Keep the probe frequency fixed while the estimate stays within `retune` semitones
        // (a quarter by default), so consecutive phases are comparable.
        if count == 0 || abs(12 * log2(estimate / probe)) > retune {
            probe = estimate
            count = 0
        }
        let w = 2 * Double.pi * probe / sampleRate
        // Complex DFT at the probe frequency (CKernels), phase referenced to absolute time.
        if w != tableW {
            spv_probe_table(hann.base, Int32(size), w, tableRe.base, tableIm.base)
            tableW = w
        }
        var bin = (0.0, 0.0)
        withUnsafeMutableBytes(of: &bin) { b in
            spv_dot_pair(window, tableRe.base, tableIm.base, Int32(size), b.baseAddress!.assumingMemoryBound(to: Double.self))
        }
        let (re, im) = bin
        let start = endSample - size
        // Energy share of the partial: |X|² for a Hann window ≈ (A·N/4)², A² / 2 = power.
        let amplitude = 4 * (re * re + im * im).squareRoot() / Double(size)
        share = energy > 0 ? (0.5 * amplitude * amplitude * Double(size)) / energy : 0
        let phase = atan2(im, re) - w * Double(start) // phase of the partial at sample 0
        // The oldest of the last `span` measurements sits where this one goes.
        var back = min(span, max(1, lag ?? span))
        if shorter { back = max(1, min(back, count)) } // the longest history there is
        let earlier = (next - back + span) % span
        let earlierPhase = phases[earlier], earlierTime = times[earlier]
        let ready = count >= back
        phases[next] = phase
        times[next] = endSample
        next = (next + 1) % span
        count = min(span, count + 1)
        guard ready, share >= minShare, endSample > earlierTime else { return nil }
        // The partial's phase at sample 0 drifts by 2π·(f − probe)·t/rate: its slope is the offset.
        var d = phase - earlierPhase
        d -= 2 * Double.pi * (d / (2 * Double.pi)).rounded()
        let hop = Double(endSample - earlierTime)
        return probe + d * sampleRate / (2 * Double.pi * hop)
    }
}
