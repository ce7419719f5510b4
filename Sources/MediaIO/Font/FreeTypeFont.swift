import CFreeType
import Foundation
import SpecvizCore

/// Glyphs from a TrueType/OpenType font rendered by FreeType as 8-bit coverage
/// (anti-aliased), cached per (character, pixel size). Thread-safe.
public final class FreeTypeFont: GlyphProvider {
    /// Fonts tried in order when no path is given (Debian's fonts-dejavu-core).
    public static let searchPaths = [
        "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf",
        "/usr/share/fonts/truetype/dejavu/DejaVuSansMono.ttf",
        "/usr/share/fonts/TTF/DejaVuSans.ttf",
    ]

    private var library: FT_Library?
    private var face: FT_Face?
    private var cache: [Int: Glyph?] = [:]
    private let lock = NSLock()
    public let path: String

    public init(path: String? = nil) throws {
        guard let found = path ?? FreeTypeFont.searchPaths.first(where: { FileManager.default.fileExists(atPath: $0) }) else {
            throw MediaError("no font found (install fonts-dejavu-core, or pass --font PATH)")
        }
        self.path = found
        guard FT_Init_FreeType(&library) == 0 else { throw MediaError("FreeType failed to initialise") }
        guard FT_New_Face(library, found, 0, &face) == 0 else {
            FT_Done_FreeType(library)
            throw MediaError("cannot load font '\(found)'")
        }
    }

    deinit {
        if face != nil { FT_Done_Face(face) }
        if library != nil { FT_Done_FreeType(library) }
    }

    public func glyph(_ scalar: Unicode.Scalar, pixelSize: Int) -> Glyph? {
        let key = Int(scalar.value) << 12 | min(pixelSize, 4095)
        lock.lock()
        defer { lock.unlock() }
        if let cached = cache[key] { return cached }
        let g = render(scalar, pixelSize: pixelSize)
        cache[key] = g
        return g
    }

    private func render(_ scalar: Unicode.Scalar, pixelSize: Int) -> Glyph? {
        guard let face else { return nil }
        FT_Set_Pixel_Sizes(face, 0, FT_UInt(max(1, pixelSize)))
        let index = FT_Get_Char_Index(face, FT_ULong(scalar.value))
        if index == 0 && scalar != " " { return nil }
        guard FT_Load_Glyph(face, index, FT_Int32(FT_LOAD_DEFAULT)) == 0 else { return nil }
        let slot = spv_ft_glyph(face)!
        guard FT_Render_Glyph(slot, FT_RENDER_MODE_NORMAL) == 0 else { return nil }
        let bitmap = slot.pointee.bitmap
        let w = Int(bitmap.width), h = Int(bitmap.rows)
        var coverage = [UInt8](repeating: 0, count: w * h)
        if w > 0 && h > 0, let buffer = bitmap.buffer {
            let pitch = Int(bitmap.pitch)
            for y in 0..<h {
                for x in 0..<w { coverage[y * w + x] = buffer[y * pitch + x] }
            }
        }
        return Glyph(
            width: w, height: h, coverage: coverage,
            bearing: SIMD2(Int(slot.pointee.bitmap_left), -Int(slot.pointee.bitmap_top)),
            advance: Float(slot.pointee.advance.x) / 64)
    }
}
