import Analysis
import SpecvizTestSupport
import Tuning
import XCTest

/// Issue 14 items 6 and 7: the tune summary's cost per hop, and DC.
final class TunerReliabilityTests: XCTestCase {
    /// A held note of any length: one segment that stores at most `settleHops` readings
    /// (the old summary kept, and copied every hop, all of them), with the same settled mean.
    func testSummaryOfALongHeldNoteHasConstantStorage() {
        var summary = TuneSummary()
        let note = Note.nearest(to: 440, reference: 440).note
        let hop = 512.0 / 48000
        let n = 200_000 // 35 minutes of hops
        for i in 0..<n {
            let cents = i < 10 ? 20.0 : Double(i % 7) - 3 // settling, then −3…+3
            let r = TunerReading(
                frequency: 440 * exp2(cents / 1200), note: note, cents: cents,
                target: note, inTune: abs(cents) <= 5, confidence: 1)
            summary.add(r, time: Double(i + 1) * hop, hop: hop)
        }
        XCTAssertEqual(summary.segments.count, 1)
        let s = summary.segments[0]
        XCTAssertEqual(s.count, n)
        XCTAssertLessThanOrEqual(s.storedReadings, TuneSummary.settleHops)
        var expected = 0.0
        for i in 10..<n { expected += Double(i % 7) - 3 }
        expected /= Double(n - 10)
        XCTAssertEqual(s.settledMean.cents, expected, accuracy: 1e-9)
    }

    /// A short segment skips half its readings; a gap or another note starts a new one.
    func testSummarySegmentsAndShortMeans() {
        var summary = TuneSummary()
        let a = Note.nearest(to: 440, reference: 440).note
        let b = Note.nearest(to: 494, reference: 440).note
        let hop = 0.01
        func reading(_ n: Note, _ c: Double) -> TunerReading {
            TunerReading(frequency: 440, note: n, cents: c, target: n, inTune: true, confidence: 1)
        }
        for (i, c) in [10.0, 10, 2, 4].enumerated() { summary.add(reading(a, c), time: Double(i) * hop, hop: hop) }
        summary.add(nil, time: 0.04, hop: hop)
        summary.add(reading(a, 1), time: 0.10, hop: hop) // after a gap
        summary.add(reading(b, 1), time: 0.11, hop: hop) // another note
        XCTAssertEqual(summary.segments.count, 3)
        XCTAssertEqual(summary.segments[0].settledMean.cents, 3, accuracy: 1e-12) // skips 2 of 4
        XCTAssertEqual(summary.segments[0].end, 0.03, accuracy: 1e-12)
    }

    /// Pure DC (any level) is not a note: no raw estimate, nothing displayed
    /// (it read "B6 −49.4 ¢", the shortest lag, at confidence 1).
    func testDCIsNotANote() {
        for level: Float in [0.5, -0.25, 0.01] {
            let dc = [Float](repeating: level, count: 48000)
            let hops = track(dc, sampleRate: 48000)
            XCTAssertTrue(hops.allSatisfy { $0.raw == nil && $0.display == nil }, "DC at \(level) reads as a note")
        }
    }

    /// A note riding on a large DC offset is still the note.
    func testNoteOnADCOffsetIsTheNote() {
        let tone = ToneGenerators.harmonic(f0: 220, amplitudes: [1, 0.5, 0.3], sampleRate: 48000, duration: 1.0)
        let shifted = tone.map { $0 * 0.3 + 0.4 }
        assertDisplays(track(shifted, sampleRate: 48000), frequency: 220, settle: 0.3, tolerance: 2, "220 Hz on DC")
    }
}
