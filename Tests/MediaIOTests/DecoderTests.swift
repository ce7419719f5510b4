import XCTest

@testable import MediaIO

final class DecoderTests: XCTestCase {
    func testMissingFileIsAClearError() {
        XCTAssertThrowsError(try AudioDecoder(path: "/nonexistent/x.wav")) { error in
            XCTAssertTrue("\(error)".contains("cannot open '/nonexistent/x.wav'"), "\(error)")
        }
    }
}
