import CPNG
import SpecvizCore

#if canImport(Glibc)
import Glibc
#endif

/// PNG files through libpng's simplified `png_image` API (status codes, no longjmp).
public enum PNGFile {
    /// Writes `picture` as an 8-bit RGBA PNG. The file appears atomically: it is written
    /// to a temporary name beside `path` and renamed when complete (see `AtomicFile.commit`
    /// for `overwrite`). Encoded in memory first, so a write error has its reason.
    public static func write(_ picture: PixelBuffer, to path: String, overwrite: Bool = true) throws {
        try AtomicFile.write(encode(picture), to: path, overwrite: overwrite)
    }

    /// Encodes `picture` as PNG bytes in memory.
    public static func encode(_ picture: PixelBuffer) throws -> [UInt8] {
        var image = spv_png_image_rgba(UInt32(picture.width), UInt32(picture.height))
        var size: png_alloc_size_t = 0
        _ = picture.pixels.withUnsafeBytes { raw in
            png_image_write_to_memory(&image, nil, &size, 0, raw.baseAddress, Int32(picture.width * 4), nil)
        }
        guard size > 0 else { throw MediaError("PNG encoding failed") }
        var bytes = [UInt8](repeating: 0, count: Int(size))
        let ok = bytes.withUnsafeMutableBytes { out in
            picture.pixels.withUnsafeBytes { raw in
                png_image_write_to_memory(&image, out.baseAddress, &size, 0, raw.baseAddress, Int32(picture.width * 4), nil)
            }
        }
        guard ok != 0 else { throw MediaError("PNG encoding failed") }
        return Array(bytes.prefix(Int(size)))
    }

    /// Reads any PNG as 8-bit RGBA.
    public static func read(_ path: String) throws -> PixelBuffer {
        var image = spv_png_image_empty()
        guard png_image_begin_read_from_file(&image, path) != 0 else {
            throw MediaError("cannot read PNG '\(path)'", path: path)
        }
        image.format = spv_png_format_rgba()
        var picture = PixelBuffer(width: Int(image.width), height: Int(image.height))
        let ok = picture.pixels.withUnsafeMutableBytes { raw in
            png_image_finish_read(&image, nil, raw.baseAddress, Int32(image.width * 4), nil)
        }
        png_image_free(&image)
        guard ok != 0 else { throw MediaError("cannot decode PNG '\(path)'", path: path) }
        return picture
    }
}
