import Analysis
import Foundation
import XCTest

/// Issue 39 item 6 on a generated set (`KickSet`): in-tune bass notes from E1 to C3 in three
/// timbres, sustained and detached, under kicks from -12 to +6 dB landing at the onset and
/// mid-note. No confident reading may lie more than 5 cents from the mix's notes; without
/// the kicks the same notes must still read confidently.
final class KickSetTests: XCTestCase {
    static let low = [28, 31, 33, 36, 38]
    static let high = [41, 43, 45, 48]

    /// Asserts that at most `allowed` hops of `mixes` show a confident reading more than 5
    /// cents off every note of the mix, and that some hops still read confidently.
    func assertConfidentWrongReadings(
        _ mixes: [KickSet.Mix], atMost allowed: Int, file: StaticString = #filePath, line: UInt = #line
    ) {
        let tally = mixes.map(KickSet.measure).reduce(KickSet.Tally(), +)
        print("KickSet \(mixes.map(\.name).joined(separator: ", ")): \(tally)")
        XCTAssertLessThanOrEqual(tally.wrong, allowed, "\(tally)", file: file, line: line)
        XCTAssertGreaterThan(tally.confidentInNotes, tally.noteHops / 5, "\(tally)", file: file, line: line)
    }

    /// Main before the fix: 92 of 1137 confident readings wrong (up to 70 cents).
    /// Now 1 hop (-5.4 cents, an A1 as a -12 dB kick's tail fades).
    func testSustainedLowNotesUnderKicks() {
        assertConfidentWrongReadings(KickSet.Timbre.allCases.map { KickSet.sustained($0, notes: Self.low) }, atMost: 1)
    }

    /// Main: 378 of 964 wrong (an A1 read under an A2 with a 50 Hz kick's tail, 8 semitones
    /// off the mix's notes).
    func testSustainedHigherNotesUnderKicks() {
        assertConfidentWrongReadings(KickSet.Timbre.allCases.map { KickSet.sustained($0, notes: Self.high) }, atMost: 0)
    }

    /// Main: 124 of 1535 wrong. Left: about 40 hops (8-15 cents) where a kick lands in the
    /// first 60 ms of a detached note, before the note's partial is measured past the
    /// attack, and the partial that replaces the pulled period was crossed by the kick's
    /// falling sweep.
    func testDetachedNotesUnderKicks() {
        assertConfidentWrongReadings(KickSet.Timbre.allCases.map { KickSet.detached($0, notes: KickSet.line) }, atMost: 45)
    }

    /// Main: 13 of 153 wrong.
    func testDetachedNotesUnderKicksAndPad() {
        assertConfidentWrongReadings([KickSet.detached(.saw, notes: [29, 24, 33, 31], pad: [52, 55, 60])], atMost: 0)
    }

    /// Without kicks, the same notes read confidently (and in tune) on most of their hops:
    /// 94-97 % of the hops from 0.1 s into each note (main, on the nine notes of
    /// `KickSet.line`: 98-99.5 %; this branch there: 93-96 %).
    func testKickFreeNotesStayConfident() {
        let line = [28, 33, 38, 43, 48]
        var mixes = KickSet.Timbre.allCases.map { KickSet.sustained($0, notes: line, kicks: false) }
        mixes += KickSet.Timbre.allCases.map { KickSet.detached($0, notes: line, kicks: false) }
        for mix in mixes {
            let tally = KickSet.measure(mix)
            print("KickSet clean \(mix.name): \(tally)")
            XCTAssertEqual(tally.wrong, 0, "\(mix.name): \(tally)")
            XCTAssertGreaterThan(Double(tally.confidentInNotes), 0.9 * Double(tally.noteHops), "\(mix.name): \(tally)")
        }
    }
}
