import Foundation
import MediaIO
import SpecvizTestSupport
import XCTest

/// `MediaError` keeps the failing function, its code and the path as fields (issue 15), and
/// the one-line message stays what the user reads.
final class MediaErrorFieldsTests: XCTestCase {
    func error(_ body: () throws -> Void) -> MediaError? {
        do { try body() } catch let e as MediaError { return e } catch { XCTFail("not a MediaError: \(error)") }
        return nil
    }

    func testMissingFileNamesFunctionCodeAndPath() throws {
        let path = NSTemporaryDirectory() + "/specviz-missing-\(UUID().uuidString).wav"
        let e = try XCTUnwrap(error { _ = try AudioDecoder(path: path) })
        XCTAssertEqual(e.path, path)
        XCTAssertEqual(e.function, "avio_open2")
        XCTAssertEqual(e.code, -ENOENT) // AVERROR(ENOENT)
        XCTAssertEqual(e.message, "cannot open '\(path)': No such file or directory")
    }

    func testNotMediaIsAnAVErrorOnThatFile() throws {
        let path = NSTemporaryDirectory() + "/specviz-text-\(UUID().uuidString).wav"
        try Data(repeating: 0x41, count: 4096).write(to: URL(fileURLWithPath: path))
        defer { unlink(path) }
        let e = try XCTUnwrap(error { _ = try AudioDecoder(path: path) })
        XCTAssertEqual(e.path, path)
        XCTAssertNotNil(e.function)
        XCTAssertLessThan(e.code ?? 0, 0)
        XCTAssertTrue(e.message.hasPrefix("cannot open '\(path)'") || e.message.hasPrefix("'\(path)'"), e.message)
    }

    func testALSADeviceErrorKeepsTheDeviceAndCode() throws {
        let e = try XCTUnwrap(error { _ = try ALSAPlayback(device: "specviz_no_such_pcm", sampleRate: 48000, channels: 1) })
        XCTAssertEqual(e.path, "specviz_no_such_pcm")
        XCTAssertEqual(e.function, "snd_pcm_open")
        XCTAssertLessThan(e.code ?? 0, 0)
    }
}
