import Foundation
import MediaIO
import SpecvizTestSupport
import XCTest

/// Issue 36, class 2: nothing the user did not name is replaced — links, devices, folders,
/// a batch's own inputs, template braces in names, long names, killed runs' temporaries,
/// and standard output that fails.
final class OutputSafetyCLITests: XCTestCase {
    func oneLine(_ r: CLI.Result, status: Int32, mentions: String, file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertEqual(r.status, status, r.stderr, file: file, line: line)
        XCTAssertEqual(r.stderr.split(separator: "\n").count, 1, r.stderr, file: file, line: line)
        XCTAssertTrue(r.stderr.hasPrefix("specviz: error: ") && r.stderr.contains(mentions), r.stderr, file: file, line: line)
    }

    func kind(_ path: String) -> mode_t {
        var st = stat()
        return lstat(path, &st) == 0 ? st.st_mode & S_IFMT : 0
    }

    func testLinksDevicesAndFoldersAreNeverReplaced() throws {
        let dir = CLI.tempDir()
        try Signals.writeWAV(Signals.sines([(440, 0.4)], seconds: 0.5), to: dir + "/a.wav")
        let analyze = ["analyze", dir + "/a.wav", "--csv", "--fps", "10"]
        // A link to a regular file: written through, the link stays a link.
        try "old".write(toFile: dir + "/target.csv", atomically: false, encoding: .utf8)
        XCTAssertEqual(symlink("target.csv", dir + "/link.csv"), 0)
        oneLine(try CLI.run(analyze + ["-o", dir + "/link.csv"]), status: 1, mentions: "exists")
        let through = try CLI.run(analyze + ["-o", dir + "/link.csv", "-y"])
        XCTAssertEqual(through.status, 0, through.stderr)
        XCTAssertEqual(kind(dir + "/link.csv"), S_IFLNK)
        XCTAssertTrue(try String(contentsOfFile: dir + "/target.csv", encoding: .utf8).hasPrefix("time_s,"))
        // A dangling link and a folder: refused before anything is written.
        XCTAssertEqual(symlink("nowhere.mp4", dir + "/dangling.mp4"), 0)
        let render = ["render", dir + "/a.wav", "--size", "64x36", "--fps", "5", "--quiet"]
        oneLine(try CLI.run(render + ["-o", dir + "/dangling.mp4", "-y"]), status: 1, mentions: "does not exist")
        try FileManager.default.createDirectory(atPath: dir + "/folder.csv", withIntermediateDirectories: false)
        oneLine(try CLI.run(analyze + ["-o", dir + "/folder.csv", "-y"]), status: 1, mentions: "folder")
        XCTAssertEqual(CLI.files(dir), ["a.wav", "dangling.mp4", "folder.csv", "link.csv", "target.csv"])
        // Devices are written in place, with or without -y: every writing command.
        for args in [
            analyze + ["-o", "/dev/null"], analyze + ["-o", "/dev/null", "-y"], render + ["-o", "/dev/null", "-y"],
            render + ["--at", "0.2", "-o", "/dev/null"], ["tone", "A4", "--duration", "0.2", "--quiet", "-o", "/dev/null"],
        ] {
            let r = try CLI.run(args)
            XCTAssertEqual(r.status, 0, "\(args): \(r.stderr)")
        }
        XCTAssertEqual(kind("/dev/null"), S_IFCHR)
        XCTAssertEqual(kind(dir + "/../null"), 0)
        // /dev/stdout is the standard output, not a name to rename over.
        let out = try CLI.run(analyze + ["-o", "/dev/stdout", "-y"])
        XCTAssertEqual(out.status, 0, out.stderr)
        XCTAssertTrue(out.stdout.hasPrefix("time_s,"), out.stdout)
        XCTAssertEqual(kind("/dev/stdout"), S_IFLNK)
    }

