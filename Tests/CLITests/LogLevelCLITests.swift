import Foundation
import SpecvizTestSupport
import XCTest

/// The global `--log-level` (issue 40 item 11): what reaches stderr, wherever it stands.
final class LogLevelCLITests: XCTestCase {
    func testLevelsFilterStderrAndKeepTheExitStatus() throws {
        let dir = CLI.tempDir()
        try Signals.writeWAV(Signals.sines([(440, 0.4)], seconds: 0.4), to: dir + "/a.wav")
        let late = ["render", dir + "/a.wav", "--from", "9", "-o", dir + "/o.mp4"]
        // An error: shown from `error` up, the status the same at every level.
        for (level, shown) in [("quiet", false), ("error", true), ("warning", true), ("info", true)] {
            for args in [late + ["--log-level", level], ["--log-level=\(level)"] + late] {
                let r = try CLI.run(args)
                XCTAssertEqual(r.status, 64, "\(args): \(r.stderr)")
                XCTAssertEqual(r.stderr.contains("past the end"), shown, "\(args): \(r.stderr)")
            }
        }
        // A note (--to past the end is clamped): only at info, the default.
        let clamped = ["render", dir + "/a.wav", "--to", "9", "--size", "64x36", "--fps", "5", "-o", dir + "/o.mp4", "-y"]
        for (level, shown) in [(nil, true), ("warning", false), ("quiet", false)] {
            let r = try CLI.run(clamped + (level.map { ["--log-level", $0] } ?? []))
            XCTAssertEqual(r.status, 0, r.stderr)
            XCTAssertEqual(r.stderr.contains("note: --to 9 is past the end"), shown, "\(level ?? "default"): \(r.stderr)")
            if !shown { XCTAssertEqual(r.stderr, "") }
        }
        let bad = try CLI.run(["--log-level", "loud", "modes"])
        XCTAssertEqual(bad.status, 64)
        XCTAssertEqual(bad.stderr, "specviz: error: unknown --log-level 'loud' (quiet, error, warning, info)\n")
        // After `--` it is an argument like any other: here an input named --log-level.
        let literal = try CLI.run(["render", "-o", dir + "/p.png", "--", "--log-level"])
        XCTAssertNotEqual(literal.status, 0)
        XCTAssertTrue(literal.stderr.contains("--log-level"), literal.stderr)
    }
}
