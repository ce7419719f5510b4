import Foundation
import SpecvizTestSupport
import XCTest

/// Issue 36, classes 3 and 7: every command that writes a file stops on INT, TERM and HUP
/// leaving nothing, a batch's renders die with it; invalid values are usage errors (64),
/// negative numbers read as the README writes them, config errors name the file and line.
final class StopAndUsageCLITests: XCTestCase {
    /// Polls (bounded) until `ready` holds.
    func waitUntil(_ what: String, seconds: Double = 30, _ ready: () -> Bool) {
        let deadline = Date().addingTimeInterval(seconds)
        while !ready() && Date() < deadline { usleep(10_000) }
        XCTAssertTrue(ready(), "timed out waiting for \(what)")
    }

    func hasTemporary(_ dir: String) -> Bool { CLI.files(dir).contains { $0.hasPrefix(".svz-") } }

    func testAnalyzeAndJoinStopOnEverySignalLeavingNothing() throws {
        let dir = CLI.tempDir()
        try Signals.writeWAV(Signals.sines([(220, 0.4)], seconds: 20), to: dir + "/long.wav")
        try Signals.writeWAV(Signals.sines([(220, 0.4)], seconds: 10), to: dir + "/s.wav")
        try Signals.writeWAV(Signals.sines([(220, 0.4)], seconds: 30), to: dir + "/whole.wav")
        let wav = try Data(contentsOf: URL(fileURLWithPath: dir + "/whole.wav"))
        try FileManager.default.removeItem(atPath: dir + "/whole.wav")
        for k in 1...2 {
            let r = try CLI.run(["render", dir + "/s.wav", "--segment", "\(k)/2", "--size", "64x36", "--fps", "5", "--quiet", "-o", dir + "/p\(k).mp4"])
            XCTAssertEqual(r.status, 0, r.stderr)
        }
        XCTAssertEqual(mkfifo(dir + "/audio.wav", 0o600), 0)
        let before = CLI.files(dir)
        for (sig, code) in [(SIGINT, Int32(130)), (SIGTERM, 143), (SIGHUP, 129)] {
            // analyze -o: under way once its temporary exists (20 s at 1000 fps takes a while).
            let a = try CLI.start(["analyze", dir + "/long.wav", "--csv", "--fps", "1000", "-o", dir + "/levels.csv"])
            waitUntil("analyze's temporary") { hasTemporary(dir) }
            kill(a.processIdentifier, sig)
            a.waitUntilExit()
            XCTAssertEqual(a.terminationReason, .exit)
            XCTAssertEqual(a.terminationStatus, code, "analyze, signal \(sig)")
            XCTAssertEqual(CLI.files(dir), before, "analyze, signal \(sig)")
            // join --audio from a FIFO that this test keeps open with 6 of the 10 s it needs:
            // it waits for more sound with its temporary open.
            let j = try CLI.start(["join", dir + "/p1.mp4", dir + "/p2.mp4", "--audio", dir + "/audio.wav", "-o", dir + "/joined.mp4"])
            let writer = try XCTUnwrap(FileHandle(forWritingAtPath: dir + "/audio.wav"))
            writer.write(wav.prefix(wav.count / 5))
            waitUntil("join's temporary") { hasTemporary(dir) }
            kill(j.processIdentifier, sig)
            j.waitUntilExit()
            try writer.close()
            XCTAssertEqual(j.terminationReason, .exit)
            XCTAssertEqual(j.terminationStatus, code, "join, signal \(sig)")
            XCTAssertEqual(CLI.files(dir), before, "join, signal \(sig)")
        }
    }

    func testABatchsRendersDieWithItAndCleanUp() throws {
        let dir = CLI.tempDir()
        for i in 1...2 { try Signals.writeWAV(Signals.sines([(220 * Double(i), 0.4)], seconds: 30), to: dir + "/long\(i).wav") }
        let p = try CLI.start([
            "render", dir + "/long1.wav", dir + "/long2.wav", "-o", dir + "/out/{stem}.mp4", "-j", "2", "--size", "320x180", "--quiet",
        ])
        waitUntil("both renders writing") { CLI.files(dir + "/out").filter { $0.hasPrefix(".svz-") }.count == 2 }
        // SIGKILL cannot be handled: the children learn of it from the kernel (PR_SET_PDEATHSIG).
        kill(p.processIdentifier, SIGKILL)
        p.waitUntilExit()
        waitUntil("the renders to remove their files") { CLI.files(dir + "/out").isEmpty }
        XCTAssertEqual(CLI.files(dir + "/out"), [])
    }

