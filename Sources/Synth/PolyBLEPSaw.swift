/// A band-limited sawtooth oscillator (PolyBLEP), seed 004 §7 "Voice architecture".
///
/// The naive saw `2·phase − 1` jumps by −2 once per period; that step aliases badly
/// above about a quarter of Nyquist. PolyBLEP (Välimäki & Huovilainen, "Antialiasing
/// oscillators in subtractive synthesis", IEEE SPM 2007) subtracts a two-sample
/// polynomial approximation of the band-limited step residual around each wrap, which
/// removes most of the aliased energy at the cost of a few multiplies per sample.
///
/// The phase is kept in `Double` so that the long-run frequency is exact to far better
/// than 0.01 cent (a `Float` phase accumulator drifts by ~0.03 cent at low notes).
/// A value type: copying it copies the whole state. Does not allocate.
public struct PolyBLEPSaw: Sendable, BitwiseCopyable {
    /// Phase in cycles, 0 ..< 1.
    public private(set) var phase: Double = 0
    /// Phase increment per sample: frequency (Hz) / sample rate (Hz). Kept below 0.5.
    public private(set) var increment: Double = 0

    public init() {}

    /// Sets the frequency (Hz) for a sample rate (Hz) without touching the phase.
    public mutating func setFrequency(_ hertz: Double, sampleRate: Double) {
        increment = min(max(hertz / sampleRate, 0), 0.49)
    }

    /// Restarts at phase 0; the first sample is then exactly 0 (the BLEP-corrected
    /// midpoint of the wrap), so a new note begins without a step.
    public mutating func reset() { phase = 0 }

    /// The next sample, in −1 … 1 (before the polynomial correction's small overshoot).
    public mutating func next() -> Float {
        let t = phase
        let dt = increment
        var value = 2 * t - 1
        // Polynomial residual of the band-limited step, one sample either side of the wrap.
        if t < dt {
            let x = t / dt
            value -= x + x - x * x - 1
        } else if t > 1 - dt {
            let x = (t - 1) / dt
            value -= x * x + x + x + 1
        }
        var p = t + dt
        if p >= 1 { p -= 1 }
        phase = p
        return Float(value)
    }
}
