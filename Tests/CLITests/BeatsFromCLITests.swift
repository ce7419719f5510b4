import Foundation
import SpecvizTestSupport
import XCTest

/// `tempo IN --json -o FILE` once, `render --bpm --beats-from FILE` in every segment (issue 41
/// item 2): the frames are those of a render that analyses the track itself.
final class BeatsFromCLITests: XCTestCase {
    func testARenderFromTheTempoFileDrawsTheSameBeats() throws {
        let dir = CLI.tempDir()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try Signals.writeWAV(ClickTracks.fourOnTheFloor(bpm: 120, seconds: 8, sampleRate: 44_100), to: dir + "/t.wav")
        let tempo = try CLI.run(["tempo", dir + "/t.wav", "--json", "-o", dir + "/beats.json"])
        XCTAssertEqual(tempo.status, 0, tempo.stderr)
        XCTAssertEqual(tempo.stdout, "", "with -o nothing goes to standard output")
        let object = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: dir + "/beats.json"))) as? [String: Any]
        XCTAssertGreaterThan((object?["beats"] as? [Any])?.count ?? 0, 8)
        // An existing output needs -y.
        XCTAssertEqual(try CLI.run(["tempo", dir + "/t.wav", "--json", "-o", dir + "/beats.json"]).status, 1)

        // Stills on, just after and between beats: the flash, the beat dot and the BPM agree.
        let base = ["render", dir + "/t.wav", "--bpm", "--size", "160x90", "--quiet"]
        for at in ["4.0", "4.02", "4.26", "6.5"] {
            XCTAssertEqual(try CLI.run(base + ["--at", at, "-o", dir + "/own.png"]).status, 0)
            let r = try CLI.run(base + ["--at", at, "--beats-from", dir + "/beats.json", "-o", dir + "/read.png"])
            XCTAssertEqual(r.status, 0, r.stderr)
            XCTAssertEqual(
                try Data(contentsOf: URL(fileURLWithPath: dir + "/own.png")), try Data(contentsOf: URL(fileURLWithPath: dir + "/read.png")),
                "frame at \(at) s")
            try FileManager.default.removeItem(atPath: dir + "/own.png")
            try FileManager.default.removeItem(atPath: dir + "/read.png")
        }

        // A file that is not tempo's JSON: one line, a usage error, nothing written.
        for (name, text) in [("bad.json", "{\"beats\": 3}"), ("back.json", "{\"beats\": [[2, 1], [1, 2]], \"segments\": []}"), ("x.json", "no")] {
            try text.write(toFile: dir + "/" + name, atomically: true, encoding: .utf8)
            let r = try CLI.run(base + ["--at", "1", "--beats-from", dir + "/" + name, "-o", dir + "/bad.png"])
            XCTAssertEqual(r.status, 64, r.stderr)
            XCTAssertTrue(r.stderr.contains("--beats-from") && r.stderr.split(separator: "\n").count == 1, r.stderr)
        }
        XCTAssertFalse(FileManager.default.fileExists(atPath: dir + "/bad.png"))
    }
}
