/// The memory layout of a framebuffer: size, line stride and where each colour channel
/// sits inside a pixel (the `fb_var_screeninfo` bitfields of `<linux/fb.h>`).
public struct FramebufferFormat: Equatable, Sendable {
    /// Visible size (pixels).
    public var width: Int
    public var height: Int
    /// 16, 24 or 32 bits per pixel.
    public var bitsPerPixel: Int
    /// Bytes from one row to the next (`line_length`).
    public var stride: Int
    /// Bit offset and length of red, green and blue inside a pixel (little-endian value).
    public var red: (offset: Int, length: Int)
    public var green: (offset: Int, length: Int)
    public var blue: (offset: Int, length: Int)

    /// The usual layout for a depth: 32 = XRGB8888 (bytes B, G, R, X), 24 = BGR888,
    /// 16 = RGB565. Used for plain files standing in for a device.
    public init(width: Int, height: Int, bitsPerPixel: Int) throws {
        guard width > 0, height > 0, width <= 16384, height <= 16384 else {
            throw MediaError("framebuffer size \(width)x\(height) is out of range")
        }
        self.width = width
        self.height = height
        self.bitsPerPixel = bitsPerPixel
        switch bitsPerPixel {
        case 32, 24:
            red = (16, 8); green = (8, 8); blue = (0, 8)
        case 16:
            red = (11, 5); green = (5, 6); blue = (0, 5)
        default:
            throw MediaError("framebuffer depth \(bitsPerPixel) bpp is not supported (16, 24 or 32)")
        }
        stride = width * bitsPerPixel / 8
    }

    /// Bytes per pixel.
    public var bytesPerPixel: Int { bitsPerPixel / 8 }

    public static func == (a: Self, b: Self) -> Bool {
        a.width == b.width && a.height == b.height && a.bitsPerPixel == b.bitsPerPixel && a.stride == b.stride
            && a.red == b.red && a.green == b.green && a.blue == b.blue
    }

    /// Packs an RGBA `PixelBuffer` pixel (`r | g << 8 | b << 16`) into this format's value.
    @inlinable
    public func encode(_ p: UInt32) -> UInt32 {
        let r = p & 0xFF, g = (p >> 8) & 0xFF, b = (p >> 16) & 0xFF
        return (r >> UInt32(8 - red.length)) << UInt32(red.offset)
            | (g >> UInt32(8 - green.length)) << UInt32(green.offset)
            | (b >> UInt32(8 - blue.length)) << UInt32(blue.offset)
            | (bitsPerPixel == 32
                ? 0xFF00_0000 & ~(0xFF << UInt32(red.offset)) & ~(0xFF << UInt32(green.offset))
                    & ~(0xFF << UInt32(blue.offset)) : 0)
    }

    /// Unpacks a pixel value back to RGBA (opaque), widening short channels by bit
    /// replication. The inverse of `encode` for 24/32 bpp; 16 bpp loses the low bits.
    public func decode(_ v: UInt32) -> UInt32 {
        func channel(_ f: (offset: Int, length: Int)) -> UInt32 {
            let x = (v >> UInt32(f.offset)) & ((1 << UInt32(f.length)) - 1)
            return f.length >= 8 ? x : (x << UInt32(8 - f.length)) | (x >> UInt32(2 * f.length - 8))
        }
        return channel(red) | channel(green) << 8 | channel(blue) << 16 | 0xFF00_0000
    }
}
