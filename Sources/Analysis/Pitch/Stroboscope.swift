import SpecvizCore

#if canImport(Glibc)
import Glibc
#endif

/// What the stroboscope shows for harmonics 1…4 of the target note: the phase drift
/// velocity (rad/s, positive when the harmonic is sharp of k·f_target, capped at
/// ±120 rad/s) and a band brightness 0…1 from the harmonic's level.
public struct StrobeReading: Sendable, Equatable {
    /// Phase velocity of harmonic k (index k − 1) in rad/s, within ±`StroboscopeAnalyzer.maxVelocity`.
    public var velocity: SIMD4<Float>
    /// Brightness of harmonic k's band, 0…1 (−70 dBFS → 0, −20 dBFS and louder → 1).
    public var energy: SIMD4<Float>

    public init(velocity: SIMD4<Float> = .zero, energy: SIMD4<Float> = .zero) {
        self.velocity = velocity
        self.energy = energy
    }
}

/// Heterodyne stroboscope (seed 004 §3.2 "Stroboscopic meter", §9): for each harmonic
/// k = 1…4 of the target frequency f_t, a Hann-windowed single-bin DFT (Goertzel-style
/// probe) at k·f_t over the last `window` samples, referenced to the ABSOLUTE sample
/// clock: z_k(n₀) = Σ w[m]·x[n₀+m]·e^(−i·2π·k·f_t·(n₀+m)/fs). A tone at f gives
/// arg z_k advancing at 2π·k·(f − f_t) rad/s — zero when in tune, positive when sharp.
///
/// The probe runs every `hop` samples (≤ 5.4 ms at 48 kHz), so the phase step per probe
/// stays below π up to ±93 Hz of deviation per harmonic and can be unwrapped; harmonic
/// k's step is unwrapped around k × the fundamental's step, which keeps harmonic 4 right
/// even when harmonic 1 is weak-but-present. Velocity = unwrapped phase change over the
/// samples consumed since the last `reading`, capped at ±120 rad/s (the seed's
/// photosensitivity limit: ~19 Hz visible flicker at most).
///
/// All storage at construction; `process` does not allocate.
public final class StroboscopeAnalyzer {
    /// The seed's photosensitivity cap on the phase velocity (rad/s).
    public static let maxVelocity: Float = 120
    public let sampleRate: Double
    /// Probe length (samples).
    public let window: Int
    /// Samples between probes.
    public let hop: Int
    public private(set) var targetFrequency: Double = 0

    private let ring: OwnedBuffer<Float>
    private let hann: OwnedBuffer<Float>
    private var writeIndex = 0
    /// Absolute index of the next sample to arrive.
    private var clock: Int64 = 0
    private var sinceProbe = 0
    private var lastPhase = SIMD4<Double>.zero
    private var havePhase = false
    /// Unwrapped phase accumulated since the last `reading()` (rad) and the samples it spans.
    private var accumulated = SIMD4<Double>.zero
    private var accumulatedSamples = 0
    private var amplitude = SIMD4<Double>.zero
    private let windowSum: Double

    /// - Parameters:
    ///   - sampleRate: input rate (Hz).
    ///   - window: probe length; the default 2048 holds 3.5 periods of E2 at 48 kHz.
    public init(sampleRate: Double, window: Int = 2048) {
        precondition(sampleRate > 0 && window >= 64)
        self.sampleRate = sampleRate
        self.window = window
        hop = max(16, Int(sampleRate * 0.005))
        ring = OwnedBuffer(zeroed: window)
        hann = OwnedBuffer(zeroed: window)
        var sum = 0.0
        for i in 0..<window {
            let w = 0.5 - 0.5 * cos(2 * Double.pi * Double(i) / Double(window))
            hann[i] = Float(w)
            sum += w
        }
        windowSum = sum
    }

