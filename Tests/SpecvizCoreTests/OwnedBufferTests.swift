import XCTest

@testable import SpecvizCore

final class OwnedBufferTests: XCTestCase {
    func testStartsAtTheGivenValueAndKeepsWrites() {
        let b = OwnedBuffer<Float>(count: 5, repeating: 2)
        XCTAssertEqual(b.count, 5)
        XCTAssertEqual((0..<5).map { b[$0] }, [2, 2, 2, 2, 2])
        b[3] = 7
        let sum = b.withUnsafeBufferPointer { $0.reduce(0, +) }
        XCTAssertEqual(sum, 15)
        b.withUnsafeMutableBufferPointer { p in for i in p.indices { p[i] = Float(i) } }
        XCTAssertEqual(b[4], 4)
        b.fill(0)
        XCTAssertEqual(b.withUnsafeBufferPointer { $0.max() }, 0)
    }

    func testZeroedAndEmpty() {
        let z = OwnedBuffer<Double>(zeroed: 3)
        XCTAssertEqual(z.withUnsafeBufferPointer { Array($0) }, [0, 0, 0])
        let e = OwnedBuffer<Int32>(zeroed: 0)
        XCTAssertEqual(e.count, 0)
        XCTAssertEqual(e.withUnsafeBufferPointer { $0.count }, 0)
    }

    /// An owner holds buffers as plain stored properties and needs no deinit of its own.
    func testOwnedByAClass() {
        final class Owner {
            let a = OwnedBuffer<Float>(zeroed: 1024)
            func run() -> Float { for i in 0..<a.count { a.base[i] = 1 }; return a.withUnsafeBufferPointer { $0.reduce(0, +) } }
        }
        XCTAssertEqual(Owner().run(), 1024)
    }
}
