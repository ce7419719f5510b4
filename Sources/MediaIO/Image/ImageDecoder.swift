import CFFmpeg
import Foundation
import SpecvizCore

/// Still images (PNG, JPEG, WebP) decoded with libavcodec and converted to RGBA with
/// libswscale: cover art embedded in audio files, and the pictures `--cover`, `--logo` and
/// `--background` name. The bytes are read by us and handed to the decoder as one packet,
/// so no demuxer runs and nothing but the named file is ever opened.
public enum ImageDecoder {
    /// The caps on every picture (`--cover`, `--logo`, `--background` and pictures embedded
    /// in inputs): a file of at most `maxBytes`; at most `maxPixels` with each row counted
    /// as a multiple of 64 pixels (libavcodec aligns rows so); at most `maxDecodedBytes`
    /// once decoded, estimated from the header (bit depth, channels, progressive JPEG
    /// coefficients). All are checked on the size the header declares, before any decode;
    /// `max_pixels` is set on every libavcodec context that could decode a picture (here,
    /// and in the probe of an input's streams, which opens no picture decoder at all).
    public static let maxBytes = 16 << 20
    public static let maxPixels = 16 << 20
    public static let maxDecodedBytes = 48 << 20
    /// The caps as users read them.
    public static let capText = "16 megapixels (e.g. 4096×4096) and 48 MB decoded"

    /// Reads and decodes the picture at `path`; with `fitting`, scaled down (never up) while
    /// converting, to the smallest size that still fills a `fitting` frame, so what is kept
    /// is about the size of a frame, whatever the picture's.
    public static func read(_ path: String, fitting: (width: Int, height: Int)? = nil) throws -> PixelBuffer {
        guard let handle = FileHandle(forReadingAtPath: path) else {
            throw MediaError("cannot open image '\(path)'", path: path)
        }
        defer { try? handle.close() }
        let data: Data
        do { data = try handle.read(upToCount: maxBytes + 1) ?? Data() } catch {
            throw MediaError("cannot read image '\(path)'", path: path)
        }
        guard data.count <= maxBytes else { throw MediaError("image '\(path)' is larger than \(maxBytes >> 20) MB") }
        return try decode([UInt8](data), name: "image '\(path)'", fitting: fitting)
    }

    /// Throws unless the size `header` declares is within the caps.
    static func check(_ header: ImageHeader, name: String) throws {
        guard header.width > 0, header.height > 0, header.width < 1 << 24, header.height < 1 << 24 else {
            throw MediaError("\(name): \(header.width)x\(header.height) is not a usable picture size")
        }
        let rowPixels = (header.width + 63) / 64 * 64
        let decoded = Double(rowPixels) * Double(header.height) * header.bytesPerPixel
        guard rowPixels * header.height <= maxPixels, decoded <= Double(maxDecodedBytes) else {
            throw MediaError(
                "\(name) is \(header.width)x\(header.height): larger than a picture may be (at most \(capText))")
        }
        guard av_image_check_size(UInt32(header.width), UInt32(header.height), 0, nil) >= 0 else {
            throw MediaError("\(name) is \(header.width)x\(header.height): too wide or too tall a picture to decode")
        }
    }