    func testInvalidValuesAreUsageErrorsAndNegativeNumbersRead() throws {
        let dir = CLI.tempDir()
        try Signals.writeWAV(Signals.sines([(440, 0.4)], seconds: 0.6), to: dir + "/a.wav")
        let render = ["render", dir + "/a.wav", "--size", "64x36", "--fps", "5", "--quiet"]
        for (args, mentions) in [
            (render + ["--threads", "0", "-o", dir + "/o.mp4"], "--threads"), (render + ["--threads", "999", "-o", dir + "/o.mp4"], "--threads"),
            (render + ["--from", "-1", "-o", dir + "/o.mp4"], "--from"), (render + ["--at", "0.1", "-o", dir + "/o.mp4"], "PNG"),
            (render + ["--from", "99", "-o", dir + "/o.mp4"], "past the end"), (["tune", dir + "/a.wav", "--transpose", "-30"], "--transpose"),
            (["tune", dir + "/a.wav", "--report", dir + "/r.txt"], "PNG"), (["tone", "Q9", "-o", dir + "/t.wav"], "not a note"),
            (["join", dir + "/a.mp4", "-o", dir + "/j.mp4", "--from", "-2"], "--from"), (["presets", "--group", "nope"], "nope"),
        ] {
            let r = try CLI.run(args)
            XCTAssertEqual(r.status, 64, "\(args): \(r.stderr)")
            XCTAssertTrue(r.stderr.contains(mentions) && r.stderr.split(separator: "\n").count == 1, r.stderr)
        }
        // As the README writes them.
        for args in [["tune", dir + "/a.wav", "--transpose", "-3"], ["analyze", dir + "/a.wav", "--csv", "--gain", "-6", "--db-range", "-90:0"]] {
            let r = try CLI.run(args)
            XCTAssertEqual(r.status, 0, "\(args): \(r.stderr)")
        }
        let tone = try CLI.run(["tone", "C4", "--transpose", "-3", "--duration", "0.2", "--quiet", "-o", dir + "/t.wav"])
        XCTAssertEqual(tone.status, 0, tone.stderr)
        XCTAssertEqual(CLI.files(dir), ["a.wav", "t.wav"])
    }

    /// Runs with exactly `env` (no XDG_CONFIG_HOME or HOME unless given).
    func run(_ args: [String], env: [String: String]) throws -> CLI.Result {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: CLI.binary)
        p.arguments = args
        p.environment = env
        let out = Pipe(), err = Pipe()
        p.standardOutput = out
        p.standardError = err
        try p.run()
        let o = out.fileHandleForReading.readDataToEndOfFile(), e = err.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        return CLI.Result(status: p.terminationStatus, stdout: String(decoding: o, as: UTF8.self), stderr: String(decoding: e, as: UTF8.self))
    }

    func testConfigErrorsNameFileAndLineAndLiveKeepsWhatItDoesNotKnow() throws {
        let dir = CLI.tempDir()
        try Signals.writeWAV(Signals.sines([(440, 0.4)], seconds: 0.5), to: dir + "/a.wav")
        let file = dir + "/cfg/specviz/config.json"
        try FileManager.default.createDirectory(atPath: dir + "/cfg/specviz", withIntermediateDirectories: true)
        let env = ["XDG_CONFIG_HOME": dir + "/cfg"]
        // A key found wrong only when used still names its line; a flag over it is not the file's fault.
        try "{\n  \"mode\": \"bars\",\n  \"hop\": 10\n}\n".write(toFile: file, atomically: false, encoding: .utf8)
        let bad = try run(["analyze", dir + "/a.wav", "--csv"], env: env)
        XCTAssertEqual(bad.status, 64, bad.stderr)
        XCTAssertTrue(bad.stderr.contains("'\(file)', line 3") && bad.stderr.contains("hop"), bad.stderr)
        let flag = try run(["analyze", dir + "/a.wav", "--csv", "--hop", "512"], env: env)
        XCTAssertEqual(flag.status, 0, flag.stderr)
        // live writes the mode back and keeps the keys it does not know.
        let text = "{\n  \"mode\": \"bars\",\n  \"from-the-future\": \"a\\tb\",\n  \"level\": 3.5\n}\n"
        try text.write(toFile: file, atomically: false, encoding: .utf8)
        let live = ["live", "--display", "fb", "--fb", dir + "/fb", "--fb-size", "64x64", "--duration", "0.2", "--device", "null", "--mode", "curve"]
        let r = try run(live, env: env)
        XCTAssertEqual(r.status, 0, r.stderr)
        let saved = try String(contentsOfFile: file, encoding: .utf8)
        XCTAssertTrue(saved.contains("\"mode\": \"curve\""), saved)
        XCTAssertTrue(saved.contains("\"from-the-future\": \"a\\u0009b\"") && saved.contains("\"level\": 3.5"), saved)
        // Neither XDG_CONFIG_HOME nor HOME: nothing is written anywhere.
        let none = try run(live + ["-y"], env: ["PATH": "/usr/bin:/bin"])
        XCTAssertEqual(none.status, 0, none.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: "/.config/specviz/config.json"))
    }
}
