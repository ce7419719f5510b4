import MediaIO
import Raster
import ShadersCPU
import SpecvizCore
import XCTest

/// Shaped text through the rasteriser (issue 40): Latin draws exactly as it did when each
/// character was one glyph, and Arabic does not.
final class ShapedTextRenderTests: XCTestCase {
    /// The same font seen only as a per-character glyph provider (the layout before shaping).
    final class PerCharacter: GlyphProvider {
        let font: FreeTypeFont
        init(_ font: FreeTypeFont) { self.font = font }
        func glyph(_ scalar: Unicode.Scalar, pixelSize: Int) -> Glyph? { font.glyph(scalar, pixelSize: pixelSize) }
    }

    func render(_ texts: [String], provider: GlyphProvider) throws -> [UInt32] {
        var scene = Scene(width: 200, height: 120)
        let anchors: [TextRun.Anchor] = [.left, .center, .right]
        for (i, text) in texts.enumerated() {
            let anchor = anchors[i % 3]
            let x: Float = anchor == .left ? 3.3 : anchor == .center ? 100.5 : 196.7
            let run = TextRun(text, at: SIMD2(x, 20 + Float(i) * 19.4), size: 11 + Float(i) * 1.7, color: SIMD4(1, 0.9, 0.6, 0.9))
            scene.items.append(.text(run))
        }
        var picture = PixelBuffer(width: scene.width, height: scene.height)
        try Rasterizer(threads: 1).render(scene, into: &picture, shader2D: FlatShader(), shader3D: LitShader(), glyphProvider: provider)
        return picture.pixels
    }

    func testLatinDrawsAsBeforeShaping() throws {
        let font = try FreeTypeFont()
        let texts = ["Night Drive", "AV Tower, fi & Wave", "(1984) Åsa Ünal", "-23.5 dB  440 Hz", "Tokyo — 12:04"]
        let shaped = try render(texts, provider: font)
        let before = try render(texts, provider: PerCharacter(font))
        XCTAssertTrue(shaped == before, "\(zip(shaped, before).filter { $0 != $1 }.count) pixels differ")
        XCTAssertGreaterThan(shaped.filter { $0 != shaped[0] }.count, 500, "text was drawn")
    }

    func testArabicDrawsJoinedNotCharacterByCharacter() throws {
        let font = try FreeTypeFont()
        let shaped = try render(["مرحبا بالعالم"], provider: font)
        let before = try render(["مرحبا بالعالم"], provider: PerCharacter(font))
        XCTAssertGreaterThan(zip(shaped, before).filter { $0 != $1 }.count, 100)
    }
}
