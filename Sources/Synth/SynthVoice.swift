/// One voice of the reference-tone synthesiser, seed 004 §7:
/// PolyBLEP saw -> SVF low-pass (Q 0.707, cutoff 2×f0 clamped 220–5000 Hz and
/// ≤ 0.45·Nyquist) -> ×1.4 -> soft clip x/(1+|x|) -> fade envelope (attack 25 ms,
/// release 250 ms).
///
/// The chain runs at `oversampling` × the output rate (2×): the saturator regenerates
/// harmonics above Nyquist, and at the output rate their images (E6 at 48 kHz: −57 dB)
/// break the −60 dB alias budget; at 2× they fall where `Decimator` removes them.
///
/// The envelope is a linear "fade" ramp shaped by smoothstep (3f² − 2f³), so that its
/// slope is zero at both ends: starts and ends add no step and no kink. A value type;
/// the engine keeps a fixed array of them. Nothing here allocates.
public struct SynthVoice: Sendable, BitwiseCopyable {
    public enum Stage: Sendable, BitwiseCopyable { case idle, attack, sustain, release }

    /// Voice amplitude ahead of the saturator (seed 004 §7: "the voice amplitude used (1.4)").
    public static let drive: Float = 1.4
    /// Internal rate ÷ output rate.
    public static let oversampling = 2
    /// Attack time (s).
    public static let attackSeconds = 0.025
    /// Release time (s) from full level.
    public static let releaseSeconds = 0.25

    /// Cutoff rule of seed 004 §7: 2×f0, clamped to 220…5000 Hz and to ≤ 0.45·Nyquist (Hz).
    public static func cutoff(for frequency: Double, sampleRate: Double) -> Double {
        min(min(max(2 * frequency, 220), 5000), 0.45 * sampleRate / 2)
    }

    public private(set) var stage: Stage = .idle
    /// Fundamental (Hz); meaningful while not idle.
    public private(set) var frequency: Double = 0
    /// Linear envelope position 0…1 (the seed's fadeGain before shaping).
    public private(set) var fade: Float = 0
    /// Start order: larger is newer. Used to find the oldest latched note.
    public var order: UInt64 = 0

    var oscillator = PolyBLEPSaw()
    var filter = SVFLowPass()
    var attackStep: Float = 0
    var releaseStep: Float = 0

    public init() {}

    /// True while the voice is held (attack or sustain), i.e. counts towards the cap of 3.
    public var isHeld: Bool { stage == .attack || stage == .sustain }

    /// The envelope gain now (smoothstep of `fade`), 0…1.
    public var gain: Float { fade * fade * (3 - 2 * fade) }

    /// Starts a fresh note: phase, filter state and envelope are all reset (seed 004 §7,
    /// voice stealing). Frequency in Hz; `sampleRate` is the output rate (Hz); the voice
    /// renders at `oversampling` times it.
    public mutating func start(frequency: Double, sampleRate: Double, order: UInt64) {
        let internalRate = sampleRate * Double(SynthVoice.oversampling)
        self.frequency = frequency
        self.order = order
        oscillator.setFrequency(frequency, sampleRate: internalRate)
        oscillator.reset()
        filter.setCutoff(SynthVoice.cutoff(for: frequency, sampleRate: sampleRate), sampleRate: internalRate)
        filter.reset()
        attackStep = Float(1 / (SynthVoice.attackSeconds * internalRate))
        releaseStep = Float(1 / (SynthVoice.releaseSeconds * internalRate))
        fade = 0
        stage = .attack
    }

    /// Lifts a releasing voice back into its attack without touching phase or filter:
    /// the click-free same-frequency retrigger of seed 004 §7.
    public mutating func retrigger(order: UInt64) {
        guard stage != .idle else { return }
        self.order = order
        stage = fade >= 1 ? .sustain : .attack
    }

    /// Begins the release from the current level.
    public mutating func release() {
        if stage != .idle { stage = .release }
    }

    /// Begins a fast release of `seconds` (used for a voice that was stolen); `sampleRate`
    /// is the output rate (Hz).
    public mutating func fastRelease(seconds: Double, sampleRate: Double) {
        guard stage != .idle else { return }
        releaseStep = Float(1 / (seconds * sampleRate * Double(SynthVoice.oversampling)))
        stage = .release
    }

    /// Adds `count` samples (at the internal, oversampled rate) of this voice to `output` and
    /// its envelope gain to `weights` (the polyphony AGC's envelope-weighted voice count).
    /// Does not allocate.
    public mutating func render(
        adding output: UnsafeMutablePointer<Float>,
        weights: UnsafeMutablePointer<Float>, count: Int
    ) {
        guard stage != .idle else { return }
        var osc = oscillator
        var lp = filter
        var f = fade
        var st = stage
        let up = attackStep, down = releaseStep
        for i in 0..<count {
            switch st {
            case .attack:
                f += up
                if f >= 1 { f = 1; st = .sustain }
            case .release:
                f -= down
                if f <= 0 { f = 0; st = .idle }
            case .sustain, .idle:
                break
            }
            let x = lp.process(osc.next()) * SynthVoice.drive
            let shaped = x / (1 + abs(x))
            let g = f * f * (3 - 2 * f)
            output[i] += shaped * g
            weights[i] += g
            if st == .idle { break }
        }
        oscillator = osc
        filter = lp
        fade = f
        stage = st
    }
}
