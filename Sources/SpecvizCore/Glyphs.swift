/// A rendered glyph: an 8-bit coverage bitmap plus its metrics, in pixels.
public struct Glyph: Sendable {
    public var width: Int
    public var height: Int
    /// Row-major coverage, 0 = empty, 255 = fully covered. `width * height` bytes.
    public var coverage: [UInt8]
    /// Offset from the pen position to the bitmap's top-left corner (x right, y down).
    public var bearing: SIMD2<Int>
    /// How far the pen moves after this glyph (pixels, 26.6 rounded).
    public var advance: Float

    public init(width: Int, height: Int, coverage: [UInt8], bearing: SIMD2<Int>, advance: Float) {
        self.width = width
        self.height = height
        self.coverage = coverage
        self.bearing = bearing
        self.advance = advance
    }
}

/// Supplies glyph bitmaps (FreeType in MediaIO; a fake in tests). Implementations cache.
public protocol GlyphProvider: AnyObject {
    /// The glyph for `scalar` at an em size of `pixelSize`, or nil if the font lacks it.
    func glyph(_ scalar: Unicode.Scalar, pixelSize: Int) -> Glyph?
}

/// One glyph of shaped text, in visual order (left to right).
public struct ShapedGlyph: Equatable, Sendable {
    /// The provider's id for the glyph: `font << 16 | glyph index in that font`.
    public var id: UInt32
    /// How far the pen moves after this glyph (pixels).
    public var advance: Float
    /// Where the glyph sits relative to the pen (pixels; x right, y up).
    public var offset: SIMD2<Float>
    /// Index (in Unicode scalars) of the first character of the text this glyph came from.
    public var cluster: Int

    public init(id: UInt32, advance: Float, offset: SIMD2<Float> = .zero, cluster: Int) {
        self.id = id
        self.advance = advance
        self.offset = offset
        self.cluster = cluster
    }
}

/// A text laid out for drawing: bidi-reordered, shaped glyphs in visual order.
public struct ShapedText: Sendable {
    public var glyphs: [ShapedGlyph]
    /// Sum of the advances (pixels), summed in visual order.
    public var advance: Float

    public init(glyphs: [ShapedGlyph]) {
        self.glyphs = glyphs
        var sum: Float = 0
        for g in glyphs { sum += g.advance }
        advance = sum
    }
}

/// A provider that shapes whole strings (bidi, joining, fallback fonts) rather than
/// mapping one character to one glyph. Implementations cache shaped strings.
public protocol TextShaping: GlyphProvider {
    /// `text` shaped at `pixelSize`; characters that no font has are left out.
    func shape(_ text: String, pixelSize: Int) -> ShapedText
    /// The bitmap of a glyph from `shape` (`ShapedGlyph.id`), or nil if it cannot be drawn.
    func glyph(id: UInt32, pixelSize: Int) -> Glyph?
}
