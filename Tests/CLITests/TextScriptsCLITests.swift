import Foundation
import MediaIO
import SpecvizCore
import SpecvizTestSupport
import XCTest

/// Titles in any script through `render` (issue 40): Arabic and Japanese are drawn, and a
/// character that no font has is named in one warning line.
final class TextScriptsCLITests: XCTestCase {
    /// Pixels in the title band (top right) that differ from a render without a title.
    func titlePixels(_ title: String, dir: String, stderr: inout String) throws -> Int {
        let base = ["render", dir + "/a.wav", "--mode", "bars", "--at", "0.5", "--size", "320x180", "-y"]
        if !FileManager.default.fileExists(atPath: dir + "/plain.png") {
            let r = try CLI.run(base + ["-o", dir + "/plain.png"])
            XCTAssertEqual(r.status, 0, r.stderr)
        }
        let r = try CLI.run(base + ["--title", title, "-o", dir + "/titled.png"])
        XCTAssertEqual(r.status, 0, r.stderr)
        stderr = r.stderr
        let plain = try PNGFile.read(dir + "/plain.png"), titled = try PNGFile.read(dir + "/titled.png")
        var differ = 0
        for y in 0..<30 { for x in 160..<320 where plain.rgba(x: x, y: y) != titled.rgba(x: x, y: y) { differ += 1 } }
        return differ
    }

    func testArabicAndJapaneseTitlesDrawAndAMissingCharacterIsNamed() throws {
        let dir = CLI.tempDir()
        try Signals.writeWAV(Signals.sines([(440, 0.3)], seconds: 1), to: dir + "/a.wav")
        var stderr = ""
        XCTAssertGreaterThan(try titlePixels("مرحبا بالعالم", dir: dir, stderr: &stderr), 60)
        XCTAssertEqual(stderr, "")
        XCTAssertGreaterThan(try titlePixels("夜のドライブ", dir: dir, stderr: &stderr), 60)
        XCTAssertEqual(stderr, "")
        XCTAssertGreaterThan(try titlePixels("Night \u{10FFFD}\u{10FFFD}", dir: dir, stderr: &stderr), 20)
        XCTAssertEqual(stderr, "specviz: warning: no font has U+10FFFD (\u{10FFFD}); it is left out\n")
    }
}
