import Analysis
import SpecvizTestSupport
import Tuning
import XCTest

/// Issue 19: what the display shows when a note starts over hum or follows a lower note.
/// Each test reproduces a mechanism found on real instruments (a flute E6 over 60 Hz hum
/// read F#3, f0/7, for the whole note) on synthetic tones.
final class NoteChangeTests: XCTestCase {
    private let sr = 48000

    /// The notes the display showed (MIDI numbers, in order, no repeats).
    private func shownNotes(_ hops: [HopRecord]) -> [Int] {
        var out: [Int] = []
        for h in hops {
            if let m = h.display?.note.midi, out.last != m { out.append(m) }
        }
        return out
    }

    private func midi(_ f: Double) -> Int { Int(Note.midiValue(frequency: f).rounded()) }

    /// `signal` from `start` s on, faded in linearly over `attack` s (silent before).
    private func onset(_ signal: [Float], start: Double, attack: Double) -> [Float] {
        signal.enumerated().map { i, v in
            let t = Double(i) / Double(sr)
            return v * Float(min(1, max(0, (t - start) / attack)))
        }
    }

    /// A flute-like note (almost a sine) fading in over 0.3 s after 0.3 s of 60 Hz hum alone,
    /// the hum 15 dB below the note: during the attack the hum's period is pulled off the
    /// exact mains (60.3 … 61.8 Hz), which once passed for a new note "B1" and, latched,
    /// low-passed the real note away. Only the note may show.
    func testSlowAttackOverHumShowsOnlyTheNote() {
        for f0 in [1174.66, 1318.51] {
            for attack in [0.3, 0.15, 0.05] {
                let note = onset(sines(f0, [1, 0.15, 0.05], amplitude: 0.3), start: 0.3, attack: attack)
                let hum = sines(60, [1, 0.5, 0.6, 0.2, 0.3, 0.1, 0.15, 0.05], amplitude: 1)
                // The hum 15 dB below the sustained note.
                let noteRMS = ToneGenerators.rms(Array(note[(sr * 7 / 10)...]))
                let hops = track(ToneGenerators.mix(note, hum, gain: noteRMS / ToneGenerators.rms(hum) / pow(10, 15.0 / 20)), sampleRate: sr)
                XCTAssertEqual(shownNotes(hops), [midi(f0)], "\(f0) Hz, attack \(attack) s, over 60 Hz hum")
            }
        }
    }

    /// 2.5 s of Σ a_k·sin(2πk·f0·t + 0.7k), times `amplitude`.
    private func sines(_ f0: Double, _ amps: [Double], amplitude: Double) -> [Float] {
        (0..<(sr * 5 / 2)).map { i in
            let t = Double(i) / Double(sr)
            var s = 0.0
            for (k, a) in amps.enumerated() { s += a * sin(2 * Double.pi * Double(k + 1) * f0 * t + 0.7 * Double(k + 1)) }
            return Float(amplitude * s)
        }
    }

    /// A low note, then at once a high one: the latch on the low note must not pull the
    /// detector to a subharmonic of the new note near a multiple of the old period (55 Hz →
    /// E6 read A3, E6/6 ≈ 4 × 55 Hz, for 8 hops).
    func testHighNoteAfterLowNoteShowsNoSubharmonic() {
        for (low, high) in [(55.0, 1318.51), (65.41, 880.0), (110.0, 1760.0), (98.0, 1174.66)] {
            let a = ToneGenerators.harmonic(f0: low, amplitudes: [1, 0.6, 0.4, 0.3, 0.2], sampleRate: sr, duration: 2, amplitude: 0.3)
            let b = ToneGenerators.harmonic(f0: high, amplitudes: [1, 0.15, 0.05], sampleRate: sr, duration: 2, amplitude: 0.3)
            let x = (0..<a.count).map { $0 < sr ? a[$0] : b[$0] }
            let hops = track(x, sampleRate: sr)
            XCTAssertEqual(shownNotes(hops), [midi(low), midi(high)], "\(low) Hz then \(high) Hz")
        }
    }

    /// A low note that goes on quietly (20 dB down) under a new high note: the low-pass that
    /// serves the latched low note keeps almost nothing of the window, so YIN reads it
    /// unfiltered and the display moves to the new note (it stayed on A1 for the whole E6).
    func testLoudHighNoteOverQuietLowNoteIsShown() {
        let low = ToneGenerators.harmonic(f0: 55, amplitudes: [1, 0.6, 0.4, 0.3, 0.2], sampleRate: sr, duration: 2, amplitude: 0.3)
        let high = ToneGenerators.harmonic(f0: 1318.51, amplitudes: [1, 0.15, 0.05], sampleRate: sr, duration: 2, amplitude: 0.3)
        let x = (0..<low.count).map { i in i < sr ? low[i] : 0.1 * low[i] + high[i] }
        let hops = track(x, sampleRate: sr)
        XCTAssertEqual(shownNotes(hops), [midi(55), midi(1318.51)])
        let late = hops.filter { $0.time > 1.3 }.compactMap(\.display)
        XCTAssertFalse(late.isEmpty)
        XCTAssertTrue(late.allSatisfy { $0.note.midi == midi(1318.51) }, "the display stayed on the quiet low note")
    }

    /// A note near the mains (a cello's B2 at 120.6 Hz, 0.5 % above 120 Hz) played with no hum:
    /// its vibrato crossing the exact mains must not make it hum (the hum window opens only
    /// after a run of exact mains periods with nothing latched).
    func testNoteNearMainsWithoutHumIsShownThroughout() {
        var x = ToneGenerators.harmonic(f0: 120.6, amplitudes: [1, 0.7, 0.5, 0.3, 0.2, 0.1], sampleRate: sr, duration: 2.5, amplitude: 0.3)
        // ±8 ¢ vibrato at 5 Hz, by resampling the tone along a wobbling clock.
        let src = x
        var pos = 0.0
        for i in x.indices {
            let j = Int(pos), f = Float(pos - Double(j))
            x[i] = j + 1 < src.count ? src[j] * (1 - f) + src[j + 1] * f : 0
            pos += pow(2, 8.0 / 1200 * sin(2 * Double.pi * 5 * Double(i) / Double(sr)))
        }
        let hops = track(x, sampleRate: sr)
        let shown = hops.filter { $0.time > 0.3 && $0.time < 2.2 }.map(\.display)
        XCTAssertEqual(shown.filter { $0 == nil }.count, 0, "the note went blank")
        XCTAssertTrue(shown.allSatisfy { $0?.note.midi == midi(120.6) })
    }
}
