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
        /// Encoder threads (0: `fixedThreads`). Never the encoder's own choice: x264's (1.5 per
        /// core) makes the bytes depend on the machine, as its frame threads shape the stream.
        public var threads: Int = 0
        /// The encoder's threads by default, whatever the core count: the same input and
        /// settings give the same bytes on any machine (a segment re-rendered elsewhere is
        /// identical). 4 is x264's own choice for 2-3 cores; on more, segments run side by side.
        public static let fixedThreads = 4
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
        /// Container tags and the cover (a segment's stamp replaces a `comment`).
        public var tags = OutputTags()
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
        let (codec, pixFmt) = try chooseCodec(for: oc)
        let ctx = try openCodec(codec, pixFmt: pixFmt, format: oc)
        let stream = avformat_new_stream(oc, nil)!
        videoStream = stream
        try avCheck(avcodec_parameters_from_context(stream.pointee.codecpar, ctx), "avcodec_parameters_from_context", path, path: path)
        stream.pointee.time_base = ctx.pointee.time_base
        stream.pointee.avg_frame_rate = ctx.pointee.framerate

        // Sound.
        if let source = options.audio, oc.pointee.oformat.pointee.audio_codec != AV_CODEC_ID_NONE {
            audio = try AudioTrackEncoder(source: source, name: options.audioName, format: oc, duration: options.audioDuration)
        }
        try makeScalers(to: pixFmt)
        try allocatePool(pixFmt)
        packet = av_packet_alloc()
        let coverStream = options.tags.apply(to: oc)
        options.segmentStamp?.write(to: oc)
        try writeContainerHeader(oc, temp: temp, path: path)
        headerWritten = true
        if let coverStream { try options.tags.writeCover(oc, stream: coverStream, path: path) }
        let thread = Thread { [self] in encodeLoop() } // holds the encoder until finish or cancel
        thread.name = "specviz-x264"
        encoderThread = thread
        thread.start()
    }

    /// The pool of YUV frames passed between the two stages, all free.
    private func allocatePool(_ pixFmt: AVPixelFormat) throws {
        for _ in 0..<VideoEncoder.poolSize {
            let f = av_frame_alloc()!
            frames.append(f)
            f.pointee.format = pixFmt.rawValue
            f.pointee.width = Int32(options.width)
            f.pointee.height = Int32(options.height)
            try avCheck(av_frame_get_buffer(f, 0), "av_frame_get_buffer", path, path: path)
            free.push(Slot(frame: f))
        }
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
