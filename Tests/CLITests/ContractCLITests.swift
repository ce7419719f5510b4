import Foundation
import SpecvizTestSupport
import XCTest

/// SPEC §1's machine-readable contracts for `tune` and `tempo` (outside tools parse them),
/// and the typed options' one-line errors (issue 15).
final class ContractCLITests: XCTestCase {
    /// `tune --csv`: header `time_s,f0_hz,note,cents,confidence`; one row per 512-sample hop in
    /// time order; empty f0/note/cents while the display shows ---; ≥ 4 decimals of f0.
    func testTuneCSV() throws {
        let dir = CLI.tempDir()
        // 0.3 s of silence, then A4 +10 ¢ for 1 s.
        let a4 = Signals.sines([(440 * pow(2, 10.0 / 1200), 0.4), (880 * pow(2, 10.0 / 1200), 0.15)], seconds: 1.0)
        try Signals.writeWAV([Float](repeating: 0, count: 13_230) + a4, to: dir + "/a.wav")
        let r = try CLI.run(["tune", dir + "/a.wav", "--csv"])
        XCTAssertEqual(r.status, 0, r.stderr)
        let rows = r.stdout.split(separator: "\n").map { $0.split(separator: ",", omittingEmptySubsequences: false).map(String.init) }
        XCTAssertEqual(rows.first, ["time_s", "f0_hz", "note", "cents", "confidence"])
        let body = rows.dropFirst()
        XCTAssertEqual(body.count, (13_230 + 44_100) / 512)
        var last = -1.0
        for row in body {
            XCTAssertEqual(row.count, 5, "\(row)")
            let t = try XCTUnwrap(Double(row[0]))
            XCTAssertGreaterThan(t, last)
            last = t
            let c = try XCTUnwrap(Double(row[4]))
            XCTAssertTrue((0...1).contains(c))
            // The three display columns are empty together or filled together.
            XCTAssertEqual(row[1].isEmpty, row[2].isEmpty, "\(row)")
            XCTAssertEqual(row[1].isEmpty, row[3].isEmpty, "\(row)")
        }
        // Silence shows nothing; the held note shows A4 at +10 ¢ with ≥ 4 decimals of f0.
        XCTAssertTrue(body.first { (Double($0[0]) ?? 0) < 0.25 }?[1].isEmpty ?? false)
        let shown = body.filter { !$0[1].isEmpty }
        XCTAssertGreaterThan(shown.count, body.count / 2)
        let end = try XCTUnwrap(shown.last)
        XCTAssertEqual(end[2], "A4")
        XCTAssertEqual(try XCTUnwrap(Double(end[3])), 10, accuracy: 1.5)
        XCTAssertGreaterThanOrEqual(end[1].split(separator: ".").last?.count ?? 0, 4)
        XCTAssertEqual(try XCTUnwrap(Double(end[1])), 440 * pow(2, 10.0 / 1200), accuracy: 0.5)
    }

