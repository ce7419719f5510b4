import XCTest

@testable import Tuning

/// Temperaments, Scala files and transposition (issue 19, "a tuner for every instrument").
final class TemperamentTests: XCTestCase {
    /// Published cents from equal temperament with tonic C, rounded to 0.1 ¢ (C, C#, D, …, B).
    /// Sources: Barbour, "Tuning and Temperament" (1951); the Scala archive's ji_12, pyth_12,
    /// meanquar, werck3, kirnberger, vallotti and young2 files.
    static let published: [(Temperament, [Double])] = [
        (.equal, [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]),
        (.just, [0, 11.7, 3.9, 15.6, -13.7, -2.0, -9.8, 2.0, 13.7, -15.6, 17.6, -11.7]),
        (.pythagorean, [0, -9.8, 3.9, -5.9, 7.8, -2.0, 11.7, 2.0, -7.8, 5.9, -3.9, 9.8]),
        (.meantone, [0, -24.0, -6.8, 10.3, -13.7, 3.4, -20.5, -3.4, -27.4, -10.3, 6.8, -17.1]),
        (.werckmeister3, [0, -9.8, -7.8, -5.9, -9.8, -2.0, -11.7, -3.9, -7.8, -11.7, -3.9, -7.8]),
        (.kirnberger3, [0, -9.8, -6.8, -5.9, -13.7, -2.0, -9.8, -3.4, -7.8, -10.3, -3.9, -11.7]),
        (.vallotti, [0, -5.9, -3.9, -2.0, -7.8, 2.0, -7.8, -2.0, -3.9, -5.9, 0, -9.8]),
        (.young, [0, -9.8, -3.9, -5.9, -7.8, -2.0, -11.7, -2.0, -7.8, -5.9, -3.9, -9.8]),
    ]

    func testTablesMatchPublishedCents() {
        for (t, cents) in Self.published {
            for k in 0..<12 {
                XCTAssertEqual(t.deviations[k], cents[k], accuracy: 0.051, "\(t.id) degree \(k)")
            }
        }
        XCTAssertEqual(Temperament.builtIn.count, Self.published.count)
        // The check: Werckmeister III's E is −9.8 ¢ from equal.
        XCTAssertEqual(Temperament.werckmeister3.deviations[4], -9.775, accuracy: 0.001)
    }

    func testNearestTemperedNoteAndCents() {
        let w = TuningSystem(temperament: .werckmeister3)
        let e4 = Note(name: "E4")!
        let f = w.frequency(of: e4)
        XCTAssertEqual(Note.cents(f, from: e4.frequency()), -9.775, accuracy: 1e-4)
        let (n, c) = w.nearest(to: f)
        XCTAssertEqual(n, e4)
        XCTAssertEqual(c, 0, accuracy: 1e-9)
        // 5 ¢ sharp of the tempered E reads +5, not −4.8 from the equal-tempered E.
        XCTAssertEqual(w.nearest(to: f * pow(2, 5.0 / 1200)).cents, 5, accuracy: 1e-9)
        // Meantone G# is 27 ¢ flat: a pitch 40 ¢ below equal G# is still G#, 13 ¢ flat.
        let m = TuningSystem(temperament: .meantone)
        let g = Note(name: "G#4")!
        let r = m.nearest(to: g.frequency() * pow(2, -40.0 / 1200))
        XCTAssertEqual(r.note, g)
        XCTAssertEqual(r.cents, -40 + 27.37, accuracy: 0.01)
    }

    func testTonicRotatesTheTable() {
        let onG = TuningSystem(temperament: .werckmeister3, tonic: 7)
        // On G, B is the "E" of the table (4 semitones above the tonic).
        XCTAssertEqual(onG.deviation(of: Note(name: "B3")!), -9.775, accuracy: 0.001)
        XCTAssertEqual(onG.deviation(of: Note(name: "G2")!), 0)
        XCTAssertEqual(TuningSystem.tonic("Eb"), 3)
        XCTAssertNil(TuningSystem.tonic("H"))
    }

    /// tone plays `frequency(of:)`, tune measures with `target(for:)`: every tempered target
    /// of every temperament on every tonic reads 0 ¢ (within 0.1 ¢) as its own note.
    func testToneAndTuneAgreeOnEveryTemperedTarget() {
        for t in Temperament.builtIn {
            for tonic in 0..<12 {
                let s = TuningSystem(temperament: t, tonic: tonic)
                for midi in 24...96 {
                    let n = Note(midi: midi)
                    for ref in [415.0, 440, 442] {
                        let (target, cents) = s.target(for: s.frequency(of: n, reference: ref), preset: .chromatic, reference: ref)
                        XCTAssertEqual(target, n, "\(t.id) on \(tonic) midi \(midi)")
                        XCTAssertEqual(cents, 0, accuracy: 0.1)
                    }
                }
            }
        }
        // With a preset the target is the preset note, measured from its tempered pitch.
        let guitar = TuningPreset.named("guitar-standard")!
        let s = TuningSystem(temperament: .just)
        for n in guitar.notes {
            let r = s.target(for: s.frequency(of: n), preset: guitar)
            XCTAssertEqual(r.target, n)
            XCTAssertEqual(r.cents, 0, accuracy: 0.1)
        }
    }

