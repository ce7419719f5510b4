import Foundation
import SpecvizTestSupport
import XCTest

/// `render --progress FILE|-` writes ffmpeg's -progress blocks (issue 40 item 11).
final class ProgressReportCLITests: XCTestCase {
    /// The blocks of a report: each a key → value map, in order.
    func blocks(_ text: String) -> [[String: String]] {
        var out: [[String: String]] = [], current: [String: String] = [:]
        for line in text.split(separator: "\n") {
            let kv = line.split(separator: "=", maxSplits: 1).map(String.init)
            XCTAssertEqual(kv.count, 2, "not key=value: \(line)")
            guard kv.count == 2 else { continue }
            current[kv[0]] = kv[1]
            if kv[0] == "progress" {
                out.append(current)
                current = [:]
            }
        }
        XCTAssertTrue(current.isEmpty, "a block without progress=: \(current)")
        return out
    }

    func testFileAndStandardOutputGetKeyValueBlocksEndingWithEnd() throws {
        let dir = CLI.tempDir()
        try Signals.writeWAV(Signals.sines([(440, 0.4)], seconds: 1.5), to: dir + "/a.wav")
        let render = ["render", dir + "/a.wav", "--size", "64x36", "--fps", "8", "--from", "0:00.5"]
        let toFile = try CLI.run(render + ["-o", dir + "/a.mp4", "--progress", dir + "/p.txt"])
        XCTAssertEqual(toFile.status, 0, toFile.stderr)
        XCTAssertEqual(toFile.stdout, "")
        let toStdout = try CLI.run(render + ["-o", dir + "/b.mp4", "--progress", "-"])
        XCTAssertEqual(toStdout.status, 0, toStdout.stderr)
        for text in [try String(contentsOfFile: dir + "/p.txt", encoding: .utf8), toStdout.stdout] {
            let all = blocks(text)
            let last = try XCTUnwrap(all.last)
            XCTAssertEqual(all.dropLast().map { $0["progress"] }, Array(repeating: "continue", count: all.count - 1))
            // 1 s of video at 8 fps: 8 frames, 1 s of output time.
            XCTAssertEqual(last["progress"], "end")
            XCTAssertEqual(last["frame"], "8")
            XCTAssertEqual(last["total_frames"], "8")
            XCTAssertEqual(last["out_time_us"], "1000000")
            XCTAssertEqual(last["out_time"], "00:00:01.000000")
            XCTAssertNotNil(last["fps"].flatMap(Double.init))
            XCTAssertTrue(last["speed"]?.hasSuffix("x") == true, "\(last)")
            let frames = all.compactMap { $0["frame"].flatMap(Int.init) }
            XCTAssertEqual(frames, frames.sorted())
        }
        let clash = try CLI.run(render + ["-o", dir + "/c.mp4", "--progress", dir + "/c.mp4"])
        XCTAssertEqual(clash.status, 64, clash.stderr)
        XCTAssertEqual(CLI.files(dir), ["a.mp4", "a.wav", "b.mp4", "p.txt"])
    }
}
