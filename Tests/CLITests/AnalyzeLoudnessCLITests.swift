import Foundation
import SpecvizTestSupport
import XCTest

/// `specviz analyze --loudness`: EBU R128 columns and the file's integrated loudness.
final class AnalyzeLoudnessCLITests: XCTestCase {
    /// A 1 kHz sine of peak 0.5 (−6.02 dBFS) in a mono file reads −9.03 LUFS (a full-scale
    /// mono sine is −3.01); JSON has the three per-frame keys and the file's integrated value.
    func testJSONHasMomentaryShortTermAndIntegrated() throws {
        let dir = CLI.tempDir()
        try Signals.writeWAV(Signals.sines([(1000, 0.5)], seconds: 4.0), to: dir + "/k.wav")
        let r = try CLI.run(["analyze", dir + "/k.wav", "--json", "--fps", "5", "--loudness"])
        XCTAssertEqual(r.status, 0, r.stderr)
        let doc = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any])
        XCTAssertEqual(doc["integrated_lufs"] as? Double ?? 0, -9.03, accuracy: 0.1)
        let frames = try XCTUnwrap(doc["frames"] as? [[String: Any]])
        XCTAssertEqual(frames.count, 20)
        XCTAssertTrue(frames[0]["momentary_lufs"] is NSNull, "undefined before 400 ms")
        XCTAssertEqual(frames[10]["momentary_lufs"] as? Double ?? 0, -9.03, accuracy: 0.1)
        XCTAssertTrue(frames[10]["short_term_lufs"] is NSNull, "undefined before 3 s")
        XCTAssertEqual(frames[19]["short_term_lufs"] as? Double ?? 0, -9.03, accuracy: 0.1)
        XCTAssertEqual(frames[19]["integrated_lufs"] as? Double ?? 0, -9.03, accuracy: 0.1)
    }

    /// CSV gains three columns, empty until defined; without the flag the header is as before.
    func testCSVColumns() throws {
        let dir = CLI.tempDir()
        try Signals.writeWAV(Signals.sines([(1000, 0.5)], seconds: 1.0), to: dir + "/k.wav")
        let r = try CLI.run(["analyze", dir + "/k.wav", "--csv", "--fps", "4", "--loudness", "--scale", "octave:1"])
        XCTAssertEqual(r.status, 0, r.stderr)
        let rows = r.stdout.split(separator: "\n").map { $0.split(separator: ",", omittingEmptySubsequences: false) }
        XCTAssertEqual(Array(rows[0].suffix(3)), ["momentary_lufs", "short_term_lufs", "integrated_lufs"])
        XCTAssertEqual(rows[1].last, "", "frame 0: nothing measured yet")
        XCTAssertEqual(Double(rows[3][rows[3].count - 3]) ?? 0, -9.03, accuracy: 0.1)
        let plain = try CLI.run(["analyze", dir + "/k.wav", "--csv", "--fps", "4", "--scale", "octave:1"])
        XCTAssertEqual(plain.stdout.split(separator: "\n")[0].split(separator: ",").last, "peak_db")
    }
}
