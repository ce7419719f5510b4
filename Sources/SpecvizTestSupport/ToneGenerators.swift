#if canImport(Glibc)
import Glibc
#endif

/// A small deterministic PRNG (SplitMix64) so test signals are reproducible everywhere.
public struct SeededRandom: RandomNumberGenerator, Sendable {
    private var state: UInt64
    public init(seed: UInt64) { state = seed }
    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
    /// Uniform in [-1, 1).
    public mutating func uniform() -> Double { Double(next() >> 11) / Double(1 << 52) - 1 }
    /// Standard normal (Box–Muller).
    public mutating func gaussian() -> Double {
        let u1 = max(Double(next() >> 11) / Double(1 << 53), 1e-300)
        let u2 = Double(next() >> 11) / Double(1 << 53)
        return (-2 * log(u1)).squareRoot() * cos(2 * Double.pi * u2)
    }
}

/// Test signal generators: sines, harmonic tones, pink and white noise, mains hum.
/// Amplitudes are linear (1 = full scale); frequencies in Hz; durations in seconds.
public enum ToneGenerators {
    /// A sine of `frequency` Hz, `amplitude` peak, starting at `phase` radians.
    public static func sine(
        frequency: Double, sampleRate: Int, duration: Double,
        amplitude: Double = 0.5, phase: Double = 0
    ) -> [Float] {
        let n = Int(duration * Double(sampleRate))
        let w = 2 * Double.pi * frequency / Double(sampleRate)
        return (0..<n).map { Float(amplitude * sin(w * Double($0) + phase)) }
    }

    /// A harmonic tone: partial k (1-based) has amplitude `amplitudes[k-1]` relative to
    /// `amplitude`, and frequency k·f0·√(1 + B·k²) (B = inharmonicity, 0 = harmonic).
    /// Phases are seeded so the waveform is not a pulse. `decay` is an exponential time
    /// constant in seconds (nil = steady).
    public static func harmonic(
        f0: Double, amplitudes: [Double], sampleRate: Int, duration: Double,
        amplitude: Double = 0.5, inharmonicity: Double = 0,
        decay: Double? = nil, seed: UInt64 = 1
    ) -> [Float] {
        let n = Int(duration * Double(sampleRate))
        var rng = SeededRandom(seed: seed)
        let nyquist = 0.5 * Double(sampleRate)
        var partials: [(w: Double, a: Double, p: Double)] = []
        for (i, a) in amplitudes.enumerated() where a != 0 {
            let k = Double(i + 1)
            let f = k * f0 * (1 + inharmonicity * k * k).squareRoot()
            if f < 0.95 * nyquist {
                partials.append((2 * Double.pi * f / Double(sampleRate), a, Double.pi * rng.uniform()))
            }
        }
        let norm = amplitude / max(1e-12, partials.reduce(0) { $0 + abs($1.a) })
        var out = [Float](repeating: 0, count: n)
        for i in 0..<n {
            var s = 0.0
            let t = Double(i)
            for p in partials { s += p.a * sin(p.w * t + p.p) }
            let env = decay.map { exp(-t / (Double(sampleRate) * $0)) } ?? 1
            out[i] = Float(s * norm * env)
        }
        return out
    }

    /// Amplitudes 1/k for `count` partials (a sawtooth-like spectrum).
    public static func sawtoothAmplitudes(_ count: Int) -> [Double] { (1...count).map { 1 / Double($0) } }

    /// White Gaussian noise with RMS `rms`.
    public static func whiteNoise(sampleRate: Int, duration: Double, rms: Double, seed: UInt64 = 7) -> [Float] {
        var rng = SeededRandom(seed: seed)
        return (0..<Int(duration * Double(sampleRate))).map { _ in Float(rms * rng.gaussian()) }
    }

    /// Pink (1/f) noise with RMS `rms` (Paul Kellett's refined filter on white noise).
    public static func pinkNoise(sampleRate: Int, duration: Double, rms: Double, seed: UInt64 = 11) -> [Float] {
        var rng = SeededRandom(seed: seed)
        let n = Int(duration * Double(sampleRate))
        var b0 = 0.0, b1 = 0.0, b2 = 0.0, b3 = 0.0, b4 = 0.0, b5 = 0.0, b6 = 0.0
        var raw = [Double](repeating: 0, count: n)
        for i in 0..<n {
            let w = rng.gaussian()
            b0 = 0.99886 * b0 + w * 0.0555179; b1 = 0.99332 * b1 + w * 0.0750759
            b2 = 0.96900 * b2 + w * 0.1538520; b3 = 0.86650 * b3 + w * 0.3104856
            b4 = 0.55000 * b4 + w * 0.5329522; b5 = -0.7616 * b5 - w * 0.0168980
            raw[i] = b0 + b1 + b2 + b3 + b4 + b5 + b6 + w * 0.5362
            b6 = w * 0.115926
        }
        let r = (raw.reduce(0) { $0 + $1 * $1 } / Double(max(n, 1))).squareRoot()
        return raw.map { Float($0 * rms / max(r, 1e-30)) }
    }

    /// Mains hum: `mains` Hz (50 or 60) with odd-heavy harmonics 1…8, peak `amplitude`.
    public static func hum(mains: Double, sampleRate: Int, duration: Double, amplitude: Double = 0.1) -> [Float] {
        harmonic(
            f0: mains, amplitudes: [1, 0.5, 0.6, 0.2, 0.3, 0.1, 0.15, 0.05], sampleRate: sampleRate,
            duration: duration, amplitude: amplitude, seed: 3)
    }

    /// RMS of a signal.
    public static func rms(_ x: [Float]) -> Double {
        (x.reduce(0) { $0 + Double($1) * Double($1) } / Double(max(x.count, 1))).squareRoot()
    }

    /// Sample-wise sum `a + gain·b` over the shorter length.
    public static func mix(_ a: [Float], _ b: [Float], gain: Double = 1) -> [Float] {
        (0..<min(a.count, b.count)).map { a[$0] + Float(gain) * b[$0] }
    }

    /// `signal` plus `noise` scaled to `snr` dB below the signal's RMS.
    public static func addNoise(_ signal: [Float], _ noise: [Float], snr: Double) -> [Float] {
        let g = rms(signal) / max(rms(noise), 1e-30) / pow(10, snr / 20)
        return mix(signal, noise, gain: g)
    }
}
