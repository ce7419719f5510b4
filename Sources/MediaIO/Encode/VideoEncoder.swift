import CFFmpeg
import SpecvizCore

/// Writes rendered frames as a video (H.264 yuv420p in MP4/MOV/MKV, VP9 in WebM, GIF),
/// converting RGBA → YUV with libswscale (BT.709, limited range), and muxes the sound of
/// the input file (re-encoded: AAC, or Opus/Vorbis for WebM) over the same time span,
/// so picture and sound stay in sync. The container follows the output's extension.
///
/// The file is written under a temporary name and renamed by `finish`; `cancel` removes it.
public final class VideoEncoder: FrameSink {
    public struct Options: Sendable {
        public var width: Int
        public var height: Int
        public var fps: Int
        /// x264 preset (speed/size trade-off) and constant rate factor.
        public var preset: String = "veryfast"
        public var crf: Int = 20
        /// Input whose audio is muxed (nil: silent video).
        public var audioPath: String?
        /// Audio span in seconds (start, optional end), matching the rendered frames.
        public var audioStart: Double = 0
        public var audioEnd: Double?
        public init(width: Int, height: Int, fps: Int) {
            self.width = width; self.height = height; self.fps = fps
        }
    }

    public let path: String
    let temp: String
    let options: Options
    var format: UnsafeMutablePointer<AVFormatContext>?
    var video: UnsafeMutablePointer<AVCodecContext>?
    var videoStream: UnsafeMutablePointer<AVStream>?
    var scaler: OpaquePointer?
    var yuv: UnsafeMutablePointer<AVFrame>?
    var packet: UnsafeMutablePointer<AVPacket>?
    var audio: AudioTrackEncoder?
    var headerWritten = false
    var finished = false
    var framesWritten = 0

    public init(path: String, options: Options) throws {
        _ = quietLibav
        self.path = path
        self.options = options
        temp = AtomicFile.temporaryPath(for: path)
        guard options.width > 0, options.height > 0, options.fps > 0 else { throw MediaError("bad video size or frame rate") }
        do {
            try open()
        } catch {
            cancel()
            throw error
        }
    }

    deinit { release() }

    private func open() throws {
        var oc: UnsafeMutablePointer<AVFormatContext>? = nil
        let r = avformat_alloc_output_context2(&oc, nil, nil, temp)
        guard r >= 0, let oc else {
            throw MediaError("cannot write '\(path)': no container for its extension (try .mp4, .mkv, .mov, .webm, .gif)")
        }
        format = oc
        let ofmt = oc.pointee.oformat!
        // Video codec: x264 when the container's default is H.264, else the container's default.
        var codec: UnsafePointer<AVCodec>? = nil
        if ofmt.pointee.video_codec == AV_CODEC_ID_H264 { codec = avcodec_find_encoder_by_name("libx264") }
        if codec == nil { codec = avcodec_find_encoder(ofmt.pointee.video_codec) }
        guard let codec, ofmt.pointee.video_codec != AV_CODEC_ID_NONE else {
            throw MediaError("cannot write '\(path)': no video encoder for this container")
        }
        let ctx = avcodec_alloc_context3(codec)!
        video = ctx
        let isGIF = codec.pointee.id == AV_CODEC_ID_GIF
        let pixFmt: AVPixelFormat = isGIF ? AV_PIX_FMT_RGB8 : AV_PIX_FMT_YUV420P
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
        if codecName == "libx264" {
            av_opt_set(ctx.pointee.priv_data, "preset", options.preset, 0)
            av_opt_set(ctx.pointee.priv_data, "crf", String(options.crf), 0)
        } else if codecName == "libvpx-vp9" || codecName == "libvpx" {
            av_opt_set(ctx.pointee.priv_data, "deadline", "realtime", 0)
            av_opt_set(ctx.pointee.priv_data, "cpu-used", "8", 0)
            av_opt_set(ctx.pointee.priv_data, "crf", "32", 0)
            ctx.pointee.bit_rate = 0
        }
        try avCheck(avcodec_open2(ctx, codec, nil), "avcodec_open2(\(codecName))", "cannot write '\(path)'")
        let stream = avformat_new_stream(oc, nil)!
        videoStream = stream
        try avCheck(avcodec_parameters_from_context(stream.pointee.codecpar, ctx), "avcodec_parameters_from_context", path)
        stream.pointee.time_base = ctx.pointee.time_base
        stream.pointee.avg_frame_rate = ctx.pointee.framerate

        // Sound.
        if let audioPath = options.audioPath, ofmt.pointee.audio_codec != AV_CODEC_ID_NONE {
            audio = try AudioTrackEncoder(input: audioPath, format: oc, start: options.audioStart, end: options.audioEnd)
        }

        // Scaler RGBA → pixFmt, full-range RGB to limited-range BT.709.
        scaler = sws_getContext(Int32(options.width), Int32(options.height), AV_PIX_FMT_RGBA,
                                Int32(options.width), Int32(options.height), pixFmt, SWS_POINT, nil, nil, nil)
        guard scaler != nil else { throw MediaError("sws_getContext failed for \(options.width)x\(options.height)") }
        if !isGIF {
            let coeffs = sws_getCoefficients(SWS_CS_ITU709)
            sws_setColorspaceDetails(scaler, coeffs, 1, coeffs, 0, 0, 1 << 16, 1 << 16)
        }
        let f = av_frame_alloc()!
        yuv = f
        f.pointee.format = pixFmt.rawValue
        f.pointee.width = Int32(options.width)
        f.pointee.height = Int32(options.height)
        try avCheck(av_frame_get_buffer(f, 0), "av_frame_get_buffer", path)
        packet = av_packet_alloc()

        if spv_fmt_has_nofile(oc) == 0 {
            try avCheck(avio_open(&oc.pointee.pb, temp, AVIO_FLAG_WRITE), "avio_open", "cannot write '\(path)'")
        }
        var opts: OpaquePointer? = nil
        if ofmt.pointee.name.map({ String(cString: $0) })?.contains("mp4") == true
            || ofmt.pointee.name.map({ String(cString: $0) })?.contains("mov") == true {
            av_dict_set(&opts, "movflags", "+faststart", 0)
        }
        let h = avformat_write_header(oc, &opts)
        av_dict_free(&opts)
        try avCheck(h, "avformat_write_header", "cannot write '\(path)'")
        headerWritten = true
    }

