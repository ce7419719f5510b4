import Glibc
import XCTest

@testable import SpecvizCore

/// Typed errors (issue 38): the cases carry what their line names, and the line reads as
/// before.
final class ErrorsTests: XCTestCase {
    func testRenderErrorLines() {
        XCTAssertEqual(RenderError.noAudio(source: "a.wav").description, "'a.wav' contains no audio samples")
        XCTAssertEqual(
            RenderError.pastEnd(time: 12.5, source: "a.wav", length: 10).description, "12.50 s is past the end of 'a.wav' (10.00 s)")
        XCTAssertEqual(
            RenderError.startPastEnd(from: 3, source: "a.wav", length: 2.25).description, "--from 3 is past the end of 'a.wav' (2.25 s)")
        XCTAssertEqual(
            RenderError.inFrameDump(path: "f.svzf", .truncatedFrameDump).description, "f.svzf: frame dump is truncated")
        XCTAssertEqual(
            RenderError.drawOutOfRange(count: 6, first: 3, available: 4).message, "draw of 6 vertices from 3 exceeds the 4-vertex buffer")
        if case .pastEnd(let time, _, let length) = RenderError.pastEnd(time: 1, source: "x", length: 0.5) {
            XCTAssertEqual(time - length, 0.5)
        } else {
            XCTFail("the case keeps its fields")
        }
    }

    func testOneInterrupted() {
        XCTAssertEqual(Interrupted().description, "interrupted")
        XCTAssertEqual(Interrupted(signal: SIGTERM).description, "interrupted (SIGTERM)")
        XCTAssertEqual(Interrupted(signal: SIGHUP).exitCode, 129)
        XCTAssertEqual(Interrupted(signal: SIGINT).exitCode, 130)
    }
}
