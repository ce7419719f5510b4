import Foundation
import MediaIO
import SpecvizTestSupport
import XCTest

#if canImport(Glibc)
import Glibc
#endif

/// A TCP listener on 127.0.0.1 that counts the connections made to it.
final class ConnectionCounter {
    let fd: Int32
    let port: Int

    init() throws {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        self.fd = fd
        var addr = sockaddr_in()
        addr.sin_family = sa_family_t(AF_INET)
        addr.sin_addr.s_addr = inet_addr("127.0.0.1")
        addr.sin_port = 0
        var len = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafePointer(to: &addr) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, len) } }
        guard bound == 0, listen(fd, 16) == 0 else { throw TestSignalError("cannot listen") }
        _ = withUnsafeMutablePointer(to: &addr) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &len) } }
        port = Int(UInt16(bigEndian: addr.sin_port))
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
    }

    deinit { close(fd) }

    /// Connections accepted so far (each is closed at once).
    func accepted() -> Int {
        var n = 0
        while true {
            let c = accept(fd, nil, nil)
            if c < 0 { return n }
            close(c)
            n += 1
        }
    }
}

final class ReliabilityCLITests: XCTestCase {
    func assertOneLineError(_ r: CLI.Result, status: Int32? = nil, mentions: String, file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertNotEqual(r.status, 0, file: file, line: line)
        if let status { XCTAssertEqual(r.status, status, r.stderr, file: file, line: line) }
        let lines = r.stderr.split(separator: "\n").filter { !$0.isEmpty }
        XCTAssertEqual(lines.count, 1, "one error line, got: \(r.stderr)", file: file, line: line)
        XCTAssertTrue(r.stderr.hasPrefix("specviz: error: "), r.stderr, file: file, line: line)
        XCTAssertTrue(r.stderr.lowercased().contains(mentions.lowercased()), "stderr: \(r.stderr)", file: file, line: line)
    }

    // MARK: 1. No network, no other file.

    func testInputsNeverConnectOrFollowPlaylists() throws {
        let dir = CLI.tempDir()
        let listener = try ConnectionCounter()
        let url = "http://127.0.0.1:\(listener.port)/x.wav"
        try Signals.writeWAV(Signals.sines([(440, 0.4)], seconds: 1), to: dir + "/a.wav")
        try "#EXTM3U\n#EXT-X-TARGETDURATION:10\n#EXTINF:10,\n\(url)\n#EXT-X-ENDLIST\n".write(toFile: dir + "/url.m3u8", atomically: true, encoding: .utf8)
        try "#EXTM3U\n#EXT-X-TARGETDURATION:10\n#EXTINF:1,\na.wav\n#EXT-X-ENDLIST\n".write(toFile: dir + "/local.m3u8", atomically: true, encoding: .utf8)
        try "ffconcat version 1.0\nfile '\(url)'\n".write(toFile: dir + "/url.ffconcat", atomically: true, encoding: .utf8)
        try "ffconcat version 1.0\nfile 'a.wav'\n".write(toFile: dir + "/local.ffconcat", atomically: true, encoding: .utf8)
        let cases: [([String], String)] = [
            (["tune", url], "not a local file"),
            (["tempo", "tcp://127.0.0.1:\(listener.port)"], "not a local file"),
            (["render", "https://127.0.0.1:\(listener.port)/x.wav", "-o", dir + "/o.png", "--size", "64x36"], "not a local file"),
            (["tune", dir + "/url.m3u8"], "hls"),
            (["tempo", dir + "/local.m3u8"], "hls"),
            (["tune", dir + "/url.ffconcat"], "concat"),
            (["render", dir + "/local.ffconcat", "-o", dir + "/o.png", "--size", "64x36"], "concat"),
            (["tune", dir + "/url.ffconcat", "--allow-playlists"], "cannot open"),
        ]
        for (args, mention) in cases {
            let r = try CLI.run(args)
            assertOneLineError(r, status: 1, mentions: mention)
            XCTAssertEqual(listener.accepted(), 0, "no connection for \(args)")
        }
        XCTAssertFalse(FileManager.default.fileExists(atPath: dir + "/o.png"))
        // Allowed on request: a concat list of local files.
        let ok = try CLI.run(["tempo", dir + "/local.ffconcat", "--allow-playlists"])
        XCTAssertEqual(ok.status, 0, ok.stderr)
    }

    // MARK: 2. Non-finite numbers.

