import Tuning
import XCTest

@testable import Synth

/// Seed 004 §7 voice management: 3 held voices of 8 slots, oldest released on a 4th,
/// quietest tail stolen, same-frequency retrigger without a restart.
final class PolyphonyTests: XCTestCase {
    private let rate = 48_000.0
    private func hz(_ m: Int) -> Double { SignalProbe.hertz(midi: m) }
    private func run(_ e: ToneEngine, seconds: Double) {
        var b = [Float](repeating: 0, count: Int(seconds * rate))
        b.withUnsafeMutableBufferPointer { e.render(into: $0) }
    }

    func testAFourthNoteReleasesTheOldest() {
        let e = ToneEngine(sampleRate: rate)
        for m in [40, 45, 50] { e.noteOn(frequency: hz(m)); run(e, seconds: 0.01) }
        XCTAssertEqual(e.soundingCount, 3)
        e.noteOn(frequency: hz(55))
        XCTAssertEqual(e.soundingCount, 3)
        XCTAssertEqual(e.busyCount, 4, "the released E2 keeps its tail")
        e.noteOn(frequency: hz(45)) // already held: no change
        XCTAssertEqual(e.soundingCount, 3)
        XCTAssertEqual(e.busyCount, 4)
    }

    func testStealOnlyWhenAllEightSlotsAreBusy() {
        let e = ToneEngine(sampleRate: rate)
        // Each note reaches full level (26 ms) before its release; 8 tails overlap.
        for k in 0..<8 { e.noteOn(frequency: hz(40 + k)); run(e, seconds: 0.026); e.noteOff(frequency: hz(40 + k)) }
        XCTAssertEqual(e.busyCount, 8)
        XCTAssertEqual(e.stealCount, 0)
        e.noteOn(frequency: hz(60))
        XCTAssertEqual(e.stealCount, 1)
        XCTAssertEqual(e.busyCount, 8)
    }

    func testSameFrequencyRetriggerKeepsTheVoice() {
        let e = ToneEngine(sampleRate: rate)
        e.noteOn(frequency: hz(57))
        run(e, seconds: 0.1)
        e.noteOff(frequency: hz(57))
        run(e, seconds: 0.05)
        e.noteOn(frequency: hz(57))
        XCTAssertEqual(e.busyCount, 1, "retrigger reuses the releasing voice")
        XCTAssertEqual(e.soundingCount, 1)
    }

    func testEndsInSilenceAndStops() {
        let r = ToneRenderer(score: .chord([hz(40), hz(45)], duration: 0.3, strum: 0.08), sampleRate: rate)
        var total = 0
        var block = [Float](repeating: 0, count: 700)
        while true {
            let n = block.withUnsafeMutableBufferPointer { r.render(into: $0) }
            if n == 0 { break }
            total += n
        }
        XCTAssertLessThanOrEqual(total, r.expectedFrames)
        XCTAssertGreaterThan(total, Int(0.55 * rate), "0.3 s held + 250 ms release")
    }

    func testStartChime() {
        let s = ToneScore.startChime()
        XCTAssertEqual(s.events.filter(\.isOn).map { Note.nearest(to: $0.frequency).note.name() }, ["E5", "G5", "C6"])
        XCTAssertEqual(s.events.filter(\.isOn).last!.time, 0.254, accuracy: 1e-9)
        let x = SignalProbe.render(s, sampleRate: rate)
        XCTAssertLessThan(SignalProbe.peak(x), 0.3, "low volume")
        XCTAssertGreaterThan(SignalProbe.peak(x), 0.05)
    }
}
