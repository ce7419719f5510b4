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