    /// Sets the target note's frequency (Hz); a change restarts the phase tracking.
    /// Pass 0 (or less) when nothing is detected: the reading then decays to still and dark.
    public func setTarget(frequency: Double) {
        guard abs(frequency - targetFrequency) > 1e-9 else { return }
        targetFrequency = frequency
        havePhase = false
        accumulated = .zero
        accumulatedSamples = 0
        amplitude = .zero
    }

    /// Consumes mono samples (any count); probes every `hop` samples. Does not allocate.
    public func process(_ samples: UnsafeBufferPointer<Float>) {
        for s in samples {
            ring[writeIndex] = s
            writeIndex = writeIndex + 1 == window ? 0 : writeIndex + 1
            clock += 1
            sinceProbe += 1
            if sinceProbe >= hop {
                sinceProbe = 0
                if targetFrequency > 0 && clock >= Int64(window) { probe() }
            }
        }
    }

    /// Convenience for arrays.
    public func process(_ samples: [Float]) {
        samples.withUnsafeBufferPointer { process($0) }
    }

    /// Velocity over the samples consumed since the previous call, and the current
    /// brightness; resets the accumulator.
    public func reading() -> StrobeReading {
        var r = StrobeReading()
        guard targetFrequency > 0 else { return r }
        if accumulatedSamples > 0 {
            let seconds = Double(accumulatedSamples) / sampleRate
            for k in 0..<4 {
                let v = Float(accumulated[k] / seconds)
                r.velocity[k] = min(max(v, -StroboscopeAnalyzer.maxVelocity), StroboscopeAnalyzer.maxVelocity)
            }
        }
        for k in 0..<4 {
            let db = 20 * log10(max(amplitude[k], 1e-9))
            r.energy[k] = Float(min(max((db + 70) / 50, 0), 1))
        }
        accumulated = .zero
        accumulatedSamples = 0
        return r
    }

    /// One probe of the four harmonics on the ring's last `window` samples.
    private func probe() {
        let start = clock - Int64(window)
        var phases = SIMD4<Double>.zero
        for k in 0..<4 {
            let cyclesPerSample = Double(k + 1) * targetFrequency / sampleRate
            guard cyclesPerSample < 0.5 else { amplitude[k] = 0; phases[k] = lastPhase[k]; continue }
            // Phasor of sample `start` on the absolute clock, reduced mod 1 cycle for precision.
            let startCycles = (Double(start) * cyclesPerSample).truncatingRemainder(dividingBy: 1)
            let step = -2 * Double.pi * cyclesPerSample
            let dc = cos(step), ds = sin(step)
            var c = cos(-2 * Double.pi * startCycles), s = sin(-2 * Double.pi * startCycles)
            var re = 0.0, im = 0.0
            var j = writeIndex // oldest sample
            for m in 0..<window {
                let x = Double(ring[j] * hann[m])
                re += x * c
                im += x * s
                let nc = c * dc - s * ds
                s = c * ds + s * dc
                c = nc
                j = j + 1 == window ? 0 : j + 1
            }
            amplitude[k] = 2 * (re * re + im * im).squareRoot() / windowSum
            phases[k] = atan2(im, re)
        }
        if havePhase {
            var delta = phases - lastPhase
            delta[0] = StroboscopeAnalyzer.wrap(delta[0])
            // Unwrap around k × the fundamental's step when the fundamental is present.
            let fundamentalPresent = amplitude[0] > 3e-4
            for k in 1..<4 {
                let predicted = fundamentalPresent ? Double(k + 1) * delta[0] : 0
                delta[k] = predicted + StroboscopeAnalyzer.wrap(delta[k] - predicted)
            }
            accumulated += delta
            accumulatedSamples += hop
        } else {
            havePhase = true
        }
        lastPhase = phases
    }

    /// Wraps an angle into (−π, π].
    @inline(__always)
    static func wrap(_ a: Double) -> Double {
        var x = a.truncatingRemainder(dividingBy: 2 * Double.pi)
        if x > Double.pi { x -= 2 * Double.pi }
        if x <= -Double.pi { x += 2 * Double.pi }
        return x
    }
}
