import XCTest

@testable import Analysis

final class SlidingWindowTests: XCTestCase {
    /// Every hop hands over the newest `size` samples, first once the window is full, and
    /// the chunking of the input does not matter.
    func testHopsAreTheNewestSamplesWhateverTheChunks() {
        let input = (0..<1000).map(Float.init)
        for chunk in [1, 7, 64, 1000] {
            let window = SlidingWindow(size: 48, hop: 16)
            var seen: [[Float]] = []
            var i = 0
            while i < input.count {
                let n = min(chunk, input.count - i)
                input[i..<(i + n)].withUnsafeBufferPointer { part in
                    window.push(part) { seen.append(Array(UnsafeBufferPointer(start: $0, count: 48))) }
                }
                i += n
            }
            // Hops end at samples 48, 64, …, 992: the window is the 48 samples before each.
            let ends = Array(stride(from: 48, through: 1000, by: 16))
            XCTAssertEqual(seen.count, ends.count, "chunk \(chunk)")
            for (w, end) in zip(seen, ends) { XCTAssertEqual(w, Array(input[(end - 48)..<end]), "chunk \(chunk)") }
        }
    }
}
