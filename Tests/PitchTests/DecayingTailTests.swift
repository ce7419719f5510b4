import Analysis
import SpecvizTestSupport
import Tuning
import XCTest

/// Issue 19: a note's decaying tail keeps the note it had or goes blank; it never shows a
/// different note (the hum under it, or a subharmonic of the note).
final class DecayingTailTests: XCTestCase {
    /// The notes the display showed from `from` seconds on (MIDI numbers, in order, no repeats).
    private func shownNotes(_ hops: [HopRecord], from: Double) -> [Int] {
        var out: [Int] = []
        for h in hops where h.time >= from {
            if let m = h.display?.note.midi, out.last != m { out.append(m) }
        }
        return out
    }

    /// A plucked note (exponential decay, 0.35 s time constant) over steady mains hum: as the
    /// note sinks under the hum the display must not move to the hum or to a subharmonic.
    func testDecayIntoHumShowsNoOtherNote() {
        let sr = 48000
        for (f0, mains) in [(436.6, 60.0), (511.8, 60.0), (387.2, 50.0), (99.1, 50.0), (149.2, 50.0)] {
            let note = ToneGenerators.harmonic(
                f0: f0, amplitudes: [1, 0.5, 0.35, 0.25, 0.15, 0.1], sampleRate: sr,
                duration: 3.5, amplitude: 0.5, decay: 0.35)
            let hum = ToneGenerators.hum(mains: mains, sampleRate: sr, duration: 3.5, amplitude: 0.01)
            let hops = track(ToneGenerators.mix(note, hum), sampleRate: sr)
            let expected = Int(Note.midiValue(frequency: f0).rounded())
            let shown = shownNotes(hops, from: 0)
            XCTAssertEqual(shown.first, expected, "\(f0) Hz in \(mains) Hz hum: first note")
            XCTAssertEqual(shown, [expected], "\(f0) Hz in \(mains) Hz hum: the tail showed other notes")
        }
    }

    /// The same in low rumble (noise below 120 Hz) and in pink noise.
    func testDecayIntoNoiseShowsNoOtherNote() {
        let sr = 48000
        var rumble = ToneGenerators.whiteNoise(sampleRate: sr, duration: 3.5, rms: 1, seed: 5)
        var lp = 0.0, lp2 = 0.0
        for i in rumble.indices { // two one-pole low-passes at ~60 Hz
            lp += 0.008 * (Double(rumble[i]) - lp); lp2 += 0.008 * (lp - lp2); rumble[i] = Float(lp2)
        }
        let r = ToneGenerators.rms(rumble)
        rumble = rumble.map { $0 * Float(0.01 / r) }
        let pink = ToneGenerators.pinkNoise(sampleRate: sr, duration: 3.5, rms: 0.004)
        for (name, noise) in [("rumble", rumble), ("pink", pink)] {
            for f0 in [387.2, 321.3, 256.6, 99.1] {
                let note = ToneGenerators.harmonic(
                    f0: f0, amplitudes: [1, 0.6, 0.4, 0.3, 0.2, 0.1], sampleRate: sr,
                    duration: 3.5, amplitude: 0.5, decay: 0.35)
                let hops = track(ToneGenerators.mix(note, noise), sampleRate: sr)
                let expected = Int(Note.midiValue(frequency: f0).rounded())
                XCTAssertEqual(shownNotes(hops, from: 0), [expected], "\(f0) Hz in \(name): the tail showed other notes")
            }
        }
    }

    /// A piano-like F3 on two unison strings 0.7 Hz apart, its second partial stronger than
    /// the fundamental: each time the strings beat the fundamental to a null in the decay,
    /// the window reads F4. The tail must keep F3 (it showed F4 for 0.5 s at each null).
    func testBeatingFundamentalInTheTailKeepsTheNote() {
        let sr = 48000, f0 = 174.61
        let n = sr * 3
        var x = [Float](repeating: 0, count: n)
        let amps = [1, 1.5, 0.5, 0.4, 0.3, 0.25, 0.2, 0.1]
        for i in 0..<n {
            let t = Double(i) / Double(sr)
            var s = 0.0
            for (j, a) in amps.enumerated() {
                let k = Double(j + 1), env = a * exp(-t * (0.8 + 0.3 * k))
                s += env * (sin(2 * Double.pi * k * f0 * t + 0.3 * k) + sin(2 * Double.pi * (k * f0 + 0.7 * k) * t + 1.1 * k))
            }
            x[i] = Float(0.12 * s)
        }
        let hops = track(x, sampleRate: sr)
        let expected = Int(Note.midiValue(frequency: f0).rounded())
        let late = hops.filter { $0.time > 1.0 }.compactMap { $0.display?.note.midi }
        XCTAssertFalse(late.isEmpty)
        XCTAssertEqual(Set(late), [expected], "the beating tail showed another note")
    }

    /// A slowly decaying note with low rumble only 6 dB under it (noise below ~120 Hz): the
    /// rumble holds the level up, so the tail never drops 6 dB below its peak, and the
    /// display once moved to the note's octave and twelfth below (C4 → C3 → F2). Neither
    /// may show.
    func testSlowDecayOverLoudRumbleShowsNoSubharmonic() {
        let sr = 48000, n = 3 * sr
        for (f0, seed) in [(256.6, UInt64(1)), (256.6, 2), (219.1, 3)] {
            var note = ToneGenerators.harmonic(f0: f0, amplitudes: [1, 0.5, 0.3, 0.2, 0.1], sampleRate: sr, duration: 3, amplitude: 0.3)
            for i in 0..<n {
                let t = Double(i) / Double(sr)
                note[i] = t < 0.3 ? 0 : note[i] * Float(exp(-(t - 0.3) / 1.2))
            }
            // Rumble: white noise through four one-pole low-passes at 120 Hz.
            var rumble = ToneGenerators.whiteNoise(sampleRate: sr, duration: 3, rms: 1, seed: seed)
            let a = 1 - exp(-2 * Double.pi * 120 / Double(sr))
            var s = (0.0, 0.0, 0.0, 0.0)
            for i in rumble.indices {
                s.0 += a * (Double(rumble[i]) - s.0); s.1 += a * (s.0 - s.1)
                s.2 += a * (s.1 - s.2); s.3 += a * (s.2 - s.3)
                rumble[i] = Float(s.3)
            }
            let noteRMS = ToneGenerators.rms(Array(note[(3 * sr / 10)..<(5 * sr / 2)]))
            let x = ToneGenerators.mix(note, rumble, gain: noteRMS / ToneGenerators.rms(rumble) / pow(10, 6.0 / 20))
            let hops = track(x, sampleRate: sr)
            let expected = Int(Note.midiValue(frequency: f0).rounded())
            XCTAssertEqual(shownNotes(hops, from: 0), [expected], "\(f0) Hz (seed \(seed)) over rumble")
        }
    }
}
