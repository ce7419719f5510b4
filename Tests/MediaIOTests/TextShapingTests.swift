import Foundation
import MediaIO
import SpecvizCore
import XCTest

/// Text in any script (issue 40): FriBidi orders, fontconfig falls back, HarfBuzz shapes.
final class TextShapingTests: XCTestCase {
    /// Collects warnings instead of printing them.
    final class Warnings: @unchecked Sendable {
        private let lock = NSLock()
        private var stored: [String] = []
        var lines: [String] { lock.withLock { stored } }
        func add(_ line: String) { lock.withLock { stored.append(line) } }
    }

    func font(_ warnings: Warnings = Warnings()) throws -> FreeTypeFont {
        try FreeTypeFont(warn: { warnings.add($0) })
    }

    /// Left edges of the glyphs (pen plus offset), in glyph order.
    func penPositions(_ text: ShapedText) -> [Float] {
        var pen: Float = 0
        return text.glyphs.map { g in
            defer { pen += g.advance }
            return pen + g.offset.x
        }
    }

    func testArabicJoinsAndReadsRightToLeft() throws {
        let f = try font()
        let word = "مرحبا" // meem, reh, hah, beh, alef: every letter takes a joined form
        let shaped = f.shape(word, pixelSize: 24)
        XCTAssertEqual(shaped.glyphs.count, 5)
        // Visual order is right to left: glyphs come out last letter first.
        XCTAssertEqual(shaped.glyphs.map(\.cluster), [4, 3, 2, 1, 0])
        let x = penPositions(shaped)
        XCTAssertEqual(x.firstIndex(of: x.max()!), shaped.glyphs.firstIndex { $0.cluster == 0 })
        for (i, letter) in word.unicodeScalars.enumerated() {
            let isolated = f.shape(String(letter), pixelSize: 24).glyphs
            XCTAssertEqual(isolated.count, 1)
            let joined = shaped.glyphs.first { $0.cluster == i }!
            XCTAssertNotEqual(joined.id, isolated[0].id, "letter \(i) keeps its isolated form")
            XCTAssertNotEqual(joined.id & 0xFFFF, 0)
        }
    }

    func testBaseDirectionComesFromTheFirstStrongCharacter() throws {
        let f = try font()
        // Latin first: left-to-right paragraph, the Arabic word reversed inside it.
        let ltr = f.shape("abc مرحبا", pixelSize: 20).glyphs.map(\.cluster)
        XCTAssertEqual(ltr, [0, 1, 2, 3, 8, 7, 6, 5, 4])
        // Arabic first: right-to-left paragraph, so the Latin word sits on the left.
        let rtl = f.shape("مرحبا abc", pixelSize: 20).glyphs.map(\.cluster)
        XCTAssertEqual(rtl, [6, 7, 8, 5, 4, 3, 2, 1, 0])
    }

    func testJapaneseDrawsFromAFallbackFont() throws {
        let warnings = Warnings()
        let f = try font(warnings)
        let text = "夜のドライブ"
        let shaped = f.shape(text, pixelSize: 24)
        XCTAssertEqual(shaped.glyphs.count, 6, "a CJK font is needed: run scripts/setup.sh (fonts-wqy-microhei)")
        XCTAssertEqual(warnings.lines, [])
        XCTAssertEqual(shaped.glyphs.map(\.cluster), Array(0..<6))
        for g in shaped.glyphs {
            XCTAssertGreaterThan(g.id >> 16, 0, "DejaVu has no kanji: drawn by a fallback font")
            XCTAssertNotEqual(g.id & 0xFFFF, 0, "not .notdef")
            XCTAssertGreaterThan(g.advance, 12)
            let bitmap = try XCTUnwrap(f.glyph(id: g.id, pixelSize: 24))
            XCTAssertGreaterThan(bitmap.coverage.reduce(0) { $0 + Int($1) }, 255 * 10)
        }
    }

    func testLatinShapesAsCharacterByCharacter() throws {
        let f = try font()
        for size in [11, 16, 27] {
            let text = "Night Drive — AV Tower, fi & Wave (1984) Åsa"
            let shaped = f.shape(text, pixelSize: size)
            XCTAssertEqual(shaped.glyphs.count, text.unicodeScalars.count)
            var total: Float = 0
            for (g, s) in zip(shaped.glyphs, text.unicodeScalars) {
                let old = try XCTUnwrap(f.glyph(s, pixelSize: size))
                let new = try XCTUnwrap(f.glyph(id: g.id, pixelSize: size))
                XCTAssertEqual(g.id >> 16, 0)
                XCTAssertEqual(g.offset, .zero)
                XCTAssertEqual(g.advance, old.advance, "'\(s)' at \(size)")
                XCTAssertEqual(new.coverage, old.coverage)
                XCTAssertEqual(new.bearing, old.bearing)
                total += old.advance
            }
            XCTAssertEqual(shaped.advance, total)
        }
    }

    func testSizeChangesAreSeenByTheShaper() throws {
        let f = try font()
        let small = f.shape("Wave مرحبا 夜", pixelSize: 12).advance
        let large = f.shape("Wave مرحبا 夜", pixelSize: 48).advance
        XCTAssertEqual(large / small, 4, accuracy: 0.4)
    }

    func testACharacterNoFontHasWarnsOnceByNameAndIsLeftOut() throws {
        let warnings = Warnings()
        let f = try font(warnings)
        let shaped = f.shape("a\u{10FFFD}b\u{10FFFD}", pixelSize: 20)
        XCTAssertEqual(shaped.glyphs.map(\.cluster), [0, 2])
        _ = f.shape("c\u{10FFFD}", pixelSize: 30)
        XCTAssertEqual(warnings.lines, ["no font has U+10FFFD (\u{10FFFD}); it is left out"])
        // Controls are not drawn and not reported; default-ignorables (ZWJ) are not reported.
        _ = f.shape("x\ty\u{200D}z", pixelSize: 20)
        XCTAssertEqual(warnings.lines.count, 1)
    }
}