    func testNaNSamplesAreSilenceWithOneWarning() throws {
        let dir = CLI.tempDir()
        var samples = Signals.sines([(440, 0.4)], seconds: 1.5)
        for i in 20_000..<30_000 { samples[i] = i % 3 == 0 ? .nan : (i % 3 == 1 ? .infinity : 1e30) }
        try Signals.writeFloatWAV(samples, to: dir + "/nan.wav")
        for mode in ["spectrogram", "bars", "surface+"] {
            let r = try CLI.run([
                "render", dir + "/nan.wav", "--mode", mode, "--size", "64x36", "--fps", "10", "-o", dir + "/o-\(mode).mp4",
                "--x264-preset", "ultrafast",
            ])
            XCTAssertEqual(r.status, 0, "\(mode): \(r.stderr)")
            let warnings = r.stderr.components(separatedBy: "specviz: warning:").count - 1
            XCTAssertEqual(warnings, 1, r.stderr)
            XCTAssertTrue(r.stderr.contains("NaN"), r.stderr)
        }
        let t = try CLI.run(["tune", dir + "/nan.wav"])
        XCTAssertEqual(t.status, 0, t.stderr)
    }

    func testNonFiniteOptionsAreOneLineUsageErrors() throws {
        let dir = CLI.tempDir()
        try Signals.writeWAV(Signals.sines([(440, 0.4)], seconds: 1), to: dir + "/a.wav")
        let base = ["render", dir + "/a.wav", "--size", "64x36", "--fps", "10"]
        for (option, value) in [
            ("--at", "nan"), ("--from", "inf"), ("--from", "nan"), ("--from", "1e300"), ("--to", "inf"),
            ("--to", "nan"), ("--to", "1e300"), ("--gain", "nan"), ("--gain", "1e39"),
        ] {
            let out = option == "--at" ? dir + "/o.png" : dir + "/o.mp4"
            assertOneLineError(try CLI.run(base + [option, value, "-o", out]), status: 64, mentions: option)
        }
        assertOneLineError(
            try CLI.run(["live", "--duration", "nan", "--display", "fb", "--fb", dir + "/fb", "--fb-size", "64x64"]),
            status: 64, mentions: "--duration")
        XCTAssertEqual(CLI.files(dir), ["a.wav"])
    }

    // MARK: 3. Signals.

    /// Starts `args`, waits until it is writing (a hidden temporary appears in one of
    /// `watching`, polled for at most 20 s), sends `sig`, and returns the exit status.
    func interrupt(_ args: [String], with sig: Int32, watching: [String]) throws -> Int32 {
        let p = try CLI.start(args)
        let deadline = Date() + 20
        func writing() -> Bool { watching.contains { CLI.files($0).contains { $0.hasPrefix(".") } } }
        while !writing() && p.isRunning && Date() < deadline { usleep(5_000) }
        XCTAssertTrue(writing(), "a temporary appeared before the signal: \(args)")
        XCTAssertTrue(p.isRunning, "still running when signalled: \(args)")
        kill(p.processIdentifier, sig)
        p.waitUntilExit()
        XCTAssertEqual(p.terminationReason, .exit, "exits by itself, not killed by the signal")
        return p.terminationStatus
    }

    func testSignalsRemoveTemporariesAndExit128PlusN() throws {
        let dir = CLI.tempDir()
        try Signals.writeWAV(Signals.sines([(220, 0.4), (330, 0.3)], seconds: 30), to: dir + "/long.wav")
        try FileManager.default.createDirectory(atPath: dir + "/seq", withIntermediateDirectories: true)
        let render = ["render", dir + "/long.wav", "--size", "320x180", "--fps", "30", "--mode", "surface+", "--quiet"]
        for (sig, code) in [(SIGINT, Int32(130)), (SIGTERM, 143), (SIGHUP, 129)] {
            XCTAssertEqual(try interrupt(render + ["-o", dir + "/o.mp4"], with: sig, watching: [dir]), code)
            XCTAssertEqual(CLI.files(dir), ["long.wav", "seq"], "signal \(sig)")
            XCTAssertEqual(try interrupt(render + ["-o", dir + "/seq/%05d.png"], with: sig, watching: [dir, dir + "/seq"]), code)
            XCTAssertEqual(CLI.files(dir + "/seq"), [], "signal \(sig)")
            XCTAssertEqual(CLI.files(dir), ["long.wav", "seq"])
            XCTAssertEqual(try interrupt(["tone", "A4", "--duration", "3600", "-o", dir + "/t.flac"], with: sig, watching: [dir]), code)
            XCTAssertEqual(CLI.files(dir), ["long.wav", "seq"], "tone, signal \(sig)")
        }
    }

