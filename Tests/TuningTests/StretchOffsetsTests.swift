import XCTest

@testable import Tuning

/// Stretch tuning and per-note offsets (issue 19).
final class StretchOffsetsTests: XCTestCase {
    func testRailsbackCurvePassesItsAnchorsAndRisesMonotonically() {
        let piano = TuningSystem.Stretch.piano
        for (midi, cents) in TuningSystem.Stretch.railsback { XCTAssertEqual(piano.cents(at: Int(midi)), cents, accuracy: 1e-9) }
        var last = -Double.infinity
        for m in 21...108 {
            let c = piano.cents(at: m)
            XCTAssertGreaterThanOrEqual(c, last, "midi \(m)")
            last = c
        }
        XCTAssertEqual(piano.cents(at: 10), -30, "below A0: held at the end")
    }

    func testPerOctaveAndParsing() {
        XCTAssertEqual(TuningSystem.Stretch(parsing: "piano"), .piano)
        XCTAssertEqual(TuningSystem.Stretch(parsing: "2"), .perOctave(2))
        XCTAssertNil(TuningSystem.Stretch(parsing: "99"))
        XCTAssertNil(TuningSystem.Stretch(parsing: "violin"))
        XCTAssertEqual(TuningSystem.Stretch.perOctave(2).cents(at: 69 + 24), 4, accuracy: 1e-12)
        XCTAssertEqual(TuningSystem.Stretch.perOctave(2).cents(at: 69 - 12), -2, accuracy: 1e-12)
    }

    func testOffsetsMoveOnlyTheirNotes() throws {
        let o = try XCTUnwrap(TuningSystem.offsets(parsing: "E2:-2, B3:+1.5"))
        XCTAssertEqual(o, [40: -2, 59: 1.5])
        XCTAssertNil(TuningSystem.offsets(parsing: "E2"))
        XCTAssertNil(TuningSystem.offsets(parsing: "H2:1"))
        XCTAssertNil(TuningSystem.offsets(parsing: "E2:80"))
        let s = TuningSystem(offsets: o)
        XCTAssertEqual(s.deviation(of: Note(midi: 40)), -2)
        XCTAssertEqual(s.deviation(of: Note(midi: 52)), 0, "E3 is another string")
        // The preset target of a string 2 ¢ flat reads in tune.
        let guitar = try XCTUnwrap(TuningPreset.named("guitar-standard"))
        let e2 = Note(midi: 40).frequency() * pow(2, -2.0 / 1200)
        XCTAssertEqual(s.target(for: e2, preset: guitar).cents, 0, accuracy: 1e-9)
        XCTAssertFalse(s.isPlain)
    }

    /// The stretched system names and measures from the stretched pitch, and `frequency(of:)`
    /// (what `tone` plays) is the stretched pitch.
    func testStretchMovesTargetsAndTones() {
        let s = TuningSystem(stretch: .piano)
        let a6 = Note(midi: 93)
        XCTAssertEqual(Note.cents(s.frequency(of: a6), from: a6.frequency()), 8, accuracy: 1e-9)
        let n = s.nearest(to: a6.frequency() * pow(2, 8.0 / 1200))
        XCTAssertEqual(n.note, a6)
        XCTAssertEqual(n.cents, 0, accuracy: 1e-9)
    }
}
