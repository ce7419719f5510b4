import CFFmpeg
import Foundation
import SpecvizCore

/// Writes rendered frames as a video (H.264 yuv420p in MP4/MOV/MKV, VP9 in WebM, GIF),
/// converting RGBA → YUV with libswscale (BT.709, limited range), and muxes the sound of
/// the input file (re-encoded: AAC, or Opus/Vorbis for WebM) over the same time span,
/// so picture and sound stay in sync. The container follows the output's extension.
///
/// The file is written under a temporary name and renamed by `finish`; `cancel` removes it.
///
/// Two stages overlap: `write` converts on the caller's thread into one of three pooled
/// frames, and an encoder thread feeds them to x264 (which has its own threads) and the
/// muxer, encoding the sound alongside. So the colour conversion never holds up x264.
/// Told which rows changed (`write(_:index:changed:)`), `write` converts only the bands
/// that changed since the pooled frame's last picture: most frames of the 3D modes change
/// in the waveform strip and the overlays alone.
public final class VideoEncoder: FrameSink {
    /// A pooled YUV frame passed between the two stages, and the index of the frame it
    /// holds (-1: none yet).
    struct Slot: @unchecked Sendable {
        let frame: UnsafeMutablePointer<AVFrame>
        var holds = -1
    }
    static let poolSize = 3

    public struct Options: @unchecked Sendable {
        public var width: Int
        public var height: Int
        public var fps: Int
        /// x264 preset (speed/size trade-off) and constant rate factor.
        public var preset: X264Preset = .veryfast
        public var crf: Int = 20
        /// Encoder threads (0: the encoder's own choice, for x264 about 1.5 per core).
        public var threads: Int = 0
        /// Sound to mux, read from the render's start (nil: silent video); e.g. an
        /// `AudioTee`'s track side, so the input is read once.
        public var audio: AudioTrackSource?
        /// The input's name, for messages.
        public var audioName = "audio"
        /// Seconds of sound to mux at most (nil: until the source ends).
        public var audioDuration: Double?
        /// Keep the frames' alpha (`--transparent`): ProRes 4444 in `.mov`, VP9 with alpha in
        /// `.webm`; other containers are an error.
        public var alpha = false
        /// Replace an existing file at the path (otherwise the final name is created
        /// exclusively, so two renders to one path cannot silently replace each other).
        public var overwrite = false
        /// With `render --segment`: what the part is (see `SegmentStamp`), for `join`.
        public var segmentStamp: SegmentStamp?
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
    /// Converts rows that changed (yuv420p only): bands of `bandRows` rows, and the last
    /// band when it is shorter.
    var bandScaler: OpaquePointer?
    var lastBandScaler: OpaquePointer?
    var pixFmt = AV_PIX_FMT_YUV420P
    /// The changed rows of the frames written before the one being written.
    var changes = ChangeHistory(keeping: VideoEncoder.poolSize + 1)
    /// The pooled frame holding the last frame written (nil: none). The encoder thread only
    /// reads it, and it comes back to `write` only after this one has been filled.
    var lastFrame: UnsafeMutablePointer<AVFrame>?
    /// What each band of the frame being written needs (`BandWork`), reused.
    var bandWork: [BandWork] = []
    enum BandWork: UInt8 { case keep, copy, convert }
    var frames: [UnsafeMutablePointer<AVFrame>] = []
    let free = BlockingQueue<Slot>(capacity: VideoEncoder.poolSize)
    let work = BlockingQueue<Slot?>(capacity: VideoEncoder.poolSize)
    var encoderThread: Thread?
    let encoderDone = DispatchSemaphore(value: 0)
    /// The encoder thread's first error (read by `write` and `finish`).
    let failure = Locked<Error?>(nil)
    /// Frames the encoder thread has sent to x264.
    var framesEncoded = 0
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
        let r = avformat_alloc_output_context2(&oc, nil, nil, OutputTarget.formatName(temp, fallback: "mkv"))
        guard r >= 0, let oc else {
            throw MediaError("cannot write '\(path)': no container for its extension (try .mp4, .mkv, .mov, .webm, .gif)", path: path)
        }
        format = oc
        let ofmt = oc.pointee.oformat!
        // Video codec: x264 when the container's default is H.264, else the container's default;
        // with alpha, ProRes 4444 (.mov) or VP9 with an alpha plane (.webm).
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
        let ctx = avcodec_alloc_context3(codec)!
        video = ctx
        let isGIF = codec.pointee.id == AV_CODEC_ID_GIF
        if isGIF { pixFmt = AV_PIX_FMT_RGB8 }
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
        if options.threads > 0 { ctx.pointee.thread_count = Int32(options.threads) }
        if codecName == "libx264" {
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
        }
        try avCheck(avcodec_open2(ctx, codec, nil), "avcodec_open2(\(codecName))", "cannot write '\(path)'", path: path)
        let stream = avformat_new_stream(oc, nil)!
        videoStream = stream
        try avCheck(avcodec_parameters_from_context(stream.pointee.codecpar, ctx), "avcodec_parameters_from_context", path, path: path)
        stream.pointee.time_base = ctx.pointee.time_base
        stream.pointee.avg_frame_rate = ctx.pointee.framerate

