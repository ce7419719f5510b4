import Raster
import SpecvizCore
import SpecvizTestSupport
import XCTest

/// A seeded mutation loop over the frame-dump reader (issue 14): every mutated dump either
/// decodes or throws; none crashes. More with SPECVIZ_FUZZ_ITERATIONS=N.
final class FrameDumpFuzzTests: XCTestCase {
    func seed() -> [UInt8] {
        var scene = Scene(width: 32, height: 18, clearColor: SIMD4(0, 0, 0, 1))
        scene.begin2D()
        scene.vertices2D.append(Vertex2D(SIMD2(1, 1), SIMD4(1, 0, 0, 1)))
        scene.vertices2D.append(Vertex2D(SIMD2(30, 2), SIMD4(0, 1, 0, 1)))
        scene.vertices2D.append(Vertex2D(SIMD2(5, 16), SIMD4(0, 0, 1, 1)))
        scene.end2D()
        return FrameDump.encode(scene)
    }

    func testMutatedDumpsNeverCrash() throws {
        let base = seed()
        XCTAssertNoThrow(try FrameDump.decode(base))
        var rng = Mutator(seed: 1414)
        let n = Mutator.iterations(default: 5000)
        var ok = 0
        for _ in 0..<n {
            if (try? FrameDump.decode(rng.mutate(base))) != nil { ok += 1 }
        }
        XCTAssertGreaterThan(ok, 0)
        XCTAssertLessThan(ok, n)
    }
}