    /// `tempo --csv`: header `time_s,bpm,confidence`, ≥ 2 rows per second, bpm empty while no
    /// tempo shows; `--json`: bpm, confidence, the metrical level with its probabilities, and a
    /// timeline of [time_s, bpm or null, confidence].
    func testTempoCSVAndJSON() throws {
        let dir = CLI.tempDir()
        try Signals.writeWAV(ClickTracks.fourOnTheFloor(bpm: 120, seconds: 12, sampleRate: 44_100), to: dir + "/t.wav")
        let csv = try CLI.run(["tempo", dir + "/t.wav", "--csv"])
        XCTAssertEqual(csv.status, 0, csv.stderr)
        let rows = csv.stdout.split(separator: "\n").map { $0.split(separator: ",", omittingEmptySubsequences: false).map(String.init) }
        XCTAssertEqual(rows.first, ["time_s", "bpm", "confidence"])
        let body = rows.dropFirst()
        XCTAssertGreaterThanOrEqual(body.count, 2 * 12 - 2)
        XCTAssertTrue(body.allSatisfy { $0.count == 3 && Double($0[0]) != nil && Double($0[2]) != nil })
        XCTAssertTrue(body.first?[1].isEmpty ?? false, "no tempo at the very start")
        XCTAssertEqual(Double(try XCTUnwrap(body.last)[1]) ?? 0, 120, accuracy: 2)

        let json = try CLI.run(["tempo", dir + "/t.wav", "--json"])
        XCTAssertEqual(json.status, 0, json.stderr)
        let obj = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        XCTAssertEqual(obj["bpm"] as? Double ?? 0, 120, accuracy: 2)
        XCTAssertTrue((0...1).contains(obj["confidence"] as? Double ?? -1))
        let timeline = try XCTUnwrap(obj["timeline"] as? [[Any]])
        XCTAssertEqual(timeline.count, body.count, "the same updates as --csv")
        for entry in timeline {
            XCTAssertEqual(entry.count, 3)
            XCTAssertNotNil(entry[0] as? Double)
            XCTAssertTrue(entry[1] is NSNull || entry[1] is Double)
        }
        // The metrical level: the level reported, P(½), P(1), P(2) and the model's inputs.
        let level = try XCTUnwrap(obj["level"] as? [String: Any])
        XCTAssertEqual(level["factor"] as? Double, 1)
        let p = try XCTUnwrap(level["probabilities"] as? [Double])
        XCTAssertEqual(p.count, 3)
        XCTAssertEqual(p.reduce(0, +), 1, accuracy: 0.001)
        XCTAssertGreaterThan(p[1], 0.5, "four on the floor at 120 is tapped at 120: \(p)")
        XCTAssertEqual((level["inputs"] as? [Double])?.count, 25)
        XCTAssertNil(obj["level_readings"], "the live level's readings only with --causal")
        // The phase: each stretch of the grid it was read on, its 11 inputs and P(off the beat).
        let phase = try XCTUnwrap(obj["phase"] as? [[String: Any]])
        XCTAssertFalse(phase.isEmpty)
        for stretch in phase {
            let beats = try XCTUnwrap(stretch["beats"] as? [Double])
            XCTAssertTrue((8...48).contains(beats.count), "\(beats.count) beats")
            XCTAssertEqual(beats, beats.sorted())
            XCTAssertEqual((stretch["inputs"] as? [Double])?.count, 11)
            XCTAssertLessThan(stretch["off_beat"] as? Double ?? 1, 0.5, "four on the floor is on its kicks")
        }
        // --causal: the live level's readings, twice a second once the grid has 6 beats.
        let causal = try CLI.run(["tempo", dir + "/t.wav", "--json", "--causal"])
        XCTAssertEqual(causal.status, 0, causal.stderr)
        let live = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(causal.stdout.utf8)) as? [String: Any])
        let readings = try XCTUnwrap(live["level_readings"] as? [[String: Any]])
        XCTAssertGreaterThanOrEqual(readings.count, 8)
        let times = readings.compactMap { $0["time"] as? Double }
        XCTAssertEqual(times.count, readings.count)
        XCTAssertEqual(times, times.sorted())
        for r in readings {
            XCTAssertEqual(r["tempo"] as? Double ?? 0, 120, accuracy: 2)
            XCTAssertEqual((r["inputs"] as? [Double])?.count, 25)
            XCTAssertEqual((r["probabilities"] as? [Double])?.reduce(0, +) ?? 0, 1, accuracy: 0.001)
        }
        // Beat-less: bpm is null in JSON.
        try Signals.writeWAV(Signals.sines([(220, 0.3)], seconds: 4), to: dir + "/hum.wav")
        let none = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(try CLI.run(["tempo", dir + "/hum.wav", "--json"]).stdout.utf8)) as? [String: Any])
        XCTAssertTrue(none["bpm"] is NSNull)
        XCTAssertNil(none["level"], "no beats, no level")
        XCTAssertNil(none["phase"], "no beats, no phase")
    }

    /// `--range LO:HI` folds the tempo into a DJ-style octave; a range under an octave is refused.
    func testTempoRangeFolds() throws {
        let dir = CLI.tempDir()
        try Signals.writeWAV(ClickTracks.fourOnTheFloor(bpm: 120, seconds: 12, sampleRate: 44_100), to: dir + "/t.wav")
        let r = try CLI.run(["tempo", dir + "/t.wav", "--json", "--range", "40:80"])
        XCTAssertEqual(r.status, 0, r.stderr)
        let obj = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any])
        XCTAssertEqual(obj["bpm"] as? Double ?? 0, 60, accuracy: 1)
        let bad = try CLI.run(["tempo", dir + "/t.wav", "--range", "80:100"])
        XCTAssertEqual(bad.status, 64)
        XCTAssertTrue(bad.stderr.contains("LO:HI"), bad.stderr)
    }

    /// Misspelt enumerated values are one line listing close matches, from the flag and from
    /// the config file alike; a preset never falls back to chromatic.
    func testMisspeltValuesSuggestCloseMatches() throws {
        let dir = CLI.tempDir()
        try Signals.writeWAV(Signals.sines([(440, 0.4)], seconds: 0.5), to: dir + "/a.wav")
        let cases: [([String], String)] = [
            (["render", dir + "/a.wav", "--preset", "gutiar", "-o", dir + "/o.png"], "did you mean guitar-standard"),
            (["tune", dir + "/a.wav", "--preset", "violn"], "did you mean violin, viola"),
            (["tone", "--preset", "gutiar"], "did you mean guitar-standard"),
            (["render", dir + "/a.wav", "--mode", "bras", "-o", dir + "/o.png"], "did you mean bars"),
            (["render", dir + "/a.wav", "--palette", "magam", "-o", dir + "/o.png"], "did you mean magma"),
            (["render", dir + "/a.wav", "--meter", "wheal", "-o", dir + "/o.png"], "did you mean wheel"),
            (["render", dir + "/a.wav", "--size", "1920x1081", "-o", dir + "/o.png"], "even"),
            (["tune", dir + "/a.wav", "--reference", "500"], "400–480 Hz"),
        ]
        for (args, mention) in cases {
            let r = try CLI.run(args)
            XCTAssertEqual(r.status, 64, "\(args): \(r.stderr)")
            XCTAssertEqual(r.stderr.split(separator: "\n").count, 1, r.stderr)
            XCTAssertTrue(r.stderr.hasPrefix("specviz: error: ") && r.stderr.contains(mention), "\(args): \(r.stderr)")
        }
        XCTAssertEqual(CLI.files(dir), ["a.wav"])
        // The same rule in the config file, naming the file and the line.
        try FileManager.default.createDirectory(atPath: dir + "/c", withIntermediateDirectories: true)
        try "{\n\"mode\": \"bras\"\n}".write(toFile: dir + "/c/config.json", atomically: true, encoding: .utf8)
        let r = try CLI.run(["render", dir + "/a.wav", "--at", "0.2", "-o", dir + "/o.png"], stdinFile: nil, env: ["SPECVIZ_CONFIG": dir + "/c/config.json"])
        XCTAssertNotEqual(r.status, 0)
        XCTAssertTrue(r.stderr.contains("line 2") && r.stderr.contains("did you mean bars"), r.stderr)
    }
}

