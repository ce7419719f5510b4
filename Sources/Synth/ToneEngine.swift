import SpecvizCore

#if canImport(Glibc)
import Glibc
#endif

/// The polyphonic reference-tone engine of seed 004 §§7–8 (SPEC §7).
///
/// Voices: 8 slots, at most 3 held ("sounding") at once; the other slots carry release
/// tails so a new note never cuts one that is still fading. A fourth note releases the
/// oldest held one; when every slot is busy the quietest releasing voice is stolen (its
/// remainder moves to a 5 ms fade-out slot, so a steal never clicks). A note asked for again
/// while its voice is releasing is lifted back into the attack without a phase reset.
///
/// Voices render at 2× the output rate (see `SynthVoice`); the mix is brought back to the
/// output rate by `Decimator` before the output chain.
///
/// Output chain: voice mix -> polyphony AGC (gain 1/max(1, Σ envelope gains), 20 ms
/// attack / 200 ms release) -> `level` -> optional speaker voicing (LR4 high-pass 140 Hz)
/// -> 64-sample look-ahead limiter (ceiling 0.95). Mono output.
///
/// All buffers are allocated at construction; `render` does not allocate.
public final class ToneEngine {
    /// Voice slots (seed 004 §7).
    public static let slotCount = 8
    /// Voices that may be held at once (seed 004 §7).
    public static let maxSounding = 3
    /// Fade time of a stolen voice (s).
    public static let stealFadeSeconds = 0.005
    /// Internal block length (samples); `render` accepts any length.
    public static let blockSize = 512

    /// Sample rate (Hz).
    public let sampleRate: Double
    /// Engage the speaker high-pass (seed 004 §8). May be switched at any time.
    public var speakerVoicing: Bool
    /// Linear gain after the AGC (1 = normal; the start chime uses a lower level).
    public var level: Float = 1
    /// Notes stolen so far (for tests and diagnostics).
    public private(set) var stealCount = 0

    private let voices: OwnedBuffer<SynthVoice>
    private static let fadeSlots = 2
    private let fading: OwnedBuffer<SynthVoice>
    private let mix: OwnedBuffer<Float>
    private let highRateMix: OwnedBuffer<Float>
    private let decimator: Decimator
    private let weights: OwnedBuffer<Float>
    private var highPass: SpeakerVoicing
    public let limiter: LookAheadLimiter
    private var agc: Float = 1
    private let agcAttack: Float
    private let agcRelease: Float
    private var nextOrder: UInt64 = 1
    private var silentSamples = 0

    /// - Parameters: sampleRate (Hz, 8000–192000), speakerVoicing (LR4 140 Hz high-pass on).
    public init(sampleRate: Double, speakerVoicing: Bool = false) {
        self.sampleRate = sampleRate
        self.speakerVoicing = speakerVoicing
        voices = OwnedBuffer(count: ToneEngine.slotCount, repeating: SynthVoice())
        fading = OwnedBuffer(count: ToneEngine.fadeSlots, repeating: SynthVoice())
        let high = ToneEngine.blockSize * SynthVoice.oversampling
        mix = OwnedBuffer(zeroed: ToneEngine.blockSize)
        highRateMix = OwnedBuffer(zeroed: high)
        weights = OwnedBuffer(zeroed: high)
        decimator = Decimator(maxInput: high)
        highPass = SpeakerVoicing(sampleRate: sampleRate)
        limiter = LookAheadLimiter(sampleRate: sampleRate)
        agcAttack = Float(1 - exp(-1 / (0.020 * sampleRate)))
        agcRelease = Float(1 - exp(-1 / (0.200 * sampleRate)))
    }

    /// Voices held now (attack or sustain).
    public var soundingCount: Int {
        (0..<ToneEngine.slotCount).reduce(0) { $0 + (voices[$1].isHeld ? 1 : 0) }
    }

    /// Slots not idle (held or releasing).
    public var busyCount: Int {
        (0..<ToneEngine.slotCount).reduce(0) { $0 + (voices[$1].stage == .idle ? 0 : 1) }
    }

