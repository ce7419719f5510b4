import Foundation
import SpecvizTestSupport
import XCTest

/// `specviz analyze` (issue 17's data contract, issue 16's analysis options).
final class AnalyzeCLITests: XCTestCase {
    func json(_ text: String) throws -> [String: Any] {
        try XCTUnwrap(JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
    }

    func testJSONContractOneKilohertzIsTheLoudestBandInEveryFrame() throws {
        let dir = CLI.tempDir()
        try Signals.writeWAV(Signals.sines([(1000, 0.5)], seconds: 1.0), to: dir + "/k.wav")
        let r = try CLI.run([
            "analyze", dir + "/k.wav", "--json", "--fps", "10", "--tilt", "off", "--db-range", "-100:0",
            "--smoothing", "0:0",
        ])
        XCTAssertEqual(r.status, 0, r.stderr)
        let doc = try json(r.stdout)
        let bands = try XCTUnwrap(doc["bands_hz"] as? [Double])
        XCTAssertEqual(bands.count, 128)
        let frames = try XCTUnwrap(doc["frames"] as? [[String: Any]])
        XCTAssertEqual(frames.count, 10)
        let k = bands.indices.min { abs(bands[$0] - 1000) < abs(bands[$1] - 1000) }!
        for (i, f) in frames.enumerated() {
            XCTAssertEqual(f["time_s"] as? Double ?? -1, Double(i) / 10, accuracy: 1e-9)
            let levels = try XCTUnwrap(f["levels_db"] as? [Double])
            XCTAssertEqual(levels.count, 128)
            guard i > 0 else { continue } // frame 0 is at t = 0, before the first hop
            XCTAssertEqual(levels.indices.max { levels[$0] < levels[$1] }, k, "frame \(i)")
            XCTAssertEqual(levels[k], -6.02, accuracy: 0.5)
            XCTAssertEqual(f["peak_hz"] as? Double ?? 0, 1000, accuracy: 2)
            XCTAssertEqual(f["rms_db"] as? Double ?? 0, -9.03, accuracy: 0.1)
            XCTAssertEqual(f["peak_db"] as? Double ?? 0, -6.02, accuracy: 0.1)
        }
    }

    func testCSVFollowsTheScaleAndWritesAtomically() throws {
        let dir = CLI.tempDir()
        try Signals.writeWAV(Signals.sines([(250, 0.25)], seconds: 0.6), to: dir + "/t.wav")
        let r = try CLI.run([
            "analyze", dir + "/t.wav", "--csv", "--fps", "5", "--scale", "octave:1", "-o", dir + "/out.csv",
            "--weighting", "A", "--db-range", "-90:0", "--tilt", "off", "--smoothing", "0:0",
        ])
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertEqual(r.stdout, "")
        let text = try String(contentsOfFile: dir + "/out.csv", encoding: .utf8)
        let lines = text.split(separator: "\n")
        XCTAssertEqual(lines.first, "time_s,31.62,63.10,125.89,251.19,501.19,1000.00,1995.26,3981.07,7943.28,15848.93,peak_hz,rms_db,peak_db")
        XCTAssertEqual(lines.count, 1 + 3)
        let last = lines.last!.split(separator: ",").map { Double($0)! }
        // 250 Hz under A weighting: −12.04 dBFS − 8.6 dB.
        XCTAssertEqual(last[4], -12.04 - 8.6, accuracy: 0.3)
        XCTAssertEqual(CLI.files(dir), ["out.csv", "t.wav"])
        let again = try CLI.run(["analyze", dir + "/t.wav", "--csv", "-o", dir + "/out.csv"])
        XCTAssertNotEqual(again.status, 0)
        XCTAssertTrue(again.stderr.hasPrefix("specviz: error:"), again.stderr)
    }

    func testBadAnalysisOptionsAreOneErrorLine() throws {
        let dir = CLI.tempDir()
        try Signals.writeWAV(Signals.sines([(440, 0.5)], seconds: 0.3), to: dir + "/a.wav")
        for bad in [
            ["--scale", "octave:5"], ["--bands", "8"], ["--freq-range", "500:100"], ["--fft-size", "1000"],
            ["--window", "triangle"], ["--overlap", "0.99"], ["--weighting", "E"], ["--tilt", "sideways"],
            ["--db-range", "0:-90"], ["--smoothing", "fast"], ["--peak-hold", "-1"], ["--scale", "notes", "--freq-range", "21000:22000"],
        ] {
            let r = try CLI.run(["analyze", dir + "/a.wav", "--json"] + bad)
            XCTAssertNotEqual(r.status, 0, "\(bad)")
            XCTAssertTrue(r.stderr.hasPrefix("specviz: error:"), "\(bad): \(r.stderr)")
            XCTAssertEqual(r.stderr.split(separator: "\n").count, 1, "\(bad): \(r.stderr)")
        }
        let r = try CLI.run(["analyze", dir + "/a.wav"])
        XCTAssertTrue(r.stderr.contains("--json or --csv"), r.stderr)
    }

    /// The same options reach `render`: a still at every scale and the full set of analysis
    /// options renders.
    func testRenderTakesTheAnalysisOptions() throws {
        let dir = CLI.tempDir()
        try Signals.writeWAV(Signals.sines([(440, 0.5), (3000, 0.2)], seconds: 0.6), to: dir + "/a.wav")
        for scale in ["notes", "octave:3", "linear", "mel"] {
            let r = try CLI.run([
                "render", dir + "/a.wav", "-o", dir + "/\(scale).png", "--at", "0.5", "--size", "160x90",
                "--scale", scale, "--weighting", "C", "--window", "blackman-harris", "--fft-size", "4096",
                "--overlap", "0.75", "--db-range", "-80:0", "--smoothing", "20:200", "--peak-hold", "1",
                "--tilt", "3", "--mode", "spectrogram",
            ])
            XCTAssertEqual(r.status, 0, "\(scale): \(r.stderr)")
        }
        XCTAssertEqual(CLI.files(dir).count, 5)
    }

    func testConfigKeysSetTheAnalysis() throws {
        let dir = CLI.tempDir()
        try Signals.writeWAV(Signals.sines([(440, 0.5)], seconds: 0.3), to: dir + "/a.wav")
        // Its own configuration folder: the one every other CLI test shares stays empty, so a
        // suite run in parallel (`swift test --parallel`) never reads this test's keys.
        let home = dir + "/config", config = home + "/specviz"
        try FileManager.default.createDirectory(atPath: config, withIntermediateDirectories: true)
        try "{\"scale\": \"octave:3\", \"freq-range\": \"100:1000\", \"bands\": 64}".write(toFile: config + "/config.json", atomically: true, encoding: .utf8)
        let env = ["XDG_CONFIG_HOME": home]
        let r = try CLI.run(["analyze", dir + "/a.wav", "--csv", "--fps", "2"], stdinFile: nil, env: env)
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertTrue(r.stdout.hasPrefix("time_s,100.00,125.89,158.49,"), String(r.stdout.prefix(80)))
        let flag = try CLI.run(["analyze", dir + "/a.wav", "--csv", "--fps", "2", "--scale", "log"], stdinFile: nil, env: env)
        XCTAssertEqual(flag.stdout.split(separator: "\n").first!.split(separator: ",").count, 64 + 4)
    }
}
