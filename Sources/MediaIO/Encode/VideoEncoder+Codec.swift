import CFFmpeg
import SpecvizCore

/// The video codec of `VideoEncoder`: which encoder and pixel format the container takes,
/// and the encoder's settings.
extension VideoEncoder {
    /// The ProRes 4444 quantiser (`--transparent` .mov): 1 (finest) … 31.
    static let proresQuantiser: Int32 = 2

    /// x264 when the container's default is H.264, else the container's default; with
    /// alpha, ProRes 4444 (.mov) or VP9 with an alpha plane (.webm). GIF takes its palette
    /// format.
    func chooseCodec(for oc: UnsafeMutablePointer<AVFormatContext>) throws -> (UnsafePointer<AVCodec>, AVPixelFormat) {
        let ofmt = oc.pointee.oformat!
        let container = String(cString: ofmt.pointee.name)
        var codec: UnsafePointer<AVCodec>? = nil
        var pixFmt = AV_PIX_FMT_YUV420P
        if options.alpha {
            if container.contains("webm") {
                codec = avcodec_find_encoder_by_name("libvpx-vp9")
                pixFmt = AV_PIX_FMT_YUVA420P
            } else if container.contains("mov") && !path.lowercased().hasSuffix(".mp4") {
                codec = avcodec_find_encoder_by_name("prores_ks")
                pixFmt = AV_PIX_FMT_YUVA444P10LE
            } else {
                throw MediaError(
                    "cannot write '\(path)' with --transparent: its container has no alpha video (use .mov for ProRes 4444, .webm for VP9, or PNG)", path: path)
            }
            guard codec != nil else { throw MediaError("cannot write '\(path)': this FFmpeg has no encoder for alpha video in it", path: path) }
        } else {
            if ofmt.pointee.video_codec == AV_CODEC_ID_H264 { codec = avcodec_find_encoder_by_name("libx264") }
            if codec == nil { codec = avcodec_find_encoder(ofmt.pointee.video_codec) }
        }
        guard let codec, ofmt.pointee.video_codec != AV_CODEC_ID_NONE else {
            throw MediaError("cannot write '\(path)': no video encoder for this container", path: path)
        }
        if codec.pointee.id == AV_CODEC_ID_GIF { pixFmt = AV_PIX_FMT_RGB8 }
        return (codec, pixFmt)
    }

    /// Opens `codec` for this video: size, rate, pixel format, BT.709 limited-range colour
    /// tags (not for GIF), and the encoder's own options (x264 preset and CRF; VP9 realtime;
    /// ProRes 4444 with 16-bit alpha at a fixed quantiser).
    func openCodec(
        _ codec: UnsafePointer<AVCodec>, pixFmt: AVPixelFormat, format oc: UnsafeMutablePointer<AVFormatContext>
    ) throws -> UnsafeMutablePointer<AVCodecContext> {
        let ctx = avcodec_alloc_context3(codec)!
        video = ctx
        let isGIF = codec.pointee.id == AV_CODEC_ID_GIF
        ctx.pointee.width = Int32(options.width)
        ctx.pointee.height = Int32(options.height)
        ctx.pointee.time_base = spv_rational(1, Int32(options.fps))
        ctx.pointee.framerate = spv_rational(Int32(options.fps), 1)
        ctx.pointee.pix_fmt = pixFmt
        ctx.pointee.gop_size = Int32(options.fps * 2)
        if !isGIF {
            ctx.pointee.colorspace = AVCOL_SPC_BT709
            ctx.pointee.color_primaries = AVCOL_PRI_BT709
            ctx.pointee.color_trc = AVCOL_TRC_BT709
            ctx.pointee.color_range = AVCOL_RANGE_MPEG
        }
        if spv_fmt_needs_global_header(oc) != 0 { ctx.pointee.flags |= Int32(AV_CODEC_FLAG_GLOBAL_HEADER) }
        let codecName = String(cString: codec.pointee.name)
        // A fixed thread count (not 0, "one per core"), so the bytes do not depend on the machine.
        ctx.pointee.thread_count = Int32(options.threads > 0 ? options.threads : Options.fixedThreads)
        if codecName == "libx264" {
            // Frame threads only: sliced threads would split each frame by the thread count too.
            ctx.pointee.thread_type = FF_THREAD_FRAME
            av_opt_set(ctx.pointee.priv_data, "x264-params", "sliced-threads=0:deterministic=1", 0)
            av_opt_set(ctx.pointee.priv_data, "preset", options.preset.rawValue, 0)
            av_opt_set(ctx.pointee.priv_data, "crf", String(options.crf), 0)
        } else if codecName == "libvpx-vp9" || codecName == "libvpx" {
            av_opt_set(ctx.pointee.priv_data, "deadline", "realtime", 0)
            av_opt_set(ctx.pointee.priv_data, "cpu-used", "8", 0)
            av_opt_set(ctx.pointee.priv_data, "crf", "32", 0)
            ctx.pointee.bit_rate = 0
        } else if codecName == "prores_ks" {
            av_opt_set(ctx.pointee.priv_data, "profile", "4444", 0)
            av_opt_set(ctx.pointee.priv_data, "alpha_bits", "16", 0)
            // A fixed quantiser instead of the per-slice search for a bit budget, which
            // cost 6× the encode time (3 s of 1080p60: 49 s, now about 2× the opaque MP4;
            // docs/PERFORMANCE.md). q 2 of 1…31 is near lossless and needs no rate control.
            ctx.pointee.flags |= Int32(AV_CODEC_FLAG_QSCALE)
            ctx.pointee.global_quality = VideoEncoder.proresQuantiser * Int32(FF_QP2LAMBDA)
        }
        try avCheck(avcodec_open2(ctx, codec, nil), "avcodec_open2(\(codecName))", "cannot write '\(path)'", path: path)
        return ctx
    }
}
