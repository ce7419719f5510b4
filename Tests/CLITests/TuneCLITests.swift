import Foundation
import MediaIO
import SpecvizTestSupport
import XCTest

/// `specviz tune --json` and the tune command's bad-input cases (issue 14 item 7, issue 19).
final class TuneCLITests: XCTestCase {
    func testJSONHasTheSummaryNotesAndEveryHop() throws {
        let dir = CLI.tempDir()
        // A4 for 1 s at 44.1 kHz, 10 cents sharp.
        try Signals.writeWAV(
            Signals.sines([(440 * pow(2, 10.0 / 1200), 0.4), (880 * pow(2, 10.0 / 1200), 0.2)], seconds: 1.0),
            to: dir + "/a4.wav")
        let r = try CLI.run(["tune", dir + "/a4.wav", "--json"])
        XCTAssertEqual(r.status, 0, r.stderr)
        let obj = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any])
        XCTAssertEqual(obj["file"] as? String, "a4.wav")
        let notes = try XCTUnwrap(obj["notes"] as? [[String: Any]])
        XCTAssertEqual(notes.count, 1)
        XCTAssertEqual(notes.first?["note"] as? String, "A4")
        XCTAssertEqual(notes.first?["verdict"] as? String, "sharp")
        XCTAssertEqual(try XCTUnwrap(notes.first?["mean_cents"] as? Double), 10, accuracy: 1)
        let frames = try XCTUnwrap(obj["frames"] as? [[String: Any]])
        // One row per 512-sample hop, the same rows as --csv.
        let csvRows = try CLI.run(["tune", dir + "/a4.wav", "--csv"]).stdout.split(separator: "\n").count - 1
        XCTAssertEqual(frames.count, csvRows)
        XCTAssertEqual(frames.count, 44100 / 512)
        XCTAssertTrue(frames.first?["f0_hz"] is NSNull, "the first hop shows nothing yet")
        XCTAssertEqual(try XCTUnwrap(frames.last?["f0_hz"] as? Double), 440 * pow(2, 10.0 / 1200), accuracy: 0.5)
        let shown = frames.filter { $0["f0_hz"] is Double }
        XCTAssertFalse(shown.isEmpty)
        XCTAssertTrue(shown.allSatisfy { $0["unsure"] as? Bool == false }, "a clean tone is never unsure")
        XCTAssertTrue(frames.filter { $0["f0_hz"] is NSNull }.allSatisfy { $0["unsure"] == nil })
    }

    /// A low bass note under a kick on every beat: the frames the tuner shows grey ("?¢") say
    /// `"unsure": true`, and a note shown unsure throughout is unsure in the summary too.
    func testJSONMarksUnsureFrames() throws {
        let dir = CLI.tempDir()
        let sr = 44100
        var x = Signals.sines([(55, 0.3), (110, 0.15), (165, 0.1), (220, 0.07)], seconds: 4, sampleRate: sr)
        let kick = ClickTracks.hit(.kick, sampleRate: sr, gain: 0.9)
        for b in 0..<8 {
            let at = b * sr / 2
            for (i, v) in kick.enumerated() where at + i < x.count { x[at + i] += v }
        }
        try Signals.writeWAV(x, sampleRate: sr, to: dir + "/kick.wav")
        let r = try CLI.run(["tune", dir + "/kick.wav", "--json"])
        XCTAssertEqual(r.status, 0, r.stderr)
        let obj = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any])
        let frames = try XCTUnwrap(obj["frames"] as? [[String: Any]])
        let unsure = frames.filter { $0["unsure"] as? Bool == true }
        XCTAssertFalse(unsure.isEmpty, "the kick's tail pulls the bass: some frames are unsure")
        XCTAssertTrue(unsure.allSatisfy { $0["f0_hz"] is Double }, "unsure frames still carry the held pitch")
    }

    func testJSONAndCSVTogetherIsAUsageError() throws {
        let dir = CLI.tempDir()
        try Signals.writeWAV(Signals.sines([(440, 0.4)], seconds: 0.3), to: dir + "/a.wav")
        let r = try CLI.run(["tune", dir + "/a.wav", "--json", "--csv"])
        XCTAssertNotEqual(r.status, 0)
        XCTAssertEqual(r.stderr.split(separator: "\n").filter { !$0.isEmpty }.count, 1, r.stderr)
        XCTAssertEqual(r.stdout, "")
    }

    /// Issue 14 item 7 end to end: a file of pure DC is "no pitch detected".
    func testDirectCurrentFileHasNoPitch() throws {
        let dir = CLI.tempDir()
        try Signals.writeWAV([Float](repeating: 0.5, count: 44100), to: dir + "/dc.wav")
        let r = try CLI.run(["tune", dir + "/dc.wav"])
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertTrue(r.stdout.contains("no pitch detected"), r.stdout)
    }

    /// Issue 19 end to end: `tone` plays a written note of a B♭ instrument in Werckmeister III
    /// on C, and `tune` with the same options reads that written note at 0 ¢.
    func testToneAndTuneAgreeOnTransposedTemperedNote() throws {
        let dir = CLI.tempDir()
        let opts = ["--transpose", "Bb", "--temperament", "werckmeister3"]
        let t = try CLI.run(["tone", "F#4", "--duration", "1", "-o", dir + "/e.wav", "-q"] + opts)
        XCTAssertEqual(t.status, 0, t.stderr)
        let r = try CLI.run(["tune", dir + "/e.wav", "--json"] + opts)
        XCTAssertEqual(r.status, 0, r.stderr)
        let obj = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any])
        XCTAssertEqual(obj["temperament"] as? String, "werckmeister3")
        XCTAssertEqual(obj["transpose"] as? Int, 2)
        let notes = try XCTUnwrap(obj["notes"] as? [[String: Any]])
        XCTAssertEqual(notes.first?["note"] as? String, "F#4")
        // Written F#4 sounds E4, −9.8 ¢ from equal in Werckmeister III.
        XCTAssertEqual(try XCTUnwrap(notes.first?["mean_hz"] as? Double), 329.628 * pow(2, -9.775 / 1200), accuracy: 0.1)
        XCTAssertEqual(try XCTUnwrap(notes.first?["mean_cents"] as? Double), 0, accuracy: 0.5)
        // Without the options the same file is E4, 9.8 ¢ flat.
        let plain = try CLI.run(["tune", dir + "/e.wav", "--csv"])
        XCTAssertTrue(plain.stdout.contains(",E4,-9.7") || plain.stdout.contains(",E4,-9.8"), plain.stdout)
    }

    func testBadTemperamentOptionsAreOneLineErrors() throws {
        let dir = CLI.tempDir()
        try Signals.writeWAV(Signals.sines([(440, 0.4)], seconds: 0.3), to: dir + "/a.wav")
        try "! bad\nseven notes\n7\n".write(toFile: dir + "/seven.scl", atomically: true, encoding: .utf8)
        for (args, message) in [
            (["--temperament", dir + "/seven.scl"], "seven.scl:3: 7 notes per octave"),
            (["--temperament", "bogus"], "--temperament 'bogus'"),
            (["--transpose", "H"], "--transpose 'H'"),
            (["--tonic", "X"], "--tonic 'X'"),
        ] {
            let r = try CLI.run(["tune", dir + "/a.wav"] + args)
            XCTAssertNotEqual(r.status, 0)
            XCTAssertEqual(r.stdout, "")
            XCTAssertEqual(r.stderr.split(separator: "\n").count, 1, r.stderr)
            XCTAssertTrue(r.stderr.hasPrefix("specviz: error: ") && r.stderr.contains(message), r.stderr)
        }
    }
}

