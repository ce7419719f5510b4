import XCTest

@testable import Analysis

/// How the display leaves "unsure" (a kick under a bass): only a period detection that is
/// not itself unsure confirms the note, never a partial's hold reading.
final class UnsureDisplayTests: XCTestCase {
    private let hop = 512.0 / 44100
    private let a1 = 55.0

    /// A1 latched on sure detections, then a run of unsure ones past `unsureHold` (a kick's
    /// tail pulling the period flat), and the time of the next hop.
    private func displayShowingUnsureA1() -> (TunerDisplay, Double) {
        var d = TunerDisplay()
        var t = 0.0
        for _ in 0..<20 {
            d.feed(PitchEstimate(frequency: a1, confidence: 0.95, source: .yin), time: t)
            t += hop
        }
        for _ in 0..<(TunerDisplay.unsureHold + 4) {
            d.feed(PitchEstimate(frequency: a1 * pow(2, -17.0 / 1200), confidence: 0.9, source: .yin, unsure: true), time: t)
            t += hop
        }
        XCTAssertEqual(d.reading?.unsure, true)
        return (d, t)
    }

    /// At the note's end the period detection stops and the partial's hold reading, pulled
    /// 31 cents flat by the next note's attack, is all there is: the note stays unsure (on the
    /// demo it became a sure, red "A1 −31¢").
    func testPartialHoldDoesNotConfirmAnUnsureNote() {
        var (d, t) = displayShowingUnsureA1()
        for _ in 0..<4 {
            d.feed(PitchEstimate(frequency: a1 * pow(2, -31.0 / 1200), confidence: 0, source: .partial), time: t)
            t += hop
            XCTAssertEqual(d.reading?.unsure, true, "a hold reading confirmed the note")
        }
    }

    /// A sure period detection does confirm it, and replaces the pulled pitch.
    func testSureDetectionConfirms() {
        var (d, t) = displayShowingUnsureA1()
        d.feed(PitchEstimate(frequency: a1, confidence: 0.95, source: .yin), time: t)
        t += hop
        XCTAssertEqual(d.reading?.unsure, false)
        XCTAssertEqual(d.reading?.cents ?? 99, 0, accuracy: 1)
    }
}
