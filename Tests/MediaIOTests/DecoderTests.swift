import Foundation
import SpecvizTestSupport
import XCTest

@testable import MediaIO

final class DecoderTests: XCTestCase {
    func testMissingFileIsAClearError() {
        XCTAssertThrowsError(try AudioDecoder(path: "/nonexistent/x.wav")) { error in
            XCTAssertTrue("\(error)".contains("cannot open '/nonexistent/x.wav'"), "\(error)")
        }
    }

    private func sineFile() throws -> String {
        let path = NSTemporaryDirectory() + "specviz-ahead-\(getpid()).wav"
        let x = (0..<100_000).map { Float(0.5 * sin(Double($0) * 0.01)) }
        try Signals.writeWAV(x, sampleRate: 44100, to: path)
        return path
    }

    func testDecodingAheadGivesEverySampleInOrder() throws {
        let path = try sineFile()
        defer { unlink(path) }
        var direct: [Float] = []
        let plain = try AudioDecoder(path: path)
        var buffer = [Float](repeating: 0, count: 3000)
        while true {
            let n = try buffer.withUnsafeMutableBufferPointer { try plain.readMono(into: $0) }
            if n == 0 { break }
            direct += buffer[0..<n]
        }
        var ahead: [Float] = []
        var chunks = 0
        try AudioDecoder(path: path).forEachMonoChunk(chunk: 4096, depth: 2) {
            ahead += $0; chunks += 1
        }
        XCTAssertEqual(direct.count, 100_000)
        XCTAssertEqual(ahead, direct)
        XCTAssertEqual(chunks, (100_000 + 4095) / 4096)
        // The payload prepared on the decoding thread travels with its own chunk.
        final class Sum { var value: Float = 0; var count = 0 }
        try AudioDecoder(path: path).forEachMonoChunk(
            chunk: 1000, depth: 3, payload: { Sum() },
            prepare: { s, p in
                p.value = s.reduce(0, +); p.count = s.count
            }
        ) { s, p in
            XCTAssertEqual(p.count, s.count)
            XCTAssertEqual(p.value, s.reduce(0, +))
        }
    }

    func testAnErrorInTheBodyStopsTheDecodingAndIsRethrown() throws {
        let path = try sineFile()
        defer { unlink(path) }
        struct Stop: Error {}
        var seen = 0
        XCTAssertThrowsError(
            try AudioDecoder(path: path).forEachMonoChunk(chunk: 1000, depth: 2) { _ in
                seen += 1
                if seen == 3 { throw Stop() }
            }
        ) { XCTAssertTrue($0 is Stop) }
        XCTAssertEqual(seen, 3)
    }
}