/// `--channels mix|left|right`: which channel of a stereo input the analysis hears.
final class ChannelChoiceCLITests: XCTestCase {
    func testLeftAndRightChannelsAreAnalysedApart() throws {
        let dir = CLI.tempDir()
        let l = Signals.sines([(440, 0.4)], seconds: 1), r = Signals.sines([(1000, 0.4)], seconds: 1)
        try Signals.writeWAV(left: l, right: r, to: dir + "/lr.wav")
        func lastNote(_ args: [String]) throws -> String {
            let out = try CLI.run(["tune", dir + "/lr.wav", "--csv"] + args)
            XCTAssertEqual(out.status, 0, out.stderr)
            return String(out.stdout.split(separator: "\n").last?.split(separator: ",", omittingEmptySubsequences: false)[2] ?? "")
        }
        XCTAssertEqual(try lastNote(["--channels", "left"]), "A4")
        XCTAssertEqual(try lastNote(["--channels", "right"]), "B5")
        let a = try CLI.run(["analyze", dir + "/lr.wav", "--json", "--fps", "4", "--channels", "right"])
        XCTAssertEqual(a.status, 0, a.stderr)
        let frames = try XCTUnwrap((try JSONSerialization.jsonObject(with: Data(a.stdout.utf8)) as? [String: Any])?["frames"] as? [[String: Any]])
        XCTAssertEqual(frames.last?["peak_hz"] as? Double ?? 0, 1000, accuracy: 3)
        let bad = try CLI.run(["tune", dir + "/lr.wav", "--channels", "centre"])
        XCTAssertEqual(bad.status, 64)
        XCTAssertTrue(bad.stderr.contains("mix, left, right"), bad.stderr)
    }
}