    func testABatchNeverWritesItsOwnInputsAndFillsTemplatesOnce() throws {
        let dir = CLI.tempDir()
        try Signals.writeWAV(Signals.sines([(440, 0.4)], seconds: 0.4), to: dir + "/a.wav")
        try Signals.writeWAV(Signals.sines([(660, 0.4)], seconds: 0.4), to: dir + "/b.wav")
        let before = try Data(contentsOf: URL(fileURLWithPath: dir + "/b.wav"))
        // An output reached through a link, or spelt another way, is still the input.
        XCTAssertEqual(symlink("b.wav", dir + "/a.mp4"), 0)
        let base = ["render", dir + "/a.wav", dir + "/b.wav", "--size", "64x36", "--fps", "5", "--quiet", "-y"]
        oneLine(try CLI.run(base + ["-o", dir + "/{stem}.mp4"]), status: 64, mentions: "is the input")
        try FileManager.default.createDirectory(atPath: dir + "/sub", withIntermediateDirectories: false)
        try Signals.writeWAV(Signals.sines([(550, 0.4)], seconds: 0.4), to: dir + "/c.mp4") // a WAV by its bytes
        let c = try Data(contentsOf: URL(fileURLWithPath: dir + "/c.mp4"))
        oneLine(
            try CLI.run(["render", dir + "/c.mp4", dir + "/a.wav", "--size", "64x36", "--quiet", "-y", "-o", dir + "/./sub/../{stem}.mp4"]),
            status: 64, mentions: "is the input")
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: dir + "/b.wav")), before)
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: dir + "/c.mp4")), c)
        XCTAssertEqual(CLI.files(dir), ["a.mp4", "a.wav", "b.wav", "c.mp4", "sub"], "no child started")
        // A name with braces is a name: filled in once, from the pattern only.
        try FileManager.default.createDirectory(atPath: dir + "/in", withIntermediateDirectories: false)
        try Signals.writeWAV(Signals.sines([(440, 0.4)], seconds: 0.4), to: dir + "/in/{dir}{index}.wav")
        let r = try CLI.run(["render", dir + "/in/{dir}{index}.wav", "--size", "64x36", "--fps", "5", "--quiet", "-o", dir + "/out/{stem}.mp4"])
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertEqual(CLI.files(dir + "/out"), ["{dir}{index}.mp4"])
    }

    func testTemporariesAreShortAndAKilledRunsAreRemoved() throws {
        let dir = CLI.tempDir()
        try Signals.writeWAV(Signals.sines([(440, 0.4)], seconds: 0.3), to: dir + "/a.wav")
        // A legal name of 255 bytes stays legal with the temporary beside it.
        let long = String(repeating: "n", count: 251) + ".csv"
        let r = try CLI.run(["analyze", dir + "/a.wav", "--csv", "-o", dir + "/" + long])
        XCTAssertEqual(r.status, 0, r.stderr)
        // What a killed run left (its process is gone) goes; a running one's and others' stay.
        let gone = Process()
        gone.executableURL = URL(fileURLWithPath: "/bin/true")
        try gone.run()
        gone.waitUntilExit()
        let key = StaleTemporaries.key("out.csv")
        let stale = ".svz-\(gone.processIdentifier)-\(key)-1.tmp.csv", live = ".svz-\(getpid())-\(key)-1.tmp.csv"
        let otherKey = ".svz-\(gone.processIdentifier)-\(StaleTemporaries.key("else.csv"))-1.tmp.csv"
        for name in [stale, live, otherKey, "mine.tmp"] { XCTAssertTrue(FileManager.default.createFile(atPath: dir + "/" + name, contents: Data([1]))) }
        let again = try CLI.run(["analyze", dir + "/a.wav", "--csv", "-o", dir + "/out.csv"])
        XCTAssertEqual(again.status, 0, again.stderr)
        XCTAssertEqual(CLI.files(dir), [live, otherKey, "a.wav", "mine.tmp", long, "out.csv"].sorted())
    }

    func testStandardOutputErrorsAreOneLineAndExit1() throws {
        let dir = CLI.tempDir()
        try Signals.writeWAV(Signals.sines([(440, 0.4)], seconds: 1), to: dir + "/a.wav")
        let commands = [["analyze", dir + "/a.wav", "--csv"], ["presets"], ["modes"], ["--help"], ["tempo", dir + "/a.wav"]]
        for args in commands {
            for target in ["full", "closed"] {
                let p = Process()
                p.executableURL = URL(fileURLWithPath: CLI.binary)
                p.arguments = args
                let err = Pipe()
                p.standardError = err
                let pipe = Pipe()
                if target == "full" {
                    p.standardOutput = FileHandle(forWritingAtPath: "/dev/full")
                } else {
                    try pipe.fileHandleForReading.close()
                    p.standardOutput = pipe.fileHandleForWriting
                }
                try p.run()
                let text = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
                p.waitUntilExit()
                let why = target == "full" ? "No space left on device" : "Broken pipe"
                XCTAssertEqual(p.terminationReason, .exit, "\(args) \(target): not killed by a signal")
                oneLine(CLI.Result(status: p.terminationStatus, stdout: "", stderr: text), status: 1, mentions: why)
            }
        }
    }
}