    func testTranspositionRoundTrips() {
        let expected = ["Bb": 2, "Eb": 9, "F": 7, "A": 3, "G": 5, "D": -2, "C": 0, "-3": -3, "14": 14]
        for (k, v) in expected { XCTAssertEqual(TuningSystem.transposition(k), v, k) }
        for bad in ["H", "25", "", "Bbb", "1.5"] { XCTAssertNil(TuningSystem.transposition(bad), bad) }
        // A B♭ clarinet's written C4 sounds B♭3; its sounding B♭3 reads as written C4.
        let bb = TuningSystem(transpose: 2)
        XCTAssertEqual(bb.sounding(Note(name: "C4")!), Note(name: "Bb3")!)
        XCTAssertEqual(bb.written(Note(name: "Bb3")!), Note(name: "C4")!)
        // Alto sax (E♭): written C5 sounds E♭4; horn in F: written C5 sounds F4; D trumpet:
        // written C4 sounds D4.
        XCTAssertEqual(TuningSystem(transpose: 9).sounding(Note(name: "C5")!), Note(name: "Eb4")!)
        XCTAssertEqual(TuningSystem(transpose: 7).sounding(Note(name: "C5")!), Note(name: "F4")!)
        XCTAssertEqual(TuningSystem(transpose: -2).sounding(Note(name: "C4")!), Note(name: "D4")!)
        for t in -24...24 {
            let s = TuningSystem(temperament: .vallotti, transpose: t)
            for midi in 30...100 {
                let n = Note(midi: midi)
                XCTAssertEqual(s.written(s.sounding(n)), n)
                // Written note -> sounding tempered pitch -> nearest -> written: the same note.
                let f = s.frequency(of: s.sounding(n))
                XCTAssertEqual(s.written(s.nearest(to: f).note), n)
            }
        }
    }

    func testScalaCentsAndRatioLinesWithComments() throws {
        let text = """
            ! werck3.scl
            !
            Werckmeister III (1691), ratios and cents mixed
             12
            !
            90.225
            192.18   ! D
            294.135
            390.225
            498.045
            588.27
            696.09
            792.18
            888.27
            996.09
            1092.18
            2/1
            """
        let t = try Temperament.parseScala(text, file: "werck3.scl")
        for k in 0..<12 { XCTAssertEqual(t.deviations[k], Temperament.werckmeister3.deviations[k], accuracy: 0.01) }
        let just = """
            ! ji
            5-limit just
            12
            16/15
            9/8
            6/5
            5/4
            4/3
            45/32
            3/2
            8/5
            5/3
            9/5
            15/8
            2
            """
        let j = try Temperament.parseScala(just, file: "ji_12.scl")
        for k in 0..<12 { XCTAssertEqual(j.deviations[k], Temperament.just.deviations[k], accuracy: 1e-9) }
    }

    func testBadScalaFilesFailWithFileAndLine() {
        func error(_ text: String) -> String {
            do { _ = try Temperament.parseScala(text, file: "x.scl"); return "parsed" } catch { return error.description }
        }
        XCTAssertEqual(error("!c\ndesc\n7\n"), "x.scl:3: 7 notes per octave: only 12-note scales are supported")
        XCTAssertEqual(error("desc\ntwelve\n"), "x.scl:2: expected the note count, got 'twelve'")
        let eleven = (1...11).map { String(format: "%.1f", Double($0) * 100) }.joined(separator: "\n")
        XCTAssertEqual(error("d\n12\n" + eleven + "\n3/2\n"), "x.scl:14: the last pitch is 701.955 ¢, not the 2/1 octave: non-octave scales are not supported")
        XCTAssertEqual(error("d\n12\n100.0\nabc\n"), "x.scl:4: 'abc' is not a pitch (cents like 701.955, or a ratio like 3/2)")
        XCTAssertEqual(error("d\n12\n100.0\n200.0\n"), "x.scl:4: 2 pitches, the count says 12")
        XCTAssertEqual(error("! only comments\n"), "x.scl:1: no note count line")
        XCTAssertTrue(error("d\n12\n" + eleven + "\n2/1\n3/1\n").hasPrefix("x.scl:15: more pitches"))
    }

    /// Issue 36: CRLF (and CR) line breaks read as LF; control characters in a quoted token
    /// or the file name are escaped, and a long token is cut in the message.
    func testScalaLineBreaksAndMessagesAreSafe() throws {
        let lines = ["! crlf", "12-TET", "12"] + (1...11).map { String(format: "%.1f", Double($0) * 100) } + ["2/1"]
        for breakText in ["\r\n", "\r", "\n"] {
            let t = try Temperament.parseScala(lines.joined(separator: breakText) + breakText, file: "e.scl")
            for k in 0..<12 { XCTAssertEqual(t.deviations[k], Temperament.equal.deviations[k], accuracy: 1e-9) }
        }
        func error(_ text: String, file: String = "x.scl") -> String {
            do { _ = try Temperament.parseScala(text, file: file); return "parsed" } catch { return error.description }
        }
        XCTAssertEqual(error("d\r\n12\r\n100.0\r\n\u{1B}[2Jx\r\n"), "x.scl:4: '\\u{1B}[2Jx' is not a pitch (cents like 701.955, or a ratio like 3/2)")
        XCTAssertEqual(error("d\ntwelve\n", file: "a\u{7}b.scl"), "a\\u{7}b.scl:2: expected the note count, got 'twelve'")
        let long = error("d\n12\n" + String(repeating: "9", count: 100_000) + "x\n")
        XCTAssertTrue(long.count < 200 && long.contains("…"), long)
    }
}
