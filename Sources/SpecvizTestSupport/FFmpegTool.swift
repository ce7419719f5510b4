import Foundation
import XCTest

/// The `ffmpeg` command (installed by scripts/setup.sh) for making test files specviz only
/// reads: tagged audio with covers, JPEG and WebP pictures.
public enum FFmpegTool {
    /// Its path, or nil on a machine without it.
    public static var path: String? {
        ["/usr/bin/ffmpeg", "/usr/local/bin/ffmpeg"].first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    /// Runs `ffmpeg -loglevel error -y ARGS` and fails the test if it fails; skips the test
    /// without ffmpeg.
    public static func run(_ args: [String], file: StaticString = #filePath, line: UInt = #line) throws {
        guard let exe = path else { throw XCTSkip("ffmpeg (installed by scripts/setup.sh) is needed to make the test files") }
        let p = Process()
        p.executableURL = URL(fileURLWithPath: exe)
        p.arguments = ["-loglevel", "error", "-y"] + args
        try p.run()
        p.waitUntilExit()
        XCTAssertEqual(p.terminationStatus, 0, "ffmpeg \(args)", file: file, line: line)
    }
}
