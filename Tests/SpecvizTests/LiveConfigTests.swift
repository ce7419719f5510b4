import Foundation
import SpecvizTestSupport
import XCTest

/// The settings file (SPEC §8), through the built `specviz` binary: defaults come from
/// `$XDG_CONFIG_HOME/specviz/config.json`, flags override them, a live session writes the
/// mode and overlays back, and a broken file is one clear error naming the file and line.
final class LiveConfigTests: XCTestCase {
    var home = ""

    override func setUpWithError() throws {
        home = NSTemporaryDirectory() + "specviz-config-\(getpid())-\(name.filter { $0.isLetter })"
        try FileManager.default.createDirectory(atPath: home + "/specviz", withIntermediateDirectories: true)
        addTeardownBlock { [home] in try? FileManager.default.removeItem(atPath: home) }
    }

    var binary: String {
        let dir = (CommandLine.arguments[0] as NSString).deletingLastPathComponent
        for candidate in [dir + "/specviz", (dir as NSString).deletingLastPathComponent + "/specviz"]
        where FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        return dir + "/specviz"
    }

    /// Runs specviz with XDG_CONFIG_HOME = `home`; returns (exit status, stderr).
    func specviz(_ args: [String]) throws -> (Int32, String) {
        try XCTSkipUnless(FileManager.default.isExecutableFile(atPath: binary), "specviz binary not built at \(binary)")
        let p = Process()
        p.executableURL = URL(fileURLWithPath: binary)
        p.arguments = args
        var env = ProcessInfo.processInfo.environment
        env["XDG_CONFIG_HOME"] = home
        env["SPECVIZ_CONFIG"] = nil
        p.environment = env
        let err = Pipe()
        p.standardError = err
        p.standardOutput = Pipe()
        p.standardInput = FileHandle.nullDevice
        try p.run()
        let data = err.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        return (p.terminationStatus, String(decoding: data, as: UTF8.self))
    }

    var configPath: String { home + "/specviz/config.json" }

    func writeConfig(_ text: String) {
        XCTAssertTrue(FileManager.default.createFile(atPath: configPath, contents: Data(text.utf8)))
    }

    func tone(seconds: Double) throws -> String {
        let path = home + "/tone.wav"
        try Signals.writeWAV(Signals.sines([(440, 0.5), (1760, 0.2)], seconds: seconds), to: path)
        return path
    }

    func testBrokenFileNamesFileAndLine() throws {
        let wav = try tone(seconds: 0.3)
        writeConfig("{\n  \"mode\": \"curve\",\n  \"fps\": 30,,\n  \"tuner\": true\n}\n")
        let (status, err) = try specviz(["render", wav, "--at", "0.1", "-o", home + "/x.png"])
        XCTAssertNotEqual(status, 0)
        XCTAssertTrue(err.contains("config file '\(configPath)', line 3"), err)
        XCTAssertEqual(err.split(separator: "\n").count, 1, "one line: \(err)")
        XCTAssertFalse(FileManager.default.fileExists(atPath: home + "/x.png"))

        writeConfig("{\"mode\": \"curve\",\n\"reference\": 500}")
        let (status2, err2) = try specviz(["render", wav, "--at", "0.1", "-o", home + "/x.png"])
        XCTAssertNotEqual(status2, 0)
        XCTAssertTrue(err2.contains("line 2") && err2.contains("reference"), err2)
    }

    /// Config → settings → live run → config: the mode comes from the file, a flag
    /// overrides it, and the session's mode and overlays are written back.
    func testRoundTripThroughLiveRun() throws {
        let wav = try tone(seconds: 0.4)
        writeConfig("{\"mode\": \"curve\", \"reference\": 442, \"bpm\": true, \"future-key\": [1]}")
        // An unknown key holding an array is still a parse error (the file must stay flat).
        var (status, err) = try specviz(["render", wav, "--live", "--device", "null", "--display", "fb"])
        XCTAssertNotEqual(status, 0, err)
        XCTAssertTrue(err.contains("future-key"), err)

        writeConfig("{\n  \"mode\": \"curve\",\n  \"reference\": 442,\n  \"bpm\": true,\n  \"future\": 1\n}\n")
        let fb = home + "/fb.raw"
        (status, err) = try specviz([
            "render", wav, "--live", "--device", "null", "--fb", fb, "--fb-size", "64x36",
            "--no-labels", "--stats",
        ])
        XCTAssertEqual(status, 0, err)
        XCTAssertTrue(err.contains("live curve 64x36"), "mode from the config file: \(err)")
        var saved = String(decoding: FileManager.default.contents(atPath: configPath) ?? Data(), as: UTF8.self)
        XCTAssertTrue(saved.contains("\"mode\": \"curve\"") && saved.contains("\"reference\": 442") && saved.contains("\"bpm\": true"), saved)

        // The first run left fb.raw: a regular file is written over only with -y (issue 14).
        (status, err) = try specviz([
            "render", wav, "--live", "--device", "null", "--fb", fb, "--fb-size", "64x36", "-y",
            "--no-labels", "--stats", "--mode", "spectrogram", "--no-bpm",
        ])
        XCTAssertEqual(status, 0, err)
        XCTAssertTrue(err.contains("live spectrogram 64x36"), "the flag overrides the file: \(err)")
        saved = String(decoding: FileManager.default.contents(atPath: configPath) ?? Data(), as: UTF8.self)
        XCTAssertTrue(saved.contains("\"mode\": \"spectrogram\"") && saved.contains("\"bpm\": false"), saved)
        XCTAssertTrue(saved.contains("\"reference\": 442"), "untouched keys are kept: \(saved)")
        let fbSize = (try FileManager.default.attributesOfItem(atPath: fb)[.size] as? NSNumber)?.intValue
        XCTAssertEqual(fbSize, 64 * 36 * 4)
    }
    /// An old config's `"tilt": true` (the tilted look, the default until issue 39) means
    /// `--tilt auto`, and `false` means `--tilt off`, which is today's default.
    func testOldTiltBooleanMeansAutoOrOff() throws {
        let wav = try tone(seconds: 0.5)
        func levels(_ config: String?, _ flags: [String]) throws -> String {
            if let config { writeConfig(config) } else { try? FileManager.default.removeItem(atPath: configPath) }
            let out = home + "/levels.csv"
            let (status, err) = try specviz(["analyze", wav, "--csv", "--fps", "10", "-o", out, "-y"] + flags)
            XCTAssertEqual(status, 0, err)
            return String(decoding: FileManager.default.contents(atPath: out) ?? Data(), as: UTF8.self)
        }
        let auto = try levels(nil, ["--tilt", "auto"])
        let off = try levels(nil, ["--tilt", "off"])
        XCTAssertNotEqual(auto, off, "the tilt must change the 1760 Hz band's level")
        XCTAssertEqual(try levels("{\"tilt\": true}", []), auto)
        XCTAssertEqual(try levels("{\"tilt\": false}", []), off)
        XCTAssertEqual(try levels(nil, []), off, "no tilt by default")
    }
}
