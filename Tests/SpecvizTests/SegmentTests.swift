import Specviz
import XCTest

final class SegmentTests: XCTestCase {
    func testParsing() {
        XCTAssertEqual(Segment(parsing: "2/4"), Segment(index: 2, count: 4))
        XCTAssertEqual(Segment(parsing: " 1 / 1 "), Segment(index: 1, count: 1))
        for bad in ["0/4", "5/4", "4", "a/b", "1/0", "-1/3", "1/2/3", ""] {
            XCTAssertNil(Segment(parsing: bad), bad)
        }
    }

    func testSegmentsCoverEveryFrameOnceAndDifferByAtMostOne() {
        for total in [0, 1, 7, 100, 1801] {
            for count in 1...9 {
                let ranges = (1...count).map { Segment(index: $0, count: count)!.frames(of: total) }
                XCTAssertEqual(ranges.first?.lowerBound, 0)
                XCTAssertEqual(ranges.last?.upperBound, total)
                for (a, b) in zip(ranges, ranges.dropFirst()) { XCTAssertEqual(a.upperBound, b.lowerBound) }
                let sizes = ranges.map(\.count)
                XCTAssertLessThanOrEqual(sizes.max()! - sizes.min()!, 1, "\(total) frames in \(count)")
            }
        }
    }

    func testSpanIsWholeFramesOfTheRender() {
        // 60.01 s at 30 fps = 1801 frames (the last one partly past the end), from 0.
        let s = Segment(index: 4, count: 4)!.span(start: 0, end: 60.01, fps: 30)
        XCTAssertEqual(s.frames, 1350..<1801)
        XCTAssertEqual(s.from, 45)
        XCTAssertEqual(s.to * 30, 1801, accuracy: 1e-9)
        // From 10 s: frame numbers stay absolute (from time 0).
        let t = Segment(index: 1, count: 2)!.span(start: 10, end: 20, fps: 25)
        XCTAssertEqual(t.frames, 250..<375)
        XCTAssertEqual(t.from, 10)
        XCTAssertEqual(t.to, 15)
    }
}
