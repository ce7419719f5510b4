import SpecvizCore
import XCTest

/// Changed rows stay sorted and disjoint, merge what overlaps or touches, and when there
/// are more ranges than it holds it merges the closest two: it may say more than changed,
/// never less.
final class ChangedRowsTests: XCTestCase {
    func ranges(_ c: ChangedRows) -> [Range<Int>] {
        var r: [Range<Int>] = []
        c.forEach { r.append($0) }
        return r
    }

    func testInsertKeepsSortedDisjointRanges() {
        var c = ChangedRows.none
        XCTAssertTrue(c.isEmpty)
        c.insert(50..<60)
        c.insert(10..<20)
        c.insert(30..<30) // empty: nothing
        XCTAssertEqual(ranges(c), [10..<20, 50..<60])
        c.insert(20..<25) // touches 10..<20
        XCTAssertEqual(ranges(c), [10..<25, 50..<60])
        c.insert(22..<55) // overlaps both
        XCTAssertEqual(ranges(c), [10..<60])
        XCTAssertEqual(c.rowCount(height: 1000), 50)
        XCTAssertEqual(c.rowCount(height: 40), 30, "rows past the frame do not count")
    }

    func testMoreRangesThanItHoldsMergeTheClosest() {
        var c = ChangedRows.none
        // Nine ranges 100 rows apart, but the gap after the fourth is only 10.
        for k in 0..<9 {
            let start = k * 100 + (k >= 4 ? -80 : 0)
            c.insert(start..<(start + 10))
        }
        XCTAssertEqual(c.count, ChangedRows.capacity)
        let r = ranges(c)
        XCTAssertEqual(r[3], 300..<330, "the closest pair (300..<310 and 320..<330) merged")
        XCTAssertEqual(r.count, 8)
        // Every inserted row is still covered.
        for k in 0..<9 {
            let start = k * 100 + (k >= 4 ? -80 : 0)
            for y in start..<(start + 10) { XCTAssertTrue(r.contains { $0.contains(y) }, "row \(y)") }
        }
    }

    func testAllAbsorbsEverything() {
        var c = ChangedRows.none
        c.insert(0..<4)
        c.formUnion(.all)
        XCTAssertTrue(c.isAll)
        c.insert(7..<9)
        XCTAssertTrue(c.isAll)
        XCTAssertEqual(c.rowCount(height: 33), 33)
        var d = ChangedRows.none
        d.insert(5..<6)
        var e = ChangedRows.none
        e.insert(1..<2)
        e.formUnion(d)
        XCTAssertEqual(ranges(e), [1..<2, 5..<6])
    }
}

/// A change history answers what changed since an earlier frame: the union of the frames
/// after it, everything when that frame is unknown or too old (it answers for fewer frames
/// since than it keeps).
final class ChangeHistoryTests: XCTestCase {
    func testRowsChangedSinceAnEarlierFrame() {
        var history = ChangeHistory(keeping: 3)
        func rows(_ r: Range<Int>) -> ChangedRows {
            var c = ChangedRows.none
            c.insert(r)
            return c
        }
        XCTAssertTrue(history.since(-1).isAll, "nothing held")
        XCTAssertEqual(history.record(.all), 0)
        XCTAssertEqual(history.record(rows(10..<20)), 1)
        XCTAssertEqual(history.record(rows(40..<50)), 2)
        XCTAssertTrue(history.since(2).isEmpty, "the last frame itself")
        XCTAssertEqual(history.since(1).rowCount(height: 100), 10)
        XCTAssertEqual(history.since(0).rowCount(height: 100), 20)
        XCTAssertEqual(history.record(rows(0..<5)), 3)
        XCTAssertEqual(history.since(1).rowCount(height: 100), 15, "frames 2 and 3")
        XCTAssertTrue(history.since(0).isAll, "three frames since: more than it answers for")
        XCTAssertTrue(history.since(-1).isAll)
        XCTAssertEqual(history.record(.none), 4)
        XCTAssertEqual(history.since(2).rowCount(height: 100), 5)
        XCTAssertTrue(history.since(7).isAll, "a frame not yet drawn")
    }
}