    /// Encodes one frame (frames must arrive in order, all of the configured size).
    public func write(_ frame: PixelBuffer, index: Int) throws {
        guard frame.width == options.width, frame.height == options.height else {
            throw MediaError("frame size \(frame.width)x\(frame.height) differs from the video's")
        }
        guard let f = yuv, let ctx = video else { throw MediaError("encoder is closed") }
        try avCheck(av_frame_make_writable(f), "av_frame_make_writable", path)
        frame.pixels.withUnsafeBytes { raw in
            var src: UnsafePointer<UInt8>? = raw.baseAddress!.assumingMemoryBound(to: UInt8.self)
            var stride = Int32(frame.width * 4)
            _ = sws_scale(scaler, &src, &stride, 0, Int32(frame.height), spv_frame_data_ptr(f), spv_frame_linesize_ptr(f))
        }
        f.pointee.pts = Int64(framesWritten)
        framesWritten += 1
        try avCheck(avcodec_send_frame(ctx, f), "avcodec_send_frame", path)
        try drainVideo()
        // Keep sound interleaved with picture: encode audio up to the current video time.
        try audio?.encode(until: Double(framesWritten) / Double(options.fps), packet: packet!)
    }

    private func drainVideo() throws {
        guard let ctx = video, let oc = format, let pkt = packet, let stream = videoStream else { return }
        while true {
            let r = avcodec_receive_packet(ctx, pkt)
            if r == spv_eagain() || r == spv_averror_eof() { return }
            try avCheck(r, "avcodec_receive_packet", path)
            av_packet_rescale_ts(pkt, ctx.pointee.time_base, stream.pointee.time_base)
            pkt.pointee.stream_index = stream.pointee.index
            try avCheck(av_interleaved_write_frame(oc, pkt), "av_interleaved_write_frame", "cannot write '\(path)'")
        }
    }

    /// Flushes the encoders, writes the trailer and moves the file into place.
    public func finish() throws {
        guard !finished else { return }
        do {
            guard let ctx = video, let oc = format else { throw MediaError("encoder is closed") }
            try avCheck(avcodec_send_frame(ctx, nil), "avcodec_send_frame", path)
            try drainVideo()
            try audio?.encode(until: Double(framesWritten) / Double(options.fps), packet: packet!)
            try audio?.flush(packet: packet!)
            try avCheck(av_write_trailer(oc), "av_write_trailer", "cannot write '\(path)'")
            if spv_fmt_has_nofile(oc) == 0 { avio_closep(&oc.pointee.pb) }
            finished = true
            release()
            try AtomicFile.commit(temp, to: path)
        } catch {
            cancel()
            throw error
        }
    }

    /// Abandons the output: nothing is left at `path` or the temporary name.
    public func cancel() {
        if let oc = format, spv_fmt_has_nofile(oc) == 0, oc.pointee.pb != nil { avio_closep(&oc.pointee.pb) }
        finished = true
        release()
        AtomicFile.discard(temp)
    }

    private func release() {
        audio = nil
        if scaler != nil { sws_freeContext(scaler); scaler = nil }
        if yuv != nil { av_frame_free(&yuv) }
        if packet != nil { av_packet_free(&packet) }
        if video != nil { avcodec_free_context(&video) }
        if let oc = format {
            if spv_fmt_has_nofile(oc) == 0, oc.pointee.pb != nil { avio_closep(&oc.pointee.pb) }
            avformat_free_context(oc)
            format = nil
        }
    }
}
