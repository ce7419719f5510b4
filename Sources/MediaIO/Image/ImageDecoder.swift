import CFFmpeg
import Foundation
import SpecvizCore

/// Still images (PNG, JPEG, WebP) decoded with libavcodec and converted to RGBA with
/// libswscale: cover art embedded in audio files, and the pictures `--cover`, `--logo` and
/// `--background` name. The bytes are read by us and handed to the decoder as one packet,
/// so no demuxer runs and nothing but the named file is ever opened.
public enum ImageDecoder {
    /// Largest accepted file (bytes) and picture: a cover or a logo, not a poster. The one
    /// cap on pictures (`--cover`, `--logo`, `--background` and pictures embedded in inputs):
    /// 16 megapixels (4096×4096), checked on the size the header declares before anything
    /// is decoded, and set as libavcodec's `max_pixels` on every decoder that could decode
    /// a picture (here and in the probe of an input's streams).
    public static let maxBytes = 64 << 20
    public static let maxPixels = 16 << 20
    /// The cap as users read it.
    public static let capText = "16 megapixels (e.g. 4096×4096)"

    /// Reads and decodes the picture at `path`.
    public static func read(_ path: String) throws -> PixelBuffer {
        guard let handle = FileHandle(forReadingAtPath: path) else {
            throw MediaError("cannot open image '\(path)'", path: path)
        }
        defer { try? handle.close() }
        let data: Data
        do { data = try handle.read(upToCount: maxBytes + 1) ?? Data() } catch {
            throw MediaError("cannot read image '\(path)'", path: path)
        }
        guard data.count <= maxBytes else { throw MediaError("image '\(path)' is larger than \(maxBytes >> 20) MB") }
        return try decode([UInt8](data), name: "image '\(path)'")
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
    public static func decode(_ bytes: [UInt8], name: String) throws -> PixelBuffer {
        _ = quietLibav
        guard let id = codec(of: bytes) else { throw MediaError("\(name) is not a PNG, JPEG or WebP picture") }
        guard let header = ImageHeader(bytes) else { throw MediaError("\(name): its header does not give a picture size (damaged or cut short)") }
        guard header.width > 0, header.height > 0 else { throw MediaError("\(name): \(header.width)x\(header.height) is not a usable picture size") }
        guard header.width * header.height <= maxPixels else {
            throw MediaError("\(name) is \(header.width)x\(header.height): larger than the \(capText) a picture may have")
        }
        guard let decoder = avcodec_find_decoder(id) else { throw MediaError("\(name): no decoder for it in this FFmpeg") }
        var ctx = avcodec_alloc_context3(decoder)
        var packet = av_packet_alloc()
        var frame = av_frame_alloc()
        defer { avcodec_free_context(&ctx); av_packet_free(&packet); av_frame_free(&frame) }
        guard let ctx, let packet, let frame else { throw MediaError("\(name): out of memory") }
        // A later frame or segment that claims more than its header is refused by the decoder.
        ctx.pointee.max_pixels = Int64(maxPixels)
        ctx.pointee.thread_count = 1
        try avCheck(avcodec_open2(ctx, decoder, nil), "avcodec_open2", name)
        // The packet owns a padded copy of the bytes (decoders may read past the end).
        try avCheck(av_new_packet(packet, Int32(bytes.count)), "av_new_packet", name)
        bytes.withUnsafeBytes { src in packet.pointee.data.update(from: src.bindMemory(to: UInt8.self).baseAddress!, count: bytes.count) }
        try avCheck(avcodec_send_packet(ctx, packet), "avcodec_send_packet", name)
        _ = avcodec_send_packet(ctx, nil)
        try avCheck(avcodec_receive_frame(ctx, frame), "avcodec_receive_frame", name)
        let w = Int(frame.pointee.width), h = Int(frame.pointee.height)
        guard w > 0, h > 0, w * h <= maxPixels else {
            throw MediaError("\(name): \(w)x\(h) is not a usable picture size (at most \(capText))")
        }
        return try toRGBA(frame, width: w, height: h, name: name)
    }

    /// Converts a decoded frame to straight-alpha RGBA (opaque when the source has no alpha).
    private static func toRGBA(_ frame: UnsafeMutablePointer<AVFrame>, width w: Int, height h: Int, name: String) throws -> PixelBuffer {
        let format = AVPixelFormat(rawValue: frame.pointee.format)
        guard
            let sws = sws_getContext(
                Int32(w), Int32(h), format, Int32(w), Int32(h), AV_PIX_FMT_RGBA,
                Int32(SWS_BICUBIC | SWS_ACCURATE_RND | SWS_FULL_CHR_H_INT), nil, nil, nil)
        else {
            throw MediaError("\(name): cannot convert its pixel format to RGBA")
        }
        defer { sws_freeContext(sws) }
        var picture = PixelBuffer(width: w, height: h)
        let done = picture.pixels.withUnsafeMutableBytes { dst -> Int32 in
            var planes: [UnsafeMutablePointer<UInt8>?] = [dst.baseAddress!.assumingMemoryBound(to: UInt8.self), nil, nil, nil]
            var strides: [Int32] = [Int32(w * 4), 0, 0, 0]
            return sws_scale(sws, spv_frame_data_cptr(frame), spv_frame_linesize_ptr(frame), 0, Int32(h), &planes, &strides)
        }
        guard done == Int32(h) else { throw MediaError("\(name): sws_scale failed") }
        return picture
    }
}
