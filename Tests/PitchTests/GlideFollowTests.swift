import XCTest

@testable import Analysis

/// Issue 39 item 7: the display follows a sung portamento from one note to the next while it
/// moves, and a legato glide down to a quieter note is not taken for a fading note's tail.
final class GlideFollowTests: XCTestCase {
    private let hop = 512.0 / 44100

    /// A glide that leaves the shown note with a small step and then moves 60 cents a hop
    /// (a sung portamento; its first readings lag the voice) is followed as it goes. Before,
    /// its readings went to candidates for the notes it crossed, none of which reached the
    /// three detections a new note needs, and the display stayed on the old note to the end
    /// of the glide.
    func testPortamentoLeavingWithASmallStepIsFollowed() {
        var d = TunerDisplay()
        var t = 0.0
        func feed(_ f: Double) {
            t += hop
            d.feed(PitchEstimate(frequency: f, confidence: 0.95, source: .yin), time: t)
        }
        for _ in 0..<10 { feed(220) }
        var cents = 13.0
        feed(220 * pow(2, cents / 1200))
        for k in 0..<5 {
            cents += 60
            let f = 220 * pow(2, cents / 1200)
            feed(f)
            guard k >= 1 else { continue } // the glide is recognised on its third step
            XCTAssertEqual(centsBetween(d.reading?.frequency ?? 1, f), 0, accuracy: 1, "step \(k + 1) of the glide")
        }
    }

    /// A legato glide down a minor third, quieter than the note it left (a sung line whose
    /// vowel changes): each reading lies within a step of the one before from the shown note
    /// on, so none is a tail's hum or subharmonic, and all pass. The same new note reached by
    /// a jump in the tail is still held off.
    func testGlideDownInTheTailPassesAndAJumpDoesNot() {
        var (gate, t) = tailGateShowingA4(hop: hop)
        var cents = 0.0
        for k in 0..<9 {
            cents = max(cents - 60, -300)
            let f = 440 * pow(2, cents / 1200)
            let out = gate.gate(PitchEstimate(frequency: f, confidence: 0.8, source: .yin), level: -30, shown: 440, time: t)
            t += hop
            XCTAssertEqual(out?.frequency ?? 0, f, accuracy: 1e-9, "reading \(k + 1) of the glide")
        }
        var (jumped, t2) = tailGateShowingA4(hop: hop)
        let f = 440 * pow(2, -300.0 / 1200)
        for k in 0..<4 {
            let out = jumped.gate(PitchEstimate(frequency: f, confidence: 0.8, source: .yin), level: -30, shown: 440, time: t2)
            t2 += hop
            XCTAssertEqual(out?.frequency ?? 0, 440, accuracy: 1e-9, "jump, reading \(k + 1)")
        }
    }
}
