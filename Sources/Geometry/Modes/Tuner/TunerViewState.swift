import Analysis
import Tuning

#if canImport(Glibc)
import Glibc
#endif

/// Which primary meter (and its paired sub-meter) the tuner view shows (seed 004 §3.2):
/// LED arc + chromatic strip, note wheel + ±100¢ ruler, stroboscope + info bar.
public enum TunerMeter: String, CaseIterable, Sendable {
    case arc, wheel, strobe

    /// The next pair (the seed's "Mode" button; the live key cycles with it).
    public var next: TunerMeter {
        switch self {
        case .arc: return .wheel
        case .wheel: return .strobe
        case .strobe: return .arc
        }
    }
}

/// What the tuner view's meters show at one video frame, smoothed at the video rate.
///
/// Built from the pitch display (frequency, target note, cents vs target, in-tune) and the
/// stroboscope reading by one call per video frame, `update(...)`. Values persist through
/// `---` so the wheel rests where it was and the strobe bands fade out instead of jumping.
public struct TunerViewState: Sendable, Equatable {
    /// Time constant of the cents smoothing (s): the needle-like glide of the meters.
    public static let centsTimeConstant = 0.06
    /// Time constant of the strobe bands' brightness (s).
    public static let energyTimeConstant = 0.05
    /// In tune within ±5¢ (SPEC §5; `TuningTolerance.inTune`).
    public static let inTuneCents = TuningTolerance.inTune

    /// A pitch is displayed (false = `---`).
    public var detected = false
    /// Displayed frequency (Hz).
    public var frequency = 0.0
    /// Smoothed cents offset from the target (−∞…∞; meters clamp as they need).
    public var cents = 0.0
    /// The note the cents are measured against (nearest preset note).
    public var target = Note(midi: 69)
    /// The smoothed cents' class (`TuningTolerance`); `.far` while nothing is detected.
    public var tuningClass = TuningClass.far
    /// The pitched source does not dominate its band (`TunerReading.unsure`, a kick under a
    /// bass): every meter shows the reading grey, with no cents and no in-tune glow.
    public var unsure = false
    /// Within ±5¢ of the target, and sure of it.
    public var inTune: Bool { tuningClass == .inTune && !unsure }
    /// Continuous wheel position in semitones (MIDI number + cents/100), kept through `---`.
    public var wheelPosition = 69.0
    /// Stroboscope band phases (rad, wrapped to 0…2π) for harmonics 1…4.
    public var strobePhase = SIMD4<Float>.zero
    /// Stroboscope phase velocity used for the last step (rad/s, within ±120).
    public var strobeVelocity = SIMD4<Float>.zero
    /// Stroboscope band brightness 0…1.
    public var strobeEnergy = SIMD4<Float>.zero

    public init() {}

    /// A settled state for tests and golden frames: `cents` off `target`, fully smoothed,
    /// strobe bands at the given phases and energies (velocity 0).
    public init(
        target: Note, cents: Double, reference: Double = 440,
        strobePhase: SIMD4<Float> = .zero, strobeEnergy: SIMD4<Float> = SIMD4(1, 0.8, 0.6, 0.4)
    ) {
        let hz = target.frequency(reference: reference) * pow(2, cents / 1200)
        update(frequency: hz, target: target, cents: cents, reading: nil, dt: 10)
        self.strobePhase = strobePhase
        self.strobeEnergy = strobeEnergy
    }

    /// Advances one video frame (the wiring's single call).
    ///
    /// - Parameters:
    ///   - frequency: displayed frequency in Hz, or nil when the tuner shows `---`.
    ///   - target: the target note (nearest preset note); ignored when `frequency` is nil.
    ///   - cents: cents of `frequency` relative to `target`.
    ///   - reading: the stroboscope's reading for this frame (nil: bands fade, motion stops).
    ///   - dt: video frame duration (s).
    public mutating func update(frequency: Double?, target: Note, cents: Double, reading: StrobeReading?, dt: Double) {
        let dt = max(0, dt)
        let a = 1 - exp(-dt / TunerViewState.centsTimeConstant)
        if let f = frequency, f > 0, cents.isFinite {
            if !detected || target != self.target {
                // New note: snap, then glide.
                self.cents = cents
            } else {
                self.cents += (cents - self.cents) * a
            }
            self.target = target
            self.frequency = f
            detected = true
            tuningClass = TuningTolerance.classify(cents: self.cents)
            wheelPosition = Double(target.midi) + self.cents / 100
        } else {
            detected = false
            tuningClass = .far
        }
        let e = Float(1 - exp(-dt / TunerViewState.energyTimeConstant))
        let cap = StroboscopeAnalyzer.maxVelocity
        if let r = reading, detected {
            strobeVelocity = simdClamp(r.velocity, -cap, cap)
            strobeEnergy += (r.energy - strobeEnergy) * e
        } else {
            strobeVelocity = .zero
            strobeEnergy -= strobeEnergy * e
        }
        strobePhase = TunerViewState.advance(strobePhase, velocity: strobeVelocity, dt: Float(dt))
    }

    /// Advances one video frame from the pitch display (`PitchTracker.display`; nil = `---`)
    /// and the stroboscope's reading — the wiring's single call per video frame.
    public mutating func update(_ display: TunerReading?, strobe: StrobeReading?, dt: Double) {
        if let d = display {
            update(frequency: d.frequency, target: d.target, cents: d.cents, reading: strobe, dt: dt)
        } else {
            update(frequency: nil, target: target, cents: 0, reading: strobe, dt: dt)
        }
        unsure = display?.unsure ?? false
    }

    /// Integrates the band phases: φ += ω·dt (ω capped at ±120 rad/s), wrapped to 0…2π.
    public static func advance(_ phase: SIMD4<Float>, velocity: SIMD4<Float>, dt: Float) -> SIMD4<Float> {
        let cap = StroboscopeAnalyzer.maxVelocity
        var p = phase + simdClamp(velocity, -cap, cap) * dt
        let twoPi = 2 * Float.pi
        for k in 0..<4 {
            p[k] = p[k] - twoPi * (p[k] / twoPi).rounded(.down)
        }
        return p
    }
}

@inline(__always) func simdClamp(_ v: SIMD4<Float>, _ lo: Float, _ hi: Float) -> SIMD4<Float> {
    v.replacing(with: SIMD4(repeating: lo), where: v .< lo).replacing(with: SIMD4(repeating: hi), where: v .> hi)
}