    /// True once every voice is idle and the output chain has flushed (decimator and
    /// look-ahead delays plus 10 ms), i.e. rendering further would only give silence.
    public var isSilent: Bool {
        silentSamples >= Decimator.taps + LookAheadLimiter.lookAhead + Int(0.01 * sampleRate)
    }

    private static func same(_ a: Double, _ b: Double) -> Bool { abs(a - b) <= 1e-9 * max(a, b) }

    /// Starts (or keeps) a note at `frequency` (Hz). Does not allocate.
    public func noteOn(frequency: Double) {
        let f = min(max(frequency, 1), 0.45 * sampleRate)
        for i in 0..<ToneEngine.slotCount where voices[i].isHeld && Self.same(voices[i].frequency, f) { return }
        // A fourth distinct note releases the oldest held one (seed 004 §7, ribbon steal).
        if soundingCount >= ToneEngine.maxSounding {
            var oldest = -1
            for i in 0..<ToneEngine.slotCount where voices[i].isHeld {
                if oldest < 0 || voices[i].order < voices[oldest].order { oldest = i }
            }
            if oldest >= 0 { voices[oldest].release() }
        }
        let order = nextOrder
        nextOrder += 1
        silentSamples = 0
        // Click-free retrigger of a releasing voice at the same frequency.
        for i in 0..<ToneEngine.slotCount where voices[i].stage == .release && Self.same(voices[i].frequency, f) {
            voices[i].retrigger(order: order)
            return
        }
        var slot = -1
        for i in 0..<ToneEngine.slotCount where voices[i].stage == .idle { slot = i; break }
        if slot < 0 {
            // Steal the quietest releasing voice; its remainder fades out in 5 ms.
            for i in 0..<ToneEngine.slotCount where !voices[i].isHeld {
                if slot < 0 || voices[i].fade < voices[slot].fade { slot = i }
            }
            if slot < 0 { slot = 0 }
            var quietest = 0
            for j in 1..<ToneEngine.fadeSlots where fading[j].fade < fading[quietest].fade { quietest = j }
            fading[quietest] = voices[slot]
            fading[quietest].fastRelease(seconds: ToneEngine.stealFadeSeconds, sampleRate: sampleRate)
            stealCount += 1
        }
        voices[slot].start(frequency: f, sampleRate: sampleRate, order: order)
    }

    /// Releases the note at `frequency` (Hz), if it is held.
    public func noteOff(frequency: Double) {
        let f = min(max(frequency, 1), 0.45 * sampleRate)
        for i in 0..<ToneEngine.slotCount where voices[i].isHeld && Self.same(voices[i].frequency, f) {
            voices[i].release()
        }
    }

    /// Renders mono samples into `output` (any length). Does not allocate.
    public func render(into output: UnsafeMutableBufferPointer<Float>) {
        var done = 0
        while done < output.count {
            let n = min(ToneEngine.blockSize, output.count - done)
            renderBlock(into: UnsafeMutableBufferPointer(rebasing: output[done..<done + n]))
            done += n
        }
    }

    private func renderBlock(into out: UnsafeMutableBufferPointer<Float>) {
        let n = out.count
        let os = SynthVoice.oversampling
        let high = n * os
        highRateMix.base.update(repeating: 0, count: high)
        weights.base.update(repeating: 0, count: high)
        var anyBusy = false
        for i in 0..<ToneEngine.slotCount where voices[i].stage != .idle {
            voices[i].render(adding: highRateMix.base, weights: weights.base, count: high)
            anyBusy = true
        }
        for j in 0..<ToneEngine.fadeSlots where fading[j].stage != .idle {
            fading[j].render(adding: highRateMix.base, weights: weights.base, count: high)
            anyBusy = true
        }
        decimator.process(highRateMix.base, count: high, into: mix.base)
        silentSamples = anyBusy ? 0 : silentSamples + n
        // Polyphony AGC: 1/max(1, envelope-weighted voice count), 20 ms down / 200 ms up.
        var g = agc
        let lvl = level
        for i in 0..<n {
            let target = 1 / max(1, weights[i * os + os - 1])
            g += (target - g) * (target < g ? agcAttack : agcRelease)
            out[i] = mix[i] * g * lvl
        }
        agc = g
        if speakerVoicing { highPass.process(out) }
        limiter.process(out)
    }
}
