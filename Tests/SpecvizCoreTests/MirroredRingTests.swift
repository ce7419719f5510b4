import SpecvizCore
import XCTest

/// A mirrored ring reads its newest samples in place, oldest first, as a linearised ring
/// would: zeros before it fills, across the wrap, after any mix of single and bulk writes.
final class MirroredRingTests: XCTestCase {
    func testNewestSamplesAreContiguousOldestFirst() {
        var ring = MirroredRing(count: 8)
        var stream: [Float] = []
        func check(_ note: String) {
            for n in 0...8 {
                let expected = (0..<n).map { k -> Float in
                    let i = stream.count - n + k
                    return i >= 0 ? stream[i] : 0
                }
                XCTAssertEqual(Array(UnsafeBufferPointer(start: ring.latest(n), count: n)), expected, "\(note), newest \(n)")
            }
        }
        check("empty")
        for v in 1...5 { ring.append(Float(v)); stream.append(Float(v)) }
        check("five single writes")
        let bulk: [Float] = (6...25).map(Float.init) // more than the ring holds: wraps twice
        bulk.withUnsafeBufferPointer { ring.append($0.baseAddress!, count: 3) }
        stream += bulk[0..<3]
        check("a bulk write across the wrap")
        bulk.withUnsafeBufferPointer { ring.append($0.baseAddress! + 3, count: 17) }
        stream += bulk[3...]
        check("a bulk write longer than the ring")
        ring.reset()
        stream = []
        check("reset")
    }
}