    func testOverwritingASequenceReplacesItOnlyWhenDone() throws {
        let dir = CLI.tempDir()
        try Signals.writeWAV(Signals.sines([(440, 0.4)], seconds: 2), to: dir + "/short.wav")
        try Signals.writeWAV(Signals.sines([(220, 0.4)], seconds: 30), to: dir + "/long.wav")
        let pattern = dir + "/seq/%03d.png"
        try FileManager.default.createDirectory(atPath: dir + "/seq", withIntermediateDirectories: true)
        let first = try CLI.run(["render", dir + "/short.wav", "--size", "64x36", "--fps", "5", "-o", pattern, "--quiet"])
        XCTAssertEqual(first.status, 0, first.stderr)
        let old = CLI.files(dir + "/seq")
        XCTAssertEqual(old.count, 10)
        let oldBytes = try old.map { try Data(contentsOf: URL(fileURLWithPath: dir + "/seq/" + $0)) }
        let status = try interrupt(
            [
                "render", dir + "/long.wav", "--size", "320x180", "--fps", "30", "--mode", "surface+",
                "-o", pattern, "-y", "--quiet",
            ], with: SIGTERM, watching: [dir, dir + "/seq"])
        XCTAssertEqual(status, 143)
        XCTAssertEqual(CLI.files(dir + "/seq"), old, "the old sequence is untouched")
        XCTAssertEqual(try old.map { try Data(contentsOf: URL(fileURLWithPath: dir + "/seq/" + $0)) }, oldBytes)
        // Done: a shorter new sequence replaces all of the old one.
        let again = try CLI.run(["render", dir + "/short.wav", "--size", "64x36", "--fps", "2", "-o", pattern, "-y", "--quiet"])
        XCTAssertEqual(again.status, 0, again.stderr)
        XCTAssertEqual(CLI.files(dir + "/seq"), ["001.png", "002.png", "003.png", "004.png"])
    }

    // MARK: 4. --fb

