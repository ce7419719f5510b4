import Foundation
import XCTest

@testable import SpecvizCore

/// The streaming JSON writer (issue 38): layout, escaping, numbers, and that it hands the
/// sink its bytes as it goes.
final class JSONWriterTests: XCTestCase {
    /// Counts the writes it is handed.
    final class Chunks: ByteSink {
        var bytes: [UInt8] = []
        var writes = 0
        func write(_ b: UnsafeRawBufferPointer) throws {
            bytes.append(contentsOf: b)
            writes += 1
        }
    }

    func testLayoutSeparatorsAndLineBreaks() throws {
        let out = ByteBuffer()
        let w = JSONWriter(to: out, separators: .spaced)
        try w.beginObject()
        try w.key("a")
        try w.beginArray()
        for v in [1, 2] { try w.value(v) }
        try w.endArray()
        w.newline()
        try w.key("rows")
        try w.beginArray()
        w.newline()
        for k in 0..<2 {
            if k > 0 { w.newline() }
            try w.beginObject()
            try w.member("k", Double(k), decimals: 1)
            try w.endObject()
        }
        w.newline()
        try w.endArray()
        try w.endObject()
        w.newline()
        try w.flush()
        XCTAssertEqual(out.text, "{\"a\": [1, 2],\n\"rows\": [\n{\"k\": 0.0},\n{\"k\": 1.0}\n]}\n")
        XCTAssertNoThrow(try JSONSerialization.jsonObject(with: Data(out.bytes)))
    }

    func testStringsAreEscaped() throws {
        let out = ByteBuffer()
        let w = JSONWriter(to: out)
        try w.beginArray()
        try w.value("q\"b\\n\n\t\u{1}é")
        try w.null()
        try w.value(true)
        try w.endArray()
        try w.flush()
        XCTAssertEqual(out.text, "[\"q\\\"b\\\\n\\u000a\\u0009\\u0001é\",null,true]")
        let back = try JSONSerialization.jsonObject(with: Data(out.bytes)) as? [Any]
        XCTAssertEqual(back?.first as? String, "q\"b\\n\n\t\u{1}é")
    }

    func testNumbers() throws {
        func text(_ rounding: DecimalRounding, _ body: (JSONWriter) throws -> Void) throws -> String {
            let out = ByteBuffer()
            let w = JSONWriter(to: out, rounding: rounding)
            try w.beginArray()
            try body(w)
            try w.endArray()
            try w.flush()
            return out.text
        }
        let values = [-53.125, 0.125, -0.001, 2.5, .nan, .infinity, 1234.5678]
        XCTAssertEqual(
            try text(.correctly) { w in for v in values { try w.value(v, decimals: 2) } },
            "[-53.12,0.12,-0.00,2.50,null,null,1234.57]")
        XCTAssertEqual(
            try text(.halfAwayFromZero) { w in for v in values { try w.value(v, decimals: 2) } },
            "[-53.13,0.13,0.00,2.50,null,null,1234.57]")
        XCTAssertEqual(try text(.correctly) { w in for v in [440, 430.54, 415.3046] { try w.value(v, significant: 6) } }, "[440,430.54,415.305]")
        XCTAssertEqual(DecimalRounding.halfAwayFromZero(-7.04999, decimals: 4), "-7.0500")
        XCTAssertEqual(DecimalRounding.halfAwayFromZero(12, decimals: 0), "12")
    }

    /// A long document reaches the sink in pieces no larger than the buffer (and a little).
    func testStreamsInChunks() throws {
        let sink = Chunks()
        let w = JSONWriter(to: sink, capacity: 256)
        try w.beginArray()
        for k in 0..<1000 { try w.value(Double(k), decimals: 3) }
        try w.endArray()
        XCTAssertGreaterThan(sink.writes, 10, "written as it goes")
        try w.flush()
        let back = try JSONSerialization.jsonObject(with: Data(sink.bytes)) as? [Double]
        XCTAssertEqual(back?.count, 1000)
        XCTAssertEqual(back?.last, 999)
    }
}
