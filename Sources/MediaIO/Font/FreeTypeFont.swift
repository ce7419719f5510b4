import CFreeType
import Foundation
import SpecvizCore

/// Glyphs from a TrueType/OpenType font rendered by FreeType as 8-bit coverage
/// (anti-aliased), cached per (character, pixel size). Text is shaped as a whole
/// (`shape`, in FreeTypeFont+Shaping.swift): FriBidi orders it, fontconfig finds a font
/// for each character the primary font lacks, HarfBuzz shapes each run. Thread-safe.
public final class FreeTypeFont: TextShaping {
    /// Fonts tried in order when no path is given (Debian's fonts-dejavu-core).
    public static let searchPaths = [
        "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf",
        "/usr/share/fonts/truetype/dejavu/DejaVuSansMono.ttf",
        "/usr/share/fonts/TTF/DejaVuSans.ttf",
    ]

    /// A loaded face and its HarfBuzz font (which references the face).
    final class Face {
        let ft: FT_Face
        let hb: OpaquePointer

        init(_ ft: FT_Face) {
            self.ft = ft
            hb = hb_ft_font_create_referenced(ft)
            // Hinted advances, as the bitmaps are hinted: Latin lays out as it did per character.
            hb_ft_font_set_load_flags(hb, Int32(FT_LOAD_DEFAULT))
        }

        deinit {
            hb_font_destroy(hb)
            FT_Done_Face(ft)
        }
    }

    struct ShapeKey: Hashable {
        var text: String
        var size: Int
    }

    private var library: FT_Library?
    /// faces[0] is the primary font; fallbacks are appended as characters need them.
    var faces: [Face] = []
    /// Fallback entry -> index in `faces`.
    var loadedFallbacks: [Int: Int] = [:]
    lazy var fallback = FontFallback(excluding: path)
    /// Per character: the index in `faces` of the font that draws it, or -1 if none has it.
    var fontOf: [UInt32: Int] = [:]
    var shaped: [ShapeKey: ShapedText] = [:]
    let warn: @Sendable (String) -> Void
    private var cache: [Int: Glyph?] = [:]
    private var byID: [UInt64: Glyph?] = [:]
    let lock = NSLock()
    public let path: String

    /// `warn` receives one line per character that no font has (default: stderr).
    public init(path: String? = nil, warn: @escaping @Sendable (String) -> Void = { FreeTypeFont.warnOnStandardError($0) }) throws {
        guard let found = path ?? FreeTypeFont.searchPaths.first(where: { FileManager.default.fileExists(atPath: $0) }) else {
            throw MediaError("no font found (install fonts-dejavu-core, or pass --font PATH)")
        }
        self.path = found
        self.warn = warn
        guard FT_Init_FreeType(&library) == 0 else { throw MediaError("FreeType failed to initialise") }
        guard let face = loadFace(found, index: 0) else {
            FT_Done_FreeType(library)
            throw MediaError("cannot load font '\(found)'")
        }
        faces.append(face)
    }

    deinit {
        faces.removeAll()
        if library != nil { FT_Done_FreeType(library) }
    }

    public static func warnOnStandardError(_ line: String) {
        FileHandle.standardError.write(Data("specviz: warning: \(line)\n".utf8))
    }

    func loadFace(_ path: String, index: Int) -> Face? {
        var face: FT_Face?
        guard FT_New_Face(library, path, FT_Long(index), &face) == 0, let face else { return nil }
        return Face(face)
    }

    public func glyph(_ scalar: Unicode.Scalar, pixelSize: Int) -> Glyph? {
        let key = Int(scalar.value) << 12 | min(pixelSize, 4095)
        lock.lock()
        defer { lock.unlock() }
        if let cached = cache[key] { return cached }
        let face = faces[0].ft
        let index = FT_Get_Char_Index(face, FT_ULong(scalar.value))
        let g = index == 0 && scalar != " " ? nil : render(face, index: index, pixelSize: pixelSize)
        cache[key] = g
        return g
    }

    public func glyph(id: UInt32, pixelSize: Int) -> Glyph? {
        let key = UInt64(id) << 16 | UInt64(min(pixelSize, 65535))
        lock.lock()
        defer { lock.unlock() }
        if let cached = byID[key] { return cached }
        let font = Int(id >> 16)
        let g = font < faces.count ? render(faces[font].ft, index: FT_UInt(id & 0xFFFF), pixelSize: pixelSize) : nil
        byID[key] = g
        return g
    }

    private func render(_ face: FT_Face, index: FT_UInt, pixelSize: Int) -> Glyph? {
        FT_Set_Pixel_Sizes(face, 0, FT_UInt(max(1, pixelSize)))
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
