import XCTest

@testable import Analysis

/// A tail gate that has shown A4 at −20 dB for 40 hops of `hop` seconds with no onset (10 dB
/// under its peak from then on), and the time of the next hop.
func tailGateShowingA4(hop: Double) -> (TailGate, Double) {
    var gate = TailGate()
    var t = 0.0
    let note = PitchEstimate(frequency: 440, confidence: 0.9, source: .yin)
    for _ in 0..<40 {
        _ = gate.gate(note, level: -20, shown: 440, time: t)
        t += hop
    }
    return (gate, t)
}

/// The tail gate's rules on fed readings (issue 19: a fading note never shows another note).
final class TailGateTests: XCTestCase {
    private let hop = 512.0 / 48000

    /// A reading near the octave above in a fading tail is held off even when it reads the
    /// octave flat: a nylon-string E5 under rumble read 11.2 semitones up and the display
    /// moved there for the note's last 0.7 s.
    func testFlatOctaveAboveInTheTailIsHeldOff() {
        var (gate, t) = tailGateShowingA4(hop: hop)
        for (k, semitones) in [11.2, 11.5, 12.0, 12.6].enumerated() {
            let up = PitchEstimate(frequency: 440 * pow(2, semitones / 12), confidence: 0.8, source: .yin)
            // 10 dB under the peak and falling, no onset.
            let out = gate.gate(up, level: -30 - Double(k) * 0.1, shown: 440, time: t)
            t += hop
            XCTAssertEqual(out?.frequency ?? 0, 440, accuracy: 1e-9, "\(semitones) semitones up in the tail")
        }
    }

    /// A major seventh up (11 semitones) is another note, not the octave: it passes.
    func testMajorSeventhAboveIsNotTakenForTheOctave() {
        var (gate, t) = tailGateShowingA4(hop: hop)
        t += hop
        let seventh = PitchEstimate(frequency: 440 * pow(2, 11.0 / 12), confidence: 0.8, source: .yin)
        XCTAssertEqual(gate.gate(seventh, level: -30, shown: 440, time: t)?.frequency ?? 0, seventh.frequency, accuracy: 1e-9)
    }
}