        // Sound.
        if let source = options.audio, ofmt.pointee.audio_codec != AV_CODEC_ID_NONE {
            audio = try AudioTrackEncoder(source: source, name: options.audioName, format: oc, duration: options.audioDuration)
        }

        scaler = try VideoEncoder.makeScaler(width: options.width, height: options.height, to: pixFmt)
        self.pixFmt = pixFmt
        if pixFmt == AV_PIX_FMT_YUV420P {
            let band = VideoEncoder.bandRows, h = options.height
            if h >= band { bandScaler = try VideoEncoder.makeScaler(width: options.width, height: band, to: pixFmt) }
            if h % band != 0 { lastBandScaler = try VideoEncoder.makeScaler(width: options.width, height: h % band, to: pixFmt) }
        }
        for _ in 0..<VideoEncoder.poolSize {
            let f = av_frame_alloc()!
            frames.append(f)
            f.pointee.format = pixFmt.rawValue
            f.pointee.width = Int32(options.width)
            f.pointee.height = Int32(options.height)
            try avCheck(av_frame_get_buffer(f, 0), "av_frame_get_buffer", path, path: path)
            free.push(Slot(frame: f))
        }
        packet = av_packet_alloc()

        if spv_fmt_has_nofile(oc) == 0 {
            try avCheck(avio_open(&oc.pointee.pb, temp, AVIO_FLAG_WRITE), "avio_open", "cannot write '\(path)'", path: path)
        }
        var opts: OpaquePointer? = nil
        if ofmt.pointee.name.map({ String(cString: $0) })?.contains("mp4") == true
            || ofmt.pointee.name.map({ String(cString: $0) })?.contains("mov") == true
        {
            av_dict_set(&opts, "movflags", "+faststart", 0)
        }
        options.segmentStamp?.write(to: oc)
        let h = avformat_write_header(oc, &opts)
        av_dict_free(&opts)
        try avCheck(h, "avformat_write_header", "cannot write '\(path)'", path: path)
        headerWritten = true
        let thread = Thread { [self] in encodeLoop() } // holds the encoder until finish or cancel
        thread.name = "specviz-x264"
        encoderThread = thread
        thread.start()
    }

    /// libswscale flags of the RGBA → YUV conversion. Same size, so only the chroma is
    /// resampled; with full-width chroma input swscale takes its SIMD path for RGBA.
    /// Measured at 1080p (`specviz bench`): 3.9 ms per frame with SWS_POINT alone, 2.2 ms
    /// with full-width chroma input.
    static let scalerFlags = SWS_POINT | SWS_FULL_CHR_H_INP

    /// A converter from our RGBA frames to `pixFmt` at the same size: full-range RGB to
    /// limited-range BT.709 YUV (the colour the encoder tags), or the GIF palette format.
    static func makeScaler(width: Int, height: Int, to pixFmt: AVPixelFormat) throws -> OpaquePointer {
        guard
            let scaler = sws_getContext(
                Int32(width), Int32(height), AV_PIX_FMT_RGBA,
                Int32(width), Int32(height), pixFmt, scalerFlags, nil, nil, nil)
        else {
            throw MediaError("sws_getContext failed for \(width)x\(height)")
        }
        if pixFmt != AV_PIX_FMT_RGB8 {
            let coeffs = sws_getCoefficients(SWS_CS_ITU709)
            sws_setColorspaceDetails(scaler, coeffs, 1, coeffs, 0, 0, 1 << 16, 1 << 16)
        }
        return scaler
    }

