import CFFmpeg
import SpecvizCore

/// Measurements of the encoding side, for `specviz bench`: libswscale's RGBA → yuv420p
/// conversion, and x264 alone on already-converted frames (packets discarded).
public final class EncoderBench {
    public let width: Int
    public let height: Int
    private var scaler: OpaquePointer?
    /// Converted frames kept for the x264-alone run.
    private var frames: [UnsafeMutablePointer<AVFrame>?] = []

    public init(width: Int, height: Int) throws {
        _ = quietLibav
        self.width = width
        self.height = height
        scaler = try VideoEncoder.makeScaler(width: width, height: height, to: AV_PIX_FMT_YUV420P)
    }

    deinit {
        sws_freeContext(scaler)
        for i in frames.indices { av_frame_free(&frames[i]) }
    }

    /// Converts `picture` to yuv420p (as the video encoder does) and keeps the result.
    public func convertAndKeep(_ picture: PixelBuffer) throws {
        let f = av_frame_alloc()!
        f.pointee.format = AV_PIX_FMT_YUV420P.rawValue
        f.pointee.width = Int32(width)
        f.pointee.height = Int32(height)
        try avCheck(av_frame_get_buffer(f, 0), "av_frame_get_buffer", "bench")
        convert(picture, into: f)
        frames.append(f)
    }

    /// Converts `picture` into `f` (yuv420p).
    func convert(_ picture: PixelBuffer, into f: UnsafeMutablePointer<AVFrame>) {
        picture.pixels.withUnsafeBytes { raw in
            var src: UnsafePointer<UInt8>? = raw.baseAddress!.assumingMemoryBound(to: UInt8.self)
            var stride = Int32(width * 4)
            _ = sws_scale(scaler, &src, &stride, 0, Int32(height), spv_frame_data_ptr(f), spv_frame_linesize_ptr(f))
        }
    }

    /// Seconds per conversion of `picture`, averaged over `repeats`.
    public func conversionSeconds(_ picture: PixelBuffer, repeats: Int, clock: () -> Double) throws -> Double {
        let f = av_frame_alloc()!
        defer { var p: UnsafeMutablePointer<AVFrame>? = f; av_frame_free(&p) }
        f.pointee.format = AV_PIX_FMT_YUV420P.rawValue
        f.pointee.width = Int32(width)
        f.pointee.height = Int32(height)
        try avCheck(av_frame_get_buffer(f, 0), "av_frame_get_buffer", "bench")
        let start = clock()
        for _ in 0..<repeats { convert(picture, into: f) }
        return (clock() - start) / Double(repeats)
    }

    public var keptFrames: Int { frames.count }

    /// Encodes the kept frames with libx264 (same settings as `VideoEncoder`), discarding the
    /// packets. Returns wall seconds.
    public func encodeKept(fps: Int, preset: X264Preset, crf: Int, clock: () -> Double) throws -> Double {
        guard let codec = avcodec_find_encoder_by_name("libx264") else { throw MediaError("libx264 is not available") }
        var ctx = avcodec_alloc_context3(codec)
        defer { avcodec_free_context(&ctx) }
        guard let c = ctx else { throw MediaError("avcodec_alloc_context3 failed") }
        c.pointee.width = Int32(width)
        c.pointee.height = Int32(height)
        c.pointee.time_base = spv_rational(1, Int32(fps))
        c.pointee.framerate = spv_rational(Int32(fps), 1)
        c.pointee.pix_fmt = AV_PIX_FMT_YUV420P
        c.pointee.gop_size = Int32(fps * 2)
        av_opt_set(c.pointee.priv_data, "preset", preset.rawValue, 0)
        av_opt_set(c.pointee.priv_data, "crf", String(crf), 0)
        try avCheck(avcodec_open2(c, codec, nil), "avcodec_open2(libx264)", "bench")
        var pkt = av_packet_alloc()
        defer { av_packet_free(&pkt) }
        let start = clock()
        func drain() throws {
            while true {
                let r = avcodec_receive_packet(c, pkt)
                if r == spv_eagain() || r == spv_averror_eof() { return }
                try avCheck(r, "avcodec_receive_packet", "bench")
                av_packet_unref(pkt)
            }
        }
        for (i, f) in frames.enumerated() {
            f!.pointee.pts = Int64(i)
            try avCheck(avcodec_send_frame(c, f), "avcodec_send_frame", "bench")
            try drain()
        }
        try avCheck(avcodec_send_frame(c, nil), "avcodec_send_frame", "bench")
        try drain()
        return clock() - start
    }
}
