import Foundation
import SpecvizTestSupport
import XCTest

/// `live` end to end through real ALSA capture: a PCM defined in an `.asoundrc` with the
/// `file` plugin's `infile` feeds a known tone to `snd_pcm_readi`, and the tuner view drawn
/// into a framebuffer file must show that note (issue 40 item 12).
final class LiveCaptureCLITests: XCTestCase {
    let rate = 48000
    let size = (width: 320, height: 180)

    /// Mono 32-bit float samples, the format `ALSACapture` asks for (the file plugin passes
    /// the raw bytes through unconverted).
    func writeRawFloat(_ samples: [Float], to path: String) throws {
        let data = samples.withUnsafeBufferPointer { Data(buffer: $0) }
        try data.write(to: URL(fileURLWithPath: path))
    }

    /// A home folder whose `.asoundrc` defines `specviz_test_in`, capturing from `raw`.
    func alsaHome(capturing raw: String, in dir: String) throws -> String {
        let home = dir + "/home"
        try FileManager.default.createDirectory(atPath: home, withIntermediateDirectories: true)
        let conf = """
            pcm.specviz_test_in {
                type file
                slave.pcm "null"
                file "/dev/null"
                infile "\(raw)"
                format "raw"
            }

            """
        try conf.write(toFile: home + "/.asoundrc", atomically: true, encoding: .utf8)
        return home
    }

    func frame(_ path: String) throws -> [UInt8] {
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        XCTAssertEqual(bytes.count, size.width * size.height * 4, path)
        return bytes
    }

    func testTheLiveTunerShowsTheNoteCapturedThroughALSA() throws {
        let dir = CLI.tempDir()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        // The tone captured, and two references drawn from files through `render --live`:
        // the same note (A4) and a whole tone above (B4).
        try writeRawFloat(Signals.sines([(440, 0.5)], seconds: 6, sampleRate: rate), to: dir + "/a4.raw")
        try Signals.writeWAV(Signals.sines([(440, 0.5)], seconds: 1.2, sampleRate: rate), sampleRate: rate, to: dir + "/a4.wav")
        try Signals.writeWAV(Signals.sines([(493.88, 0.5)], seconds: 1.2, sampleRate: rate), sampleRate: rate, to: dir + "/b4.wav")
        let home = try alsaHome(capturing: dir + "/a4.raw", in: dir)
        let view = ["--mode", "tuner", "--fb-size", "\(size.width)x\(size.height)", "--fb-bpp", "32"]
        let env = ["HOME": home, "XDG_CONFIG_HOME": home + "/.config"]

        let live = try CLI.start(
            ["live", "--device", "specviz_test_in", "--rate", "\(rate)", "--duration", "1.2", "--fb", dir + "/live.fb"] + view, env: env)
        let refs = try ["a4", "b4"].map { name in
            try CLI.start(["render", dir + "/\(name).wav", "--live", "--device", "null", "--fb", dir + "/\(name).fb"] + view, env: env)
        }
        for p in [live] + refs { p.waitUntilExit() }
        XCTAssertEqual(live.terminationStatus, 0, "live through the ALSA file plugin")
        for p in refs { XCTAssertEqual(p.terminationStatus, 0) }

        let shown = try frame(dir + "/live.fb"), a4 = try frame(dir + "/a4.fb"), b4 = try frame(dir + "/b4.fb")
        // The pixels where the two references differ are where the note is read out (the
        // note name, the needle, the strip): the captured frame must look like A4 there.
        func close(_ x: [UInt8], _ y: [UInt8], _ i: Int) -> Bool { (0..<3).allSatisfy { abs(Int(x[i + $0]) - Int(y[i + $0])) <= 24 } }
        var differing = 0, likeA4 = 0, likeB4 = 0
        for i in stride(from: 0, to: a4.count, by: 4) where !close(a4, b4, i) {
            differing += 1
            if close(shown, a4, i) { likeA4 += 1 }
            if close(shown, b4, i) { likeB4 += 1 }
        }
        XCTAssertGreaterThan(differing, 200, "A4 and B4 look different in the tuner view")
        XCTAssertGreaterThan(Double(likeA4), 0.9 * Double(differing), "the live view shows A4 (\(likeA4) of \(differing) pixels; B4: \(likeB4))")
        XCTAssertLessThan(Double(likeB4), 0.1 * Double(differing))
    }
}
