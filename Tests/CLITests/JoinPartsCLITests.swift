import Foundation
import MediaIO
import SpecvizTestSupport
import XCTest

/// `join` takes exactly the parts 1/N … N/N of one render, in order and whole (issue 36): any
/// other set is refused with one line naming the part, and nothing is written.
final class JoinPartsCLITests: XCTestCase {
    let small = ["--size", "48x28", "--fps", "20", "--x264-preset", "ultrafast", "--quiet"]

    func testBadSetsOfPartsAreRefusedNamingThePart() throws {
        let dir = CLI.tempDir()
        try Signals.writeWAV(Signals.sines([(330, 0.3)], seconds: 1.5), to: dir + "/in.wav")
        try Signals.writeWAV(Signals.sines([(331, 0.3)], seconds: 1.5), to: dir + "/other.wav")
        func render(_ input: String, _ k: Int, _ out: String, _ extra: [String] = []) throws {
            let r = try CLI.run(["render", dir + "/" + input, "--segment", "\(k)/3", "-o", dir + "/" + out] + small + extra)
            XCTAssertEqual(r.status, 0, r.stderr)
        }
        for k in 1...3 { try render("in.wav", k, "p\(k).mp4") }
        try render("in.wav", 2, "gain.mp4", ["--gain", "6"])
        try render("other.wav", 2, "other.mp4")
        let whole = try Data(contentsOf: URL(fileURLWithPath: dir + "/p2.mp4"))
        FileManager.default.createFile(atPath: dir + "/cut.mp4", contents: whole.prefix(whole.count * 2 / 3))
        XCTAssertEqual(try CLI.run(["render", dir + "/in.wav", "-o", dir + "/plain.mp4"] + small).status, 0)

        let cases: [(String, [String], String)] = [
            ("missing", ["p1", "p3"], "segment 2/3 is missing"),
            ("repeated", ["p1", "p2", "p2", "p3"], "'\(dir)/p2.mp4' is segment 2/3 again"),
            ("reordered", ["p2", "p1", "p3"], "'\(dir)/p2.mp4' is segment 2/3 but segment 1/3 goes here"),
            ("other settings", ["p1", "gain", "p3"], "'\(dir)/gain.mp4' was rendered with other settings"),
            ("other source", ["p1", "other", "p3"], "'\(dir)/other.mp4' was rendered from another source"),
            ("truncated", ["p1", "cut", "p3"], "'\(dir)/cut.mp4'"),
            ("not a part", ["plain", "p2", "p3"], "'\(dir)/plain.mp4' is not a part of a segmented render"),
        ]
        let before = CLI.files(dir)
        for (what, parts, message) in cases {
            let r = try CLI.run(["join"] + parts.map { dir + "/" + $0 + ".mp4" } + ["-o", dir + "/joined.mp4", "--quiet"])
            XCTAssertEqual(r.status, 1, "\(what): \(r.stderr)")
            XCTAssertEqual(r.stderr.split(separator: "\n").count, 1, "\(what): \(r.stderr)")
            XCTAssertTrue(r.stderr.hasPrefix("specviz: error: ") && r.stderr.contains(message), "\(what): \(r.stderr)")
            XCTAssertEqual(CLI.files(dir), before, "\(what): nothing written")
        }
        // --from past the end of --audio.
        let late = try CLI.run(
            ["join"] + (1...3).map { dir + "/p\($0).mp4" } + ["--audio", dir + "/in.wav", "--from", "2", "-o", dir + "/joined.mp4"])
        XCTAssertNotEqual(late.status, 0)
        XCTAssertTrue(late.stderr.contains("--from 2 is past the end of '\(dir)/in.wav'"), late.stderr)
        XCTAssertEqual(CLI.files(dir), before)
        // The whole set, in order, joins.
        let good = try CLI.run(["join"] + (1...3).map { dir + "/p\($0).mp4" } + ["--audio", dir + "/in.wav", "-o", dir + "/joined.mp4", "--quiet"])
        XCTAssertEqual(good.status, 0, good.stderr)
        XCTAssertEqual(try MediaProbe(path: dir + "/joined.mp4").streams.first { $0.kind == "video" }?.packets, 30)
    }
}
