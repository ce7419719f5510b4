import Raster
import ShadersCPU
import SpecvizCore
import XCTest

/// A frame dump holds the frame's triangles in order; draws that follow one another with
/// the same pipeline and transform are written as one, and the frame it decodes to draws
/// the same pixels.
final class FrameDumpTests: XCTestCase {
    func testDrawsWithTheSameStateAreWrittenAsOne() throws {
        var scene = Scene(width: 64, height: 48)
        // Three 2D rows, one draw each (as the full-resolution spectrogram's), a text run
        // between two of them (not in the dump), then a 3D draw.
        for k in 0..<3 {
            scene.begin2D()
            let y1 = 0.8 - Float(k) * 0.3
            scene.quad(x0: -0.9, y0: y1 - 0.25, x1: 0.9, y1: y1, bottom: SIMD4(1, 0.2, 0.1, 1), top: SIMD4(0.1, 0.4, 1, 1))
            scene.end2D()
            if k == 0 { scene.addText(TextRun("x", at: SIMD2(4, 4), size: 8, color: SIMD4(1, 1, 1, 1))) }
        }
        scene.begin3D(mvp: .identity)
        scene.vertices3D.append(contentsOf: [
            Vertex3D(SIMD3(-0.5, -0.9, 0.5), SIMD3(0, 0, -1), SIMD4(0, 1, 0, 1)),
            Vertex3D(SIMD3(0.5, -0.9, 0.5), SIMD3(0, 0, -1), SIMD4(0, 1, 0, 1)),
            Vertex3D(SIMD3(0, -0.2, 0.5), SIMD3(0, 0, -1), SIMD4(0, 1, 0, 1)),
        ])
        scene.end3D()
        let decoded = try FrameDump.decode(FrameDump.encode(scene))
        XCTAssertEqual(decoded.items.count, 2, "the three 2D draws are one, then the 3D draw")
        XCTAssertEqual(decoded.vertices2D.map(\.position), scene.vertices2D.map(\.position))
        XCTAssertEqual(decoded.vertices2D.map(\.color), scene.vertices2D.map(\.color))
        var a = PixelBuffer(width: 64, height: 48), b = PixelBuffer(width: 64, height: 48)
        var noText = scene
        noText.items.removeAll {
            if case .text = $0 { return true }; return false
        }
        try Rasterizer(threads: 1).render(noText, into: &a, shader2D: FlatShader(), shader3D: LitShader())
        try Rasterizer(threads: 1).render(decoded, into: &b, shader2D: FlatShader(), shader3D: LitShader())
        XCTAssertEqual(a.pixels, b.pixels)
        XCTAssertGreaterThan(Set(a.pixels).count, 4, "the frame shows something")
    }
}
