import Foundation
import MediaIO
import SpecvizCore
import XCTest

/// Compares rendered pictures with committed PNGs in `golden-frames/`, with a stated
/// tolerance (never by hash). Set `SPECVIZ_RECORD_GOLDEN=1` to (re)record on purpose:
/// the test then writes the file and fails, so a recording never passes silently.
public enum GoldenFrame {
    /// The repository root (found from this file's path).
    public static var root: String {
        var url = URL(fileURLWithPath: #filePath)
        for _ in 0..<3 { url.deleteLastPathComponent() }
        return url.path
    }

    public static func path(_ name: String) -> String { root + "/golden-frames/" + name + ".png" }

    /// Per-channel differences above `tolerance` (0…255) count as differing pixels; the test
    /// fails when more than `maxDifferingFraction` of the pixels differ.
    public static func assertMatches(
        _ picture: PixelBuffer, name: String, tolerance: Int = 3,
        maxDifferingFraction: Double = 0.002,
        file: StaticString = #filePath, line: UInt = #line
    ) {
        let p = path(name)
        if ProcessInfo.processInfo.environment["SPECVIZ_RECORD_GOLDEN"] == "1" {
            try? FileManager.default.createDirectory(
                atPath: (p as NSString).deletingLastPathComponent,
                withIntermediateDirectories: true)
            do { try PNGFile.write(picture, to: p) } catch { XCTFail("cannot record \(p): \(error)", file: file, line: line) }
            XCTFail("recorded golden frame \(name); run again without SPECVIZ_RECORD_GOLDEN", file: file, line: line)
            return
        }
        guard let golden = try? PNGFile.read(p) else {
            XCTFail("no golden frame at \(p) (record with SPECVIZ_RECORD_GOLDEN=1)", file: file, line: line)
            return
        }
        guard golden.width == picture.width, golden.height == picture.height else {
            XCTFail(
                "golden \(name) is \(golden.width)x\(golden.height), picture is \(picture.width)x\(picture.height)",
                file: file, line: line)
            return
        }
        let (differing, worst) = compare(picture, golden, tolerance: tolerance)
        let fraction = Double(differing) / Double(picture.pixels.count)
        if fraction > maxDifferingFraction {
            let failed = NSTemporaryDirectory() + "/specviz-golden-" + name.replacingOccurrences(of: "/", with: "_") + ".png"
            try? PNGFile.write(picture, to: failed)
            XCTFail(
                "\(name): \(differing) pixels (\(String(format: "%.3f", fraction * 100))%) differ by more than \(tolerance) "
                    + "(worst \(worst)); picture written to \(failed)", file: file, line: line)
        }
    }

    /// Number of pixels whose RGB channels differ by more than `tolerance`, and the worst difference.
    public static func compare(_ a: PixelBuffer, _ b: PixelBuffer, tolerance: Int) -> (Int, Int) {
        var differing = 0, worst = 0
        for i in 0..<min(a.pixels.count, b.pixels.count) {
            let x = a.pixels[i], y = b.pixels[i]
            if x == y { continue }
            var d = 0
            for shift in stride(from: 0, to: 24, by: 8) {
                d = max(d, abs(Int((x >> UInt32(shift)) & 0xFF) - Int((y >> UInt32(shift)) & 0xFF)))
            }
            worst = max(worst, d)
            if d > tolerance { differing += 1 }
        }
        return (differing, worst)
    }
}
