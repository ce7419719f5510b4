/// An 8-bit RGBA picture, row 0 at the top, rows packed (stride = width × 4 bytes).
/// Each pixel is one `UInt32` holding bytes R, G, B, A in memory order
/// (little-endian: `r | g << 8 | b << 16 | a << 24`).
public struct PixelBuffer: Sendable {
    public private(set) var width: Int
    public private(set) var height: Int
    public var pixels: [UInt32]

    public init(width: Int, height: Int, fill: UInt32 = 0xFF00_0000) {
        precondition(width > 0 && height > 0, "empty picture")
        self.width = width
        self.height = height
        self.pixels = [UInt32](repeating: fill, count: width * height)
    }

    /// Resizes, reusing storage when the pixel count is unchanged.
    public mutating func resize(width: Int, height: Int) {
        guard width != self.width || height != self.height else { return }
        self.width = width
        self.height = height
        pixels = [UInt32](repeating: 0xFF00_0000, count: width * height)
    }

    /// The pixel at (x, y) as RGBA bytes.
    public func rgba(x: Int, y: Int) -> SIMD4<UInt8> {
        let p = pixels[y * width + x]
        return SIMD4(
            UInt8(truncatingIfNeeded: p), UInt8(truncatingIfNeeded: p >> 8),
            UInt8(truncatingIfNeeded: p >> 16), UInt8(truncatingIfNeeded: p >> 24))
    }

    /// Packs a colour in 0…1 (clamped) into a pixel.
    @inlinable
    public static func pack(_ c: SIMD4<Float>) -> UInt32 {
        var v = c * 255 + 0.5
        v.replace(with: 0, where: .!(v .>= 0)) // NaN → 0
        v.replace(with: 255, where: v .> 255)
        return UInt32(v.x) | UInt32(v.y) << 8 | UInt32(v.z) << 16 | UInt32(v.w) << 24
    }
}
