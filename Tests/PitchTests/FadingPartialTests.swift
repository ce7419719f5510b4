import Analysis
import SpecvizTestSupport
import XCTest

/// Issue 19: a note fading into rumble read several cents sharp in its tail (public set,
/// rumble: a 210 Hz piano note's median error 3.9 cents against 1.2 clean). As the noise
/// overtakes the note, the period estimate drifts and fails on some hops; each failure used
/// to reset the first-partial measurement, so the refinement was missing exactly where it was
/// needed. The latched note's first partial is now measured on every hop while the latch
/// holds, through the tracker's high-pass (below the note, above most of the rumble), and
/// once the note has faded by 10 dB, with the phase advance taken over as many hops as stay
/// unambiguous.
final class FadingPartialTests: XCTestCase {
    /// Piano-like tones decaying with a 1.2 s time constant over rumble (noise below
    /// ~120 Hz) at 6 dB under the note's average level: from 0.6 to 3.2 s (the note ends
    /// about 15 dB under the noise) the shown pitch stays within 3 cents on 95 % of the hops
    /// (before: 3.4 and 3.5 cents at 210 and 126 Hz; now 1.1 and 2.5).
    func testFadingNoteInRumbleKeepsItsPitch() {
        let sr = 48000
        for (f0, seed) in [(210.0, UInt64(11)), (156.0, 12), (126.0, 13)] {
            var note = ToneGenerators.harmonic(
                f0: f0, amplitudes: [1, 0.9, 0.5, 0.35, 0.2, 0.12, 0.08], sampleRate: sr, duration: 3.5, amplitude: 0.4)
            for i in note.indices { note[i] *= Float(exp(-Double(i) / Double(sr) / 1.2)) }
            let noise = RumbleOctaveTests.rumble(sampleRate: sr, duration: 3.5, rms: ToneGenerators.rms(note) / 2, seed: seed)
            let hops = track(ToneGenerators.mix(note, noise), sampleRate: sr)
            let errors = hops.filter { (0.6...3.2).contains($0.time) }
                .compactMap { $0.display.map { abs(centsBetween($0.frequency, f0)) } }.sorted()
            XCTAssertGreaterThan(errors.count, 150, "\(f0) Hz: shown on too few hops")
            guard errors.count > 20 else { continue }
            let p95 = errors[errors.count * 95 / 100]
            XCTAssertLessThan(p95, 3, "\(f0) Hz fading in rumble: 95th percentile \(p95) cents")
        }
    }
}

/// Issue 19: the tails of struck and plucked notes in pink noise went blank while the note was
/// still there (public set, pink noise at 10 dB: 4.2 % of the note frames showed nothing,
/// nearly all in the last third of decaying piano and guitar notes). The detector loses the
/// period first; the latched note's first partial, measured at the latch on every hop, still
/// holds there phase-coherently and keeps the display. Noise alone has no such partial.
final class PartialSustainTests: XCTestCase {
    static func fadingNote(f0: Double, sampleRate sr: Int, seconds: Double, tau: Double) -> [Float] {
        var note = ToneGenerators.harmonic(
            f0: f0, amplitudes: [1, 0.5, 0.3, 0.2, 0.1], sampleRate: sr, duration: seconds, amplitude: 0.4)
        for i in note.indices { note[i] *= Float(exp(-Double(i) / Double(sr) / tau)) }
        return note
    }

    /// Decaying notes (time constant 0.7 s) in pink noise 10 dB under their average level:
    /// the note is shown on at least 97 % of the hops from 0.2 s to 2.4 s, where it ends about
    /// 8 dB under the noise (now on all 207; before: 191 and 195 of them at 262 and 659 Hz).
    func testFadingNoteInPinkNoiseStaysShown() {
        let sr = 48000
        for (f0, seed) in [(440.0, UInt64(21)), (262.0, 22), (659.3, 23)] {
            let note = Self.fadingNote(f0: f0, sampleRate: sr, seconds: 2.5, tau: 0.7)
            let noise = ToneGenerators.pinkNoise(sampleRate: sr, duration: 2.5, rms: ToneGenerators.rms(note) / 3.16, seed: seed)
            let hops = track(ToneGenerators.mix(note, noise), sampleRate: sr).filter { (0.2...2.4).contains($0.time) }
            let shown = hops.filter { $0.display.map { abs(centsBetween($0.frequency, f0)) < 50 } ?? false }.count
            XCTAssertGreaterThanOrEqual(Double(shown), 0.97 * Double(hops.count), "\(f0) Hz: shown on \(shown) of \(hops.count) hops")
            // Never another note.
            XCTAssertFalse(hops.contains { $0.display.map { abs(centsBetween($0.frequency, f0)) >= 50 } ?? false }, "\(f0) Hz: another note shown")
        }
    }

    /// Below the 2048-sample window's reach (94 Hz at 48 kHz) the first partial over the
    /// four-times-longer window holds a fading bass note the same way: shown on at least 97 %
    /// of the hops from 0.4 to 2.9 s (now all 234; before: 134 and 152 at 55 and 73.4 Hz).
    func testFadingBassInPinkNoiseStaysShown() {
        let sr = 48000
        for (f0, seed) in [(55.0, UInt64(25)), (73.4, 26)] {
            let note = Self.fadingNote(f0: f0, sampleRate: sr, seconds: 3, tau: 0.9)
            let noise = ToneGenerators.pinkNoise(sampleRate: sr, duration: 3, rms: ToneGenerators.rms(note) / 3.16, seed: seed)
            let hops = track(ToneGenerators.mix(note, noise), sampleRate: sr).filter { (0.4...2.9).contains($0.time) }
            let shown = hops.filter { $0.display.map { abs(centsBetween($0.frequency, f0)) < 50 } ?? false }.count
            XCTAssertGreaterThanOrEqual(Double(shown), 0.97 * Double(hops.count), "\(f0) Hz: shown on \(shown) of \(hops.count) hops")
        }
    }

    /// When the note stops and the noise goes on, the partial does not hold the display: it
    /// releases as before (at 2.1 s here: the tail gate holds the shown note through the
    /// noise's stray low readings for up to `TailGate.maxHold`), and nothing is shown after.
    func testDisplayReleasesWhenTheNoteStops() {
        let sr = 48000, f0 = 440.0
        let note = Self.fadingNote(f0: f0, sampleRate: sr, seconds: 1.5, tau: 2) + [Float](repeating: 0, count: 2 * sr)
        let noise = ToneGenerators.pinkNoise(sampleRate: sr, duration: 3.5, rms: 0.02, seed: 24)
        let hops = track(ToneGenerators.mix(note, noise), sampleRate: sr)
        XCTAssertTrue(hops.contains { $0.time > 1.0 && $0.time < 1.5 && $0.display != nil }, "the note was not shown")
        let lastShown = hops.last { $0.display != nil }?.time ?? 0
        XCTAssertLessThan(lastShown, 2.2, "still shown at \(lastShown) s, \(lastShown - 1.5) s after the note stopped")
    }
}
