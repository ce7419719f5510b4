import Foundation
import MediaIO
import SpecvizCore
import XCTest

/// The video's colours survive RGBA → BT.709 yuv420p → H.264 → a player's decode: each
/// quadrant of a test card comes back within a few levels, so the conversion matrix,
/// range and the stream's colour tags agree.
final class VideoColourTests: XCTestCase {
    func testQuadrantsComeBackInTheirColours() throws {
        let w = 128, h = 96
        let colours: [(r: UInt32, g: UInt32, b: UInt32)] = [(230, 40, 30), (30, 200, 60), (40, 60, 220), (240, 240, 240)]
        var card = PixelBuffer(width: w, height: h)
        for y in 0..<h {
            for x in 0..<w {
                let c = colours[(y < h / 2 ? 0 : 2) + (x < w / 2 ? 0 : 1)]
                card.pixels[y * w + x] = c.r | c.g << 8 | c.b << 16 | 0xFF00_0000
            }
        }
        let path = NSTemporaryDirectory() + "/specviz-colour-\(getpid()).mp4"
        defer { unlink(path) }
        let encoder = try VideoEncoder(path: path, options: VideoEncoder.Options(width: w, height: h, fps: 30))
        for k in 0..<10 { try encoder.write(card, index: k) }
        try encoder.finish()

        guard let ffmpeg = ["/usr/bin/ffmpeg", "/usr/local/bin/ffmpeg"].first(where: { FileManager.default.isExecutableFile(atPath: $0) }) else {
            throw XCTSkip("ffmpeg (installed by scripts/setup.sh) is needed to decode the video")
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: ffmpeg)
        process.arguments = ["-loglevel", "error", "-i", path, "-frames:v", "1", "-f", "rawvideo", "-pix_fmt", "rgb24", "-"]
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        XCTAssertEqual(process.terminationStatus, 0)
        XCTAssertEqual(data.count, w * h * 3)
        let bytes = [UInt8](data)
        for (q, c) in colours.enumerated() {
            let x = (q % 2) * w / 2 + w / 4, y = (q / 2) * h / 2 + h / 4
            let i = (y * w + x) * 3
            let got = (Int(bytes[i]), Int(bytes[i + 1]), Int(bytes[i + 2]))
            XCTAssertEqual(got.0, Int(c.r), accuracy: 6, "red of quadrant \(q)")
            XCTAssertEqual(got.1, Int(c.g), accuracy: 6, "green of quadrant \(q)")
            XCTAssertEqual(got.2, Int(c.b), accuracy: 6, "blue of quadrant \(q)")
        }
    }
}