    /// The encoder thread: converted frames → x264 → muxer, sound interleaved.
    private func encodeLoop() {
        while let slot = work.pop() {
            if failure.value == nil {
                do {
                    guard let ctx = video else { throw MediaError("encoder is closed") }
                    try avCheck(avcodec_send_frame(ctx, slot.frame), "avcodec_send_frame", path, path: path)
                    framesEncoded += 1
                    try drainVideo()
                    // Keep sound interleaved with picture: encode audio up to the current video time.
                    try audio?.encode(until: Double(framesEncoded) / Double(options.fps), packet: packet!)
                } catch {
                    failure.update { if $0 == nil { $0 = error } }
                }
            }
            free.push(slot)
        }
        encoderDone.signal()
    }

    /// Ends the encoder thread after the frames already handed to it.
    private func stopEncoderThread() {
        guard encoderThread != nil else { return }
        work.push(nil)
        encoderDone.wait()
        encoderThread = nil
    }

    /// Encodes one frame (frames must arrive in order, all of the configured size).
    public func write(_ frame: PixelBuffer, index: Int) throws {
        try write(frame, index: index, changed: .all)
    }

    /// Encodes one frame, converting only the rows that changed since the frame its pooled
    /// YUV frame last held (`changed`: since the frame written before this one).
    public func write(_ frame: PixelBuffer, index: Int, changed: ChangedRows) throws {
        guard frame.width == options.width, frame.height == options.height else {
            throw MediaError("frame size \(frame.width)x\(frame.height) differs from the video's")
        }
        guard encoderThread != nil, !finished else { throw MediaError("encoder is closed") }
        if let error = failure.value { throw error }
        var slot = free.pop()
        let f = slot.frame
        do {
            // (A frame x264 still holds is copied first: its picture stays.)
            try avCheck(av_frame_make_writable(f), "av_frame_make_writable", path, path: path)
            convert(frame, into: f, changed: changed, since: changes.since(slot.holds))
            changes.record(changed)
        } catch {
            slot.holds = -1
            free.push(slot)
            throw error
        }
        slot.holds = framesWritten
        lastFrame = f
        f.pointee.pts = Int64(framesWritten)
        framesWritten += 1
        work.push(slot)
    }

    /// yuv420p output reads only the bands of each picture that changed (the rest come
    /// from the pooled frames); other formats convert whole pictures.
    public var changedRowBands: Int? { pixFmt == AV_PIX_FMT_YUV420P ? VideoEncoder.bandRows : nil }

    /// Rows per band of a partial conversion: a multiple of 16, so that every band starts
    /// on the same chroma row and dither row as in a whole conversion (the same bytes,
    /// checked by `ChangedRowsEncodeTests`), and long enough to cost no more per row.
    static let bandRows = 32

