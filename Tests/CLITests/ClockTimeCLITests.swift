import Foundation
import SpecvizTestSupport
import XCTest

/// --from, --to and --at take ffmpeg's `[[hh:]mm:]ss[.frac]` as well as plain seconds
/// (issue 40 item 9).
final class ClockTimeCLITests: XCTestCase {
    func testClockTimesMeanTheirSeconds() throws {
        let dir = CLI.tempDir()
        try Signals.writeWAV(Signals.sines([(440, 0.4)], seconds: 1), to: dir + "/a.wav")
        // A start past the end names the time in seconds: the clock form was read as such.
        for (time, seconds) in [("1:30", "90"), ("1:02:03.5", "3723.5"), ("01:05", "65"), ("2500ms", "2.5"), ("90:00", "5400"), ("1e3", "1000")] {
            let r = try CLI.run(["render", dir + "/a.wav", "--from", time, "--size", "64x36", "-o", dir + "/o.mp4"])
            XCTAssertEqual(r.status, 64, r.stderr)
            XCTAssertTrue(r.stderr.contains("--from \(seconds) is past the end"), "\(time): \(r.stderr)")
        }
        let join = try CLI.run(["join", dir + "/p.mkv", "-o", dir + "/j.mkv", "--audio", dir + "/a.wav", "--from", "0:01:00"])
        XCTAssertTrue(join.stderr.contains("--from 60 is past the end"), join.stderr)
        // The same still, whichever way its time is written.
        let still = ["render", dir + "/a.wav", "--size", "64x36", "--no-labels"]
        var frames: [Data] = []
        for (i, time) in ["0.5", "0:00.5", "00:00:00.50", "500ms"].enumerated() {
            let r = try CLI.run(still + ["--at", time, "-o", dir + "/s\(i).png"])
            XCTAssertEqual(r.status, 0, "\(time): \(r.stderr)")
            frames.append(try Data(contentsOf: URL(fileURLWithPath: dir + "/s\(i).png")))
        }
        XCTAssertEqual(Set(frames).count, 1)
        let other = try CLI.run(still + ["--at", "0:00.2", "-o", dir + "/t.png"])
        XCTAssertEqual(other.status, 0, other.stderr)
        XCTAssertNotEqual(try Data(contentsOf: URL(fileURLWithPath: dir + "/t.png")), frames[0])
    }

    func testMalformedTimesAreOneLineUsageErrors() throws {
        let dir = CLI.tempDir()
        try Signals.writeWAV(Signals.sines([(440, 0.4)], seconds: 0.5), to: dir + "/a.wav")
        for (option, time) in [
            ("--from", "1:75"), ("--from", "1:-3"), ("--to", "1:2:3:4"), ("--at", "1::2"), ("--at", "abc"), ("--from", "-1:00"),
            ("--to", "0x10"), ("--from", "1e-"), ("--at", "1:30."), ("--to", "100:00:00:00"), ("--from", "2400:00:01"),
        ] {
            let out = option == "--at" ? dir + "/o.png" : dir + "/o.mp4"
            let r = try CLI.run(["render", dir + "/a.wav", option, time, "--size", "64x36", "-o", out])
            XCTAssertEqual(r.status, 64, "\(option) \(time): \(r.stderr)")
            XCTAssertEqual(r.stderr.split(separator: "\n").count, 1, r.stderr)
            XCTAssertTrue(r.stderr.contains(option) && r.stderr.contains(time), r.stderr)
        }
        XCTAssertEqual(CLI.files(dir), ["a.wav"])
    }
}
