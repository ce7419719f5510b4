import CFFmpeg
import SpecvizCore

/// The one audio-encoding core: interleaved float in, encoded packets written to a stream
/// of an output container. libswresample converts to the encoder's sample format, rate and
/// channel count, an `AVAudioFifo` cuts the encoder's frame size, and packets go to the
/// muxer interleaved. `AudioFileWriter` (`tone -o`) and `AudioTrackEncoder` (a video's
/// sound) both use it; they differ only in where the sound comes from and who owns the file.
final class AudioStreamEncoder {
    let name: String
    let stream: UnsafeMutablePointer<AVStream>
    /// Encoded rate (Hz) and channels.
    let sampleRate: Int
    let channels: Int
    /// Samples per encoder frame.
    private(set) var frameSize = 1024
    let codecName: String
    /// Samples sent to the encoder so far (at `sampleRate`).
    private(set) var encoded = 0

    private let format: UnsafeMutablePointer<AVFormatContext>
    private var codec: UnsafeMutablePointer<AVCodecContext>?
    private var resampler: OpaquePointer?
    private var fifo: OpaquePointer?
    private var frame: UnsafeMutablePointer<AVFrame>?
    private var packet: UnsafeMutablePointer<AVPacket>?
    private var staging: UnsafeMutablePointer<UnsafeMutablePointer<UInt8>?>?
    private var stagingCapacity = 0
    private let inputChannels: Int

    /// The rate an encoder takes for `preferred` Hz: that rate if it supports it, else the
    /// nearest higher one it supports (Opus: 48 kHz), else its highest.
    static func rate(for encoder: UnsafePointer<AVCodec>, preferred: Int) -> Int {
        guard let list = encoder.pointee.supported_samplerates else { return preferred }
        var rates: [Int] = []
        var i = 0
        while list[i] != 0 { rates.append(Int(list[i])); i += 1 }
        if rates.isEmpty || rates.contains(preferred) { return preferred }
        return rates.filter { $0 > preferred }.min() ?? rates.max()!
    }

    /// Prefers float, then 16-bit, then 32-bit integer samples among those the encoder takes.
    static func sampleFormat(for encoder: UnsafePointer<AVCodec>) -> AVSampleFormat {
        guard let list = encoder.pointee.sample_fmts else { return AV_SAMPLE_FMT_FLT }
        var supported: [AVSampleFormat] = []
        var i = 0
        while list[i] != AV_SAMPLE_FMT_NONE { supported.append(list[i]); i += 1 }
        for want in [AV_SAMPLE_FMT_FLT, AV_SAMPLE_FMT_FLTP, AV_SAMPLE_FMT_S16, AV_SAMPLE_FMT_S16P, AV_SAMPLE_FMT_S32, AV_SAMPLE_FMT_S32P]
        where supported.contains(want) { return want }
        return supported.first ?? AV_SAMPLE_FMT_FLT
    }

    /// Adds a stream encoded by `encoder` to `format` (before its header is written).
    /// - Parameters: inputRate/inputChannels: what `append` receives; channels: encoded
    ///   channels; bitRate: for lossy codecs (nil: the codec's default); name: for messages;
    ///   path: the file, for `MediaError.path`.
    init(
        format: UnsafeMutablePointer<AVFormatContext>, encoder: UnsafePointer<AVCodec>, inputRate: Int, inputChannels: Int,
        channels: Int, bitRate: Int?, experimental: Bool = false, name: String, path: String?
    ) throws {
        self.format = format
        self.name = name
        self.inputChannels = inputChannels
        self.channels = channels
        codecName = String(cString: encoder.pointee.name)
        sampleRate = Self.rate(for: encoder, preferred: inputRate)
        func check(_ code: Int32, _ function: String) throws { try avCheck(code, function, name, path: path) }
        func made<T>(_ p: T?, _ function: String) throws -> T {
            guard let p else { throw MediaError("\(name): \(function) failed (out of memory)", function: function, path: path) }
            return p
        }
        let st = try made(avformat_new_stream(format, nil), "avformat_new_stream")
        stream = st
        let ctx = try made(avcodec_alloc_context3(encoder), "avcodec_alloc_context3")
        codec = ctx
        ctx.pointee.sample_fmt = Self.sampleFormat(for: encoder)
        ctx.pointee.sample_rate = Int32(sampleRate)
        av_channel_layout_default(&ctx.pointee.ch_layout, Int32(channels))
        ctx.pointee.time_base = spv_rational(1, Int32(sampleRate))
        if let bitRate, !codecName.hasPrefix("pcm_"), codecName != "flac" { ctx.pointee.bit_rate = Int64(bitRate) }
        if experimental { ctx.pointee.strict_std_compliance = -2 }
        if spv_fmt_needs_global_header(format) != 0 { ctx.pointee.flags |= Int32(AV_CODEC_FLAG_GLOBAL_HEADER) }
        do {
            try check(avcodec_open2(ctx, encoder, nil), "avcodec_open2(\(codecName))")
            try check(avcodec_parameters_from_context(st.pointee.codecpar, ctx), "avcodec_parameters_from_context")
            st.pointee.time_base = ctx.pointee.time_base
            let variable = (encoder.pointee.capabilities & Int32(AV_CODEC_CAP_VARIABLE_FRAME_SIZE)) != 0
            frameSize = (ctx.pointee.frame_size > 0 && !variable) ? Int(ctx.pointee.frame_size) : 1024

            var inLayout = AVChannelLayout()
            av_channel_layout_default(&inLayout, Int32(inputChannels))
            try check(
                swr_alloc_set_opts2(
                    &resampler, &ctx.pointee.ch_layout, ctx.pointee.sample_fmt, Int32(sampleRate),
                    &inLayout, AV_SAMPLE_FMT_FLT, Int32(inputRate), 0, nil), "swr_alloc_set_opts2")
            try check(swr_init(resampler), "swr_init")
            fifo = try made(av_audio_fifo_alloc(ctx.pointee.sample_fmt, Int32(channels), Int32(frameSize * 4)), "av_audio_fifo_alloc")
            packet = try made(av_packet_alloc(), "av_packet_alloc")
            let f = try made(av_frame_alloc(), "av_frame_alloc")
            frame = f
            f.pointee.nb_samples = Int32(frameSize)
            f.pointee.format = ctx.pointee.sample_fmt.rawValue
            f.pointee.sample_rate = Int32(sampleRate)
            try check(av_channel_layout_copy(&f.pointee.ch_layout, &ctx.pointee.ch_layout), "av_channel_layout_copy")
            try check(av_frame_get_buffer(f, 0), "av_frame_get_buffer")
        } catch {
            release()
            throw error
        }
    }