    /// Fills `f` with `frame`, whose rows `changed` differ from the last frame written;
    /// `since`: the rows that changed from the frame `f` holds to the last frame. For
    /// yuv420p, unless every row changed (or this is the first frame), only the bands that
    /// changed are converted; those that changed only since are copied from the last
    /// frame's pooled frame (a plane copy is several times cheaper than a conversion), and
    /// the rest are already right. No other band of `frame` is read (`changedRowBands`): it
    /// may hold older pixels there. Other formats convert the whole frame.
    private func convert(
        _ frame: PixelBuffer, into f: UnsafeMutablePointer<AVFrame>, changed: ChangedRows, since: ChangedRows
    ) {
        let h = frame.height, band = VideoEncoder.bandRows
        let stride = Int32(frame.width * 4)
        guard pixFmt == AV_PIX_FMT_YUV420P, !changed.isAll, let last = lastFrame else {
            frame.pixels.withUnsafeBytes { raw in
                var src: UnsafePointer<UInt8>? = raw.baseAddress!.assumingMemoryBound(to: UInt8.self)
                var stride = stride
                _ = sws_scale(scaler, &src, &stride, 0, Int32(h), spv_frame_data_ptr(f), spv_frame_linesize_ptr(f))
            }
            return
        }
        // Bands that changed since the held frame (all, when it is unknown) are copied,
        // unless they changed in this frame: those are converted.
        let bands = (h + band - 1) / band
        bandWork.removeAll(keepingCapacity: true)
        bandWork.append(contentsOf: repeatElement(since.isAll ? .copy : .keep, count: bands))
        func mark(_ rows: ChangedRows, _ work: BandWork) {
            rows.forEach { r in
                let lo = max(0, r.lowerBound) / band, hi = min(bands, (min(r.upperBound, h) + band - 1) / band)
                for b in lo..<max(lo, hi) where work.rawValue > bandWork[b].rawValue { bandWork[b] = work }
            }
        }
        mark(since, .copy)
        mark(changed, .convert)
        frame.pixels.withUnsafeBytes { raw in
            let base = raw.baseAddress!.assumingMemoryBound(to: UInt8.self)
            for b in 0..<bands {
                let y = b * band, n = min(band, h - y)
                switch bandWork[b] {
                case .keep:
                    break
                case .copy:
                    // (`f` is the last frame's own only when it holds that frame: no copy.)
                    if last != f { spv_copy_rows_420(f, last, Int32(y), Int32(n)) }
                case .convert:
                    _ = spv_sws_scale_rows_420(n == band ? bandScaler : lastBandScaler, base, stride, f, Int32(y), Int32(n))
                }
            }
        }
    }

    private func drainVideo() throws {
        guard let ctx = video, let oc = format, let pkt = packet, let stream = videoStream else { return }
        while true {
            let r = avcodec_receive_packet(ctx, pkt)
            if r == spv_eagain() || r == spv_averror_eof() { return }
            try avCheck(r, "avcodec_receive_packet", path, path: path)
            av_packet_rescale_ts(pkt, ctx.pointee.time_base, stream.pointee.time_base)
            pkt.pointee.stream_index = stream.pointee.index
            try avCheck(av_interleaved_write_frame(oc, pkt), "av_interleaved_write_frame", "cannot write '\(path)'", path: path)
        }
    }

    /// Flushes the encoders, writes the trailer and moves the file into place.
    public func finish() throws {
        guard !finished else { return }
        do {
            stopEncoderThread()
            if let error = failure.value { throw error }
            guard let ctx = video, let oc = format else { throw MediaError("encoder is closed") }
            try avCheck(avcodec_send_frame(ctx, nil), "avcodec_send_frame", path, path: path)
            try drainVideo()
            try audio?.encode(until: Double(framesWritten) / Double(options.fps), packet: packet!)
            try audio?.flush(packet: packet!)
            try avCheck(av_write_trailer(oc), "av_write_trailer", "cannot write '\(path)'", path: path)
            if spv_fmt_has_nofile(oc) == 0 { avio_closep(&oc.pointee.pb) }
            finished = true
            release()
            try AtomicFile.commit(temp, to: path, overwrite: options.overwrite)
        } catch {
            cancel()
            throw error
        }
    }

    /// Abandons the output: nothing is left at `path` or the temporary name.
    public func cancel() {
        stopEncoderThread()
        if let oc = format, spv_fmt_has_nofile(oc) == 0, oc.pointee.pb != nil { avio_closep(&oc.pointee.pb) }
        finished = true
        release()
        AtomicFile.discard(temp)
    }

    private func release() {
        stopEncoderThread()
        audio = nil
        for s in [scaler, bandScaler, lastBandScaler] where s != nil { sws_freeContext(s) }
        (scaler, bandScaler, lastBandScaler) = (nil, nil, nil)
        for i in frames.indices { var f: UnsafeMutablePointer<AVFrame>? = frames[i]; av_frame_free(&f) }
        frames.removeAll()
        if packet != nil { av_packet_free(&packet) }
        if video != nil { avcodec_free_context(&video) }
        if let oc = format {
            if spv_fmt_has_nofile(oc) == 0, oc.pointee.pb != nil { avio_closep(&oc.pointee.pb) }
            avformat_free_context(oc)
            format = nil
        }
    }
}
