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
