import XCTest

@testable import Tuning

/// Note names, parsing and reference pitch (seed 004 §3.1, §3.7; seed 000 Part 4).
final class NoteTests: XCTestCase {
    func testNamesWithSharpsAndFlats() {
        XCTAssertEqual(Note(midi: 69).name(), "A4")
        XCTAssertEqual(Note(midi: 60).name(), "C4")
        XCTAssertEqual(Note(midi: 49).name(), "C#3")
        XCTAssertEqual(Note(midi: 49).name(flats: true), "Db3")
        XCTAssertEqual(Note(midi: 23).name(), "B0")
        XCTAssertEqual(Note(midi: 88).name(), "E6")
        XCTAssertEqual(Note(midi: 70).name(flats: true), "Bb4")
        XCTAssertEqual(Note(midi: 0).name(), "C-1")
    }

    func testParsingRoundTrip() {
        for midi in 0...127 {
            for flats in [false, true] {
                let n = Note(midi: midi).name(flats: flats)
                XCTAssertEqual(Note(name: n)?.midi, midi, n)
            }
        }
        XCTAssertEqual(Note(name: " e2 ")?.midi, 40)
        XCTAssertEqual(Note(name: "B♭3")?.midi, 58)
        XCTAssertNil(Note(name: "H2"))
        XCTAssertNil(Note(name: "A"))
        XCTAssertNil(Note(name: "A10"))
    }

    /// Seed 000 Part 4 table: frequency -> note and cents.
    func testNearestNoteTable() {
        let table: [(Double, String, Double)] = [
            (440, "A4", 0), (443.5, "A4", 13.7), (261.63, "C4", 0),
            (329.63, "E4", 0), (82.41, "E2", 0),
        ]
        for (f, name, cents) in table {
            let (n, c) = Note.nearest(to: f)
            XCTAssertEqual(n.name(), name)
            XCTAssertEqual(c, cents, accuracy: 0.1, "\(f) Hz")
        }
    }

    /// Every reference preset, the free range's ends, and 0.1 Hz rounding.
    func testReferencePitches() {
        for hz in ReferencePitch.presets {
            let r = ReferencePitch(hz)
            XCTAssertEqual(r?.hertz, hz)
            XCTAssertEqual(Note(midi: 69).frequency(reference: hz), hz, accuracy: 1e-9)
            XCTAssertEqual(Note(midi: 81).frequency(reference: hz), 2 * hz, accuracy: 1e-9)
        }
        // Scientific pitch: C4 = 256 Hz at A4 = 430.54 Hz.
        XCTAssertEqual(Note(midi: 60).frequency(reference: 430.54), 256, accuracy: 0.01)
        XCTAssertEqual(ReferencePitch(437.26)?.hertz, 437.3)
        XCTAssertNotNil(ReferencePitch(400))
        XCTAssertNotNil(ReferencePitch(480))
        XCTAssertNil(ReferencePitch(399.9))
        XCTAssertNil(ReferencePitch(480.1))
    }
}