    /// The codec of an image by its first bytes, or nil for an unknown kind.
    static func codec(of bytes: [UInt8]) -> AVCodecID? {
        if bytes.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) { return AV_CODEC_ID_PNG }
        if bytes.starts(with: [0xFF, 0xD8, 0xFF]) { return AV_CODEC_ID_MJPEG }
        if bytes.count >= 12, bytes.starts(with: Array("RIFF".utf8)), Array(bytes[8..<12]) == Array("WEBP".utf8) {
            return AV_CODEC_ID_WEBP
        }
        return nil
    }

    /// Decodes one encoded picture. `name` is used in messages ("image 'x.png'").
    public static func decode(_ bytes: [UInt8], name: String, fitting: (width: Int, height: Int)? = nil) throws -> PixelBuffer {
        _ = quietLibav
        guard let id = codec(of: bytes) else { throw MediaError("\(name) is not a PNG, JPEG or WebP picture") }
        guard let header = ImageHeader(bytes) else {
            throw MediaError("\(name): its header does not give a picture size (damaged or cut short)")
        }
        try check(header, name: name)
        guard let decoder = avcodec_find_decoder(id) else { throw MediaError("\(name): no decoder for it in this FFmpeg") }
        var ctx = avcodec_alloc_context3(decoder)
        var packet = av_packet_alloc()
        var frame = av_frame_alloc()
        defer { avcodec_free_context(&ctx); av_packet_free(&packet); av_frame_free(&frame) }
        guard let ctx, let packet, let frame else { throw MediaError("\(name): out of memory") }
        // A later frame or segment that claims more than its header is refused by the decoder.
        ctx.pointee.max_pixels = Int64((header.width + 63) / 64 * 64 * header.height)
        ctx.pointee.thread_count = 1
        try avCheck(avcodec_open2(ctx, decoder, nil), "avcodec_open2", name)
        // The packet owns a padded copy of the bytes (decoders may read past the end).
        try avCheck(av_new_packet(packet, Int32(bytes.count)), "av_new_packet", name)
        bytes.withUnsafeBytes { src in packet.pointee.data.update(from: src.bindMemory(to: UInt8.self).baseAddress!, count: bytes.count) }
        try avCheck(avcodec_send_packet(ctx, packet), "avcodec_send_packet", name)
        _ = avcodec_send_packet(ctx, nil)
        try avCheck(avcodec_receive_frame(ctx, frame), "avcodec_receive_frame", name)
        let w = Int(frame.pointee.width), h = Int(frame.pointee.height)
        guard w > 0, h > 0, w <= header.width, h <= header.height else {
            throw MediaError("\(name): \(w)x\(h) does not match the size its header declares")
        }
        return try toRGBA(frame, width: w, height: h, size: scaledSize(w, h, fitting: fitting), name: name)
    }

    /// `w`×`h` scaled down (never up) to the smallest size that still covers
    /// `fitting` (what filling a frame of that size needs; fitting in it needs less).
    static func scaledSize(_ w: Int, _ h: Int, fitting: (width: Int, height: Int)?) -> (Int, Int) {
        guard let fitting, fitting.width > 0, fitting.height > 0 else { return (w, h) }
        let s = max(Double(fitting.width) / Double(w), Double(fitting.height) / Double(h))
        guard s < 1 else { return (w, h) }
        return (max(1, Int((Double(w) * s).rounded(.up))), max(1, Int((Double(h) * s).rounded(.up))))
    }

    /// Converts a decoded frame to straight-alpha RGBA at `size` (opaque when the source
    /// has no alpha), in one libswscale pass: no full-size RGBA copy of a large picture.
    private static func toRGBA(
        _ frame: UnsafeMutablePointer<AVFrame>, width w: Int, height h: Int, size: (Int, Int), name: String
    ) throws -> PixelBuffer {
        let (tw, th) = size
        let format = AVPixelFormat(rawValue: frame.pointee.format)
        guard
            let sws = sws_getContext(
                Int32(w), Int32(h), format, Int32(tw), Int32(th), AV_PIX_FMT_RGBA,
                Int32(SWS_BICUBIC | SWS_ACCURATE_RND | SWS_FULL_CHR_H_INT), nil, nil, nil)
        else {
            throw MediaError("\(name): cannot convert its pixel format to RGBA")
        }
        defer { sws_freeContext(sws) }
        var picture = PixelBuffer(width: tw, height: th)
        let done = picture.pixels.withUnsafeMutableBytes { dst -> Int32 in
            var planes: [UnsafeMutablePointer<UInt8>?] = [dst.baseAddress!.assumingMemoryBound(to: UInt8.self), nil, nil, nil]
            var strides: [Int32] = [Int32(tw * 4), 0, 0, 0]
            return sws_scale(sws, spv_frame_data_cptr(frame), spv_frame_linesize_ptr(frame), 0, Int32(h), &planes, &strides)
        }
        guard done == Int32(th) else { throw MediaError("\(name): sws_scale failed") }
        return picture
    }
}