    deinit { release() }

    /// Samples waiting in the FIFO.
    var buffered: Int { Int(av_audio_fifo_size(fifo)) }

    /// Converts `frames` interleaved input frames into the FIFO; `input` nil flushes the
    /// resampler's delay at the end.
    func append(_ input: UnsafePointer<Float>?, frames: Int) throws {
        let out = Int(swr_get_out_samples(resampler, Int32(frames))) + 32
        if out > stagingCapacity {
            if let s = staging { av_freep(s); av_freep(&staging) }
            try avCheck(
                av_samples_alloc_array_and_samples(&staging, nil, Int32(channels), Int32(out), codec!.pointee.sample_fmt, 0),
                "av_samples_alloc_array_and_samples", name)
            stagingCapacity = out
        }
        var inPtr: UnsafePointer<UInt8>? = input.map { UnsafeRawPointer($0).assumingMemoryBound(to: UInt8.self) }
        let got = withUnsafeMutablePointer(to: &inPtr) { ins in
            swr_convert(resampler, staging, Int32(stagingCapacity), input == nil ? nil : ins, Int32(frames))
        }
        try avCheck(got, "swr_convert", name)
        if got > 0 {
            let raw = UnsafeMutableRawPointer(staging!).assumingMemoryBound(to: UnsafeMutableRawPointer?.self)
            let w = av_audio_fifo_write(fifo, raw, got)
            if w < got { throw MediaError("\(name): av_audio_fifo_write failed", function: "av_audio_fifo_write", code: w) }
        }
    }

    /// Encodes one frame of up to `frameSize` samples from the FIFO (nothing when it is empty).
    func encodeFrame() throws {
        let n = min(buffered, frameSize)
        guard n > 0, let f = frame else { return }
        try avCheck(av_frame_make_writable(f), "av_frame_make_writable", name)
        let raw = UnsafeMutableRawPointer(f.pointee.extended_data!).assumingMemoryBound(to: UnsafeMutableRawPointer?.self)
        let r = av_audio_fifo_read(fifo, raw, Int32(n))
        if r < n { throw MediaError("\(name): av_audio_fifo_read failed", function: "av_audio_fifo_read", code: r) }
        f.pointee.nb_samples = Int32(n)
        f.pointee.pts = Int64(encoded)
        encoded += n
        try send(f)
    }

    /// Encodes every whole frame in the FIFO.
    func encodeWholeFrames() throws {
        while buffered >= frameSize { try encodeFrame() }
    }

    /// The end: the resampler's delay, the short last frame, the encoder's own delay.
    func finish() throws {
        try append(nil, frames: 0)
        while buffered > 0 { try encodeFrame() }
        try send(nil)
    }

    /// Sends a frame (nil flushes) and muxes every packet the encoder returns.
    private func send(_ f: UnsafeMutablePointer<AVFrame>?) throws {
        try avCheck(avcodec_send_frame(codec, f), "avcodec_send_frame(\(codecName))", name)
        while true {
            let r = avcodec_receive_packet(codec, packet)
            if r == spv_eagain() || r == spv_averror_eof() { return }
            try avCheck(r, "avcodec_receive_packet(\(codecName))", name)
            av_packet_rescale_ts(packet, codec!.pointee.time_base, stream.pointee.time_base)
            packet!.pointee.stream_index = stream.pointee.index
            try avCheck(av_interleaved_write_frame(format, packet), "av_interleaved_write_frame", name)
        }
    }

    private func release() {
        if staging != nil { av_freep(staging); av_freep(&staging) }
        if fifo != nil { av_audio_fifo_free(fifo); fifo = nil }
        if frame != nil { av_frame_free(&frame) }
        if packet != nil { av_packet_free(&packet) }
        if resampler != nil { swr_free(&resampler) }
        if codec != nil { avcodec_free_context(&codec) }
    }
}