    func testFramebufferFileIsNotOverwrittenWithoutY() throws {
        let dir = CLI.tempDir()
        try Signals.writeWAV(Signals.sines([(440, 0.4)], seconds: 1), to: dir + "/a.wav")
        try Signals.writeWAV(Signals.sines([(660, 0.4)], seconds: 1), to: dir + "/victim.wav")
        let before = try Data(contentsOf: URL(fileURLWithPath: dir + "/victim.wav"))
        let r = try CLI.run([
            "render", dir + "/a.wav", "--live", "--display", "fb", "--fb", dir + "/victim.wav", "--fb-size", "64x64",
            "--device", "null", "--to", "0.3",
        ])
        assertOneLineError(r, mentions: "regular file")
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: dir + "/victim.wav")), before)
        assertOneLineError(
            try CLI.run([
                "live", "--display", "fb", "--fb", dir + "/new", "--fb-size", "1x1", "--device", "null",
                "--duration", "0.2",
            ]), mentions: "--fb-size")
    }

    // MARK: 5. Ranges against the input.

    func testToIsClampedAndFromPastTheEndIsRefused() throws {
        let dir = CLI.tempDir()
        try Signals.writeWAV(Signals.sines([(440, 0.4)], seconds: 2), to: dir + "/a.wav")
        let r = try CLI.run([
            "render", dir + "/a.wav", "--to", "20", "--size", "64x36", "--fps", "10", "-o", dir + "/o.mp4",
            "--x264-preset", "ultrafast", "--quiet",
        ])
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertTrue(r.stderr.contains("note:") && r.stderr.contains("--to 20"), r.stderr)
        let probe = try MediaProbe(path: dir + "/o.mp4")
        let video = probe.streams.first { $0.kind == "video" }!
        let audio = probe.streams.first { $0.kind == "audio" }!
        XCTAssertEqual(video.duration, 2, accuracy: 0.11)
        XCTAssertEqual(audio.duration, 2, accuracy: 0.11)
        let start = Date()
        assertOneLineError(
            try CLI.run(["render", dir + "/a.wav", "--from", "1e6", "--size", "64x36", "-o", dir + "/p.mp4"]),
            status: 64, mentions: "past the end")
        XCTAssertLessThan(Date().timeIntervalSince(start), 5)
        XCTAssertFalse(FileManager.default.fileExists(atPath: dir + "/p.mp4"))
    }

    // MARK: 8. Standard input, read once.

    func testPipedInputGivesEqualVideoAndAudio() throws {
        let dir = CLI.tempDir()
        try Signals.writeWAV(Signals.sines([(440, 0.3), (880, 0.2)], seconds: 3), channels: 2, to: dir + "/a.wav")
        for name in ["-", "pipe:0"] {
            let out = dir + "/o\(name == "-" ? "1" : "2").mp4"
            let r = try CLI.run(
                ["render", name, "--size", "64x36", "--fps", "10", "-o", out, "--x264-preset", "ultrafast", "--quiet"],
                stdinFile: dir + "/a.wav")
            XCTAssertEqual(r.status, 0, r.stderr)
            let probe = try MediaProbe(path: out)
            let video = probe.streams.first { $0.kind == "video" }!
            let audio = probe.streams.first { $0.kind == "audio" }!
            XCTAssertEqual(video.duration, 3, accuracy: 0.11, name)
            XCTAssertEqual(audio.duration, 3, accuracy: 0.11, name)
        }
        let t = try CLI.run(["tune", "-"], stdinFile: dir + "/a.wav")
        XCTAssertEqual(t.status, 0, t.stderr)
        XCTAssertTrue(t.stdout.contains("A4"), t.stdout)
    }

    // MARK: 9. The smaller list.

    func testSmallerCases() throws {
        let dir = CLI.tempDir()
        try Signals.writeWAV(Signals.sines([(440, 0.4)], seconds: 1), to: dir + "/a.wav")
        let still = ["render", dir + "/a.wav", "--at", "0.5", "--size", "64x36"]
        let preset = try CLI.run(still + ["--preset", "guitar-standrd", "-o", dir + "/o.png"])
        assertOneLineError(preset, status: 64, mentions: "did you mean guitar-standard")
        assertOneLineError(try CLI.run(["render", dir + "/a.wav", "--x264-preset", "bogus", "-o", dir + "/o.mp4"]), status: 64, mentions: "x264-preset")
        assertOneLineError(try CLI.run(["render", dir + "/a.wav", "--crf", "100", "-o", dir + "/o.mp4"]), status: 64, mentions: "--crf")
        assertOneLineError(try CLI.run(["render", dir + "/a.wav", "-o", dir + "/o.jpg"]), status: 64, mentions: ".jpg")
        XCTAssertEqual(CLI.files(dir), ["a.wav"])

        // A bad preset in the config is an error naming the file; a huge config is not read.
        let config = dir + "/cfg/specviz/config.json"
        try FileManager.default.createDirectory(atPath: dir + "/cfg/specviz", withIntermediateDirectories: true)
        try #"{"preset": "nonexistent"}"#.write(toFile: config, atomically: true, encoding: .utf8)
        assertOneLineError(
            try CLI.run(still + ["-o", dir + "/o.png"], stdinFile: nil, env: ["SPECVIZ_CONFIG": config]),
            mentions: "unknown preset 'nonexistent'")
        try Data(repeating: 0x20, count: 1 << 20).write(to: URL(fileURLWithPath: config))
        assertOneLineError(
            try CLI.run(still + ["-o", dir + "/o.png"], stdinFile: nil, env: ["SPECVIZ_CONFIG": config]),
            mentions: "at most")

        // A settings save that fails after a good live run is a warning, exit 0.
        XCTAssertTrue(FileManager.default.createFile(atPath: dir + "/file", contents: Data("x".utf8)))
        let live = try CLI.run(
            [
                "live", "--display", "fb", "--fb", dir + "/fb", "--fb-size", "64x64", "--device", "null",
                "--duration", "0.3", "--mode", "curve",
            ], stdinFile: nil, env: ["SPECVIZ_CONFIG": dir + "/file/config.json"])
        XCTAssertEqual(live.status, 0, live.stderr)
        XCTAssertTrue(live.stderr.contains("warning: settings not saved"), live.stderr)

        // Matroska gets AAC, as the README says.
        let mkv = try CLI.run(["render", dir + "/a.wav", "--size", "64x36", "--fps", "5", "-o", dir + "/o.mkv", "--x264-preset", "ultrafast", "--quiet"])
        XCTAssertEqual(mkv.status, 0, mkv.stderr)
        XCTAssertEqual(try MediaProbe(path: dir + "/o.mkv").streams.map(\.codec).sorted(), ["aac", "h264"])
    }

    func testDeviceNodeIsNeverReplaced() throws {
        guard geteuid() == 0 else { throw XCTSkip("making a device node needs root") }
        let dir = CLI.tempDir()
        try Signals.writeWAV(Signals.sines([(440, 0.4)], seconds: 1), to: dir + "/a.wav")
        let node = dir + "/null.png"
        XCTAssertEqual(mknod(node, S_IFCHR | 0o666, dev_t(1 << 8 | 3)), 0)
        // Written through, as to /dev/null: the node is neither replaced nor removed.
        let r = try CLI.run(["render", dir + "/a.wav", "--at", "0.5", "--size", "64x36", "-o", node, "-y"])
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertEqual(CLI.files(dir), ["a.wav", "null.png"])
        var st = stat()
        XCTAssertEqual(lstat(node, &st), 0)
        XCTAssertEqual(st.st_mode & S_IFMT, S_IFCHR)
    }
}
