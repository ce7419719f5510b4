import Foundation
import SpecvizTestSupport
import XCTest

/// Issue 38: options are parsed once, and the config file is read once per run. The config
/// is a FIFO here: each open by the command is served by one writer, so the writers count
/// the reads (a second read would wait for a second writer, and get one, and be counted;
/// main's render counted 4, its analyze 3).
final class OptionsOnceCLITests: XCTestCase {
    /// Whether process `pid` has `path` open.
    func hasOpen(_ pid: Int32, _ path: String) -> Bool {
        guard let real = realpath(path, nil) else { return false }
        defer { free(real) }
        let path = String(cString: real)
        let fds = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/fd")) ?? []
        return fds.contains { (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(pid)/fd/\($0)")) == path }
    }

    /// Bytes written to the pipe behind `fd` and not read yet.
    func unread(_ fd: Int32) -> Int32 {
        var n: Int32 = 0
        _ = withUnsafeMutablePointer(to: &n) { ioctl(fd, UInt(FIONREAD), $0) }
        return n
    }

    /// Runs `args` with the FIFO `fifo` as the config file holding `text`; returns how many
    /// times the command opened it, after checking that it succeeded.
    func configReads(_ args: [String], fifo: String, text: String, file: StaticString = #filePath, line: UInt = #line) throws -> Int {
        let p = try CLI.start(args, env: ["SPECVIZ_CONFIG": fifo])
        var reads = 0
        let deadline = Date().addingTimeInterval(120)
        while p.isRunning && Date() < deadline {
            let fd = open(fifo, O_WRONLY | O_NONBLOCK)
            if fd < 0 {
                usleep(2000)
                continue
            }
            reads += 1
            _ = text.withCString { write(fd, $0, strlen($0)) }
            // The reader has the text (so its open returned), then sees the end and closes:
            // only then may the next writer open (a reader still open would take it).
            while p.isRunning && unread(fd) > 0 && Date() < deadline { usleep(1000) }
            close(fd)
            while p.isRunning && hasOpen(p.processIdentifier, fifo) && Date() < deadline { usleep(1000) }
        }
        p.waitUntilExit()
        XCTAssertEqual(p.terminationStatus, 0, file: file, line: line)
        return reads
    }

    func testRenderAndAnalyzeReadTheConfigOnce() throws {
        let dir = CLI.tempDir()
        try Signals.writeWAV(Signals.sines([(440, 0.4)], seconds: 0.4), to: dir + "/a.wav")
        let fifo = dir + "/config.json"
        XCTAssertEqual(mkfifo(fifo, 0o600), 0)
        let text = "{\"mode\": \"curve\", \"scale\": \"octave:3\", \"smoothing\": \"20:100\", \"transpose\": \"Bb\", \"resolution\": \"grid\"}"
        let still = ["render", dir + "/a.wav", "--at", "0.2", "--size", "64x36", "--no-labels", "-o", dir + "/o.png"]
        XCTAssertEqual(try configReads(still, fifo: fifo, text: text), 1)
        XCTAssertEqual(try configReads(["analyze", dir + "/a.wav", "--csv", "-o", dir + "/l.csv"], fifo: fifo, text: text), 1)
        // The config's scale reached the analysis: octave:3 bands in the header.
        let header = try String(contentsOfFile: dir + "/l.csv", encoding: .utf8).split(separator: "\n").first ?? ""
        XCTAssertTrue(header.hasPrefix("time_s,19.95,25.12,31.62,"), String(header))
    }

    /// A value is checked where it is read: a bad one is one line, exit 64, on the command line
    /// and in the config file (with its line, only when the command line does not override it).
    func testBadValuesAreOneLineUsageErrors() throws {
        let dir = CLI.tempDir()
        try Signals.writeWAV(Signals.sines([(440, 0.4)], seconds: 0.3), to: dir + "/a.wav")
        for (args, mention) in [
            (["analyze", dir + "/a.wav", "--csv", "--db-range", "-10:-8"], "--db-range"),
            (["analyze", dir + "/a.wav", "--csv", "--smoothing", "fast"], "--smoothing"),
            (["analyze", dir + "/a.wav", "--csv", "--resolution", "huge"], "--resolution 'huge'"),
            (["tempo", dir + "/a.wav", "--range", "100:150"], "--range"),
            (["tune", dir + "/a.wav", "--stretch", "lots"], "--stretch 'lots'"),
            (["render", dir + "/a.wav", "--at", "0.1", "--size", "64x36", "--history", "0", "-o", dir + "/h.png"], "--history must be 1…600"),
        ] {
            let r = try CLI.run(args, stdinFile: nil)
            XCTAssertEqual(r.status, 64, r.stderr)
            XCTAssertEqual(r.stderr.split(separator: "\n").count, 1, r.stderr)
            XCTAssertTrue(r.stderr.hasPrefix("specviz: error: ") && r.stderr.contains(mention), r.stderr)
        }
        let config = dir + "/config.json"
        try "{\n  \"mode\": \"bars\",\n  \"window\": \"square\",\n  \"tonic\": \"H\"\n}\n".write(toFile: config, atomically: true, encoding: .utf8)
        let bad = try CLI.run(["analyze", dir + "/a.wav", "--csv"], stdinFile: nil, env: ["SPECVIZ_CONFIG": config])
        XCTAssertEqual(bad.status, 64, bad.stderr)
        XCTAssertTrue(bad.stderr.contains("'\(config)', line 3") && bad.stderr.contains("--window 'square'"), bad.stderr)
        let flag = try CLI.run(["analyze", dir + "/a.wav", "--csv", "--window", "hann"], stdinFile: nil, env: ["SPECVIZ_CONFIG": config])
        XCTAssertEqual(flag.status, 0, flag.stderr)
        let still = ["render", dir + "/a.wav", "--at", "0.1", "--size", "64x36", "--window", "hann", "-o", dir + "/o.png"]
        let tonic = try CLI.run(still, stdinFile: nil, env: ["SPECVIZ_CONFIG": config])
        XCTAssertEqual(tonic.status, 64, tonic.stderr)
        XCTAssertTrue(tonic.stderr.contains("line 4") && tonic.stderr.contains("--tonic 'H'"), tonic.stderr)
        // The spectrogram's span from the config file: a wrong one names its line.
        try "{\n  \"history\": \"soon\"\n}\n".write(toFile: config, atomically: true, encoding: .utf8)
        let history = try CLI.run(still, stdinFile: nil, env: ["SPECVIZ_CONFIG": config])
        XCTAssertEqual(history.status, 64, history.stderr)
        XCTAssertTrue(history.stderr.contains("line 2") && history.stderr.contains("--history"), history.stderr)
    }
}