/// `--stretch` and `--offsets` reach the tuner's targets from the command line (issue 19).
final class StretchCLITests: XCTestCase {
    func testStretchedA6AndSweetenedE2ReadInTune() throws {
        let dir = CLI.tempDir()
        let a6 = 1760 * pow(2, 8.0 / 1200)
        try Signals.writeWAV(Signals.sines([(a6, 0.4)], seconds: 1), to: dir + "/a6.wav")
        func meanCents(_ file: String, _ args: [String]) throws -> Double {
            let r = try CLI.run(["tune", dir + "/" + file, "--json"] + args)
            XCTAssertEqual(r.status, 0, r.stderr)
            let obj = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any])
            let notes = try XCTUnwrap(obj["notes"] as? [[String: Any]])
            return try XCTUnwrap(notes.first?["mean_cents"] as? Double)
        }
        XCTAssertEqual(try meanCents("a6.wav", []), 8, accuracy: 1)
        XCTAssertEqual(try meanCents("a6.wav", ["--stretch", "piano"]), 0, accuracy: 1)
        let e2 = 82.4069 * pow(2, -3.0 / 1200)
        try Signals.writeWAV(Signals.sines([(e2, 0.4), (2 * e2, 0.3), (3 * e2, 0.2)], seconds: 1.5), to: dir + "/e2.wav")
        XCTAssertEqual(try meanCents("e2.wav", ["--preset", "guitar-standard", "--offsets", "E2:-3"]), 0, accuracy: 1)
        let bad = try CLI.run(["tune", dir + "/e2.wav", "--offsets", "E2"])
        XCTAssertNotEqual(bad.status, 0)
        XCTAssertTrue(bad.stderr.contains("NOTE:CENTS"), bad.stderr)
    }
}

/// `tune --report out.png`: the chart is written atomically; bad names are one error line.
final class TuneReportCLITests: XCTestCase {
    func testReportIsWrittenAndRefusesBadNames() throws {
        let dir = CLI.tempDir()
        try Signals.writeWAV(Signals.sines([(440, 0.4)], seconds: 1), to: dir + "/a.wav")
        let r = try CLI.run(["tune", dir + "/a.wav", "--report", dir + "/chart.png"])
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertTrue(r.stdout.contains("A4"), "the summary still prints")
        let chart = try PNGFile.read(dir + "/chart.png")
        XCTAssertEqual(chart.width, 1600)
        let again = try CLI.run(["tune", dir + "/a.wav", "--report", dir + "/chart.png"])
        XCTAssertNotEqual(again.status, 0)
        XCTAssertTrue(again.stderr.contains("exists"), again.stderr)
        let jpg = try CLI.run(["tune", dir + "/a.wav", "--report", dir + "/chart.jpg"])
        XCTAssertNotEqual(jpg.status, 0)
        XCTAssertEqual(CLI.files(dir).sorted(), ["a.wav", "chart.png"])
    }
}
