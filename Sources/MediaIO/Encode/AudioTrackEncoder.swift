import CFFmpeg
import SpecvizCore

/// Encodes sound read from a source (already positioned at the render's start) into an
/// audio stream of an output container (AAC for MP4/MOV/MKV, the container's default
/// otherwise), at most `duration` seconds of it, so it lines up with the rendered frames.
/// It does not open or decode the input itself: the render reads the input once (`AudioTee`).
/// Streams: bounded memory for any length.
final class AudioTrackEncoder {
    let decoder: AudioTrackSource
    let stream: UnsafeMutablePointer<AVStream>
    var ctx: UnsafeMutablePointer<AVCodecContext>?
    var swr: OpaquePointer?
    var fifo: OpaquePointer?
    var conv: UnsafeMutablePointer<AVFrame>?
    var out: UnsafeMutablePointer<AVFrame>?
    let format: UnsafeMutablePointer<AVFormatContext>
    let frameSize: Int
    let outRate: Int
    let outChannels: Int
    var input: [Float]
    let endSample: Int?
    var inputPosition = 0
    var inputDone = false
    var encoded = 0
    let name: String

    init(source: AudioTrackSource, name path: String, format oc: UnsafeMutablePointer<AVFormatContext>, duration: Double?) throws {
        decoder = source
        name = path
        format = oc
        let formatName = String(cString: oc.pointee.oformat.pointee.name)
        // AAC in MP4/MOV and in Matroska too (libavformat's Matroska default is Vorbis).
        let codecID = formatName.contains("matroska") || formatName.contains("mp4") || formatName.contains("mov")
            ? AV_CODEC_ID_AAC : oc.pointee.oformat.pointee.audio_codec
        guard let codec = avcodec_find_encoder(codecID) else {
            throw MediaError("no audio encoder for this container")
        }
        let c = avcodec_alloc_context3(codec)!
        ctx = c
        c.pointee.sample_fmt = codec.pointee.sample_fmts?.pointee ?? AV_SAMPLE_FMT_FLTP
        var rate = decoder.sampleRate
        if let rates = codec.pointee.supported_samplerates {
            var ok = false, i = 0
            while rates[i] != 0 { if Int(rates[i]) == rate { ok = true }; i += 1 }
            if !ok { rate = 48000 }
        }
        if String(cString: codec.pointee.name) == "libopus" { rate = 48000 }
        outRate = rate
        outChannels = min(decoder.channelCount, 2)
        c.pointee.sample_rate = Int32(rate)
        av_channel_layout_default(&c.pointee.ch_layout, Int32(outChannels))
        c.pointee.bit_rate = outChannels == 1 ? 128_000 : 192_000
        c.pointee.time_base = spv_rational(1, Int32(rate))
        if spv_fmt_needs_global_header(oc) != 0 { c.pointee.flags |= Int32(AV_CODEC_FLAG_GLOBAL_HEADER) }
        try avCheck(avcodec_open2(c, codec, nil), "avcodec_open2(audio)", path, path: path)
        stream = avformat_new_stream(oc, nil)!
        try avCheck(avcodec_parameters_from_context(stream.pointee.codecpar, c), "avcodec_parameters_from_context", path, path: path)
        stream.pointee.time_base = c.pointee.time_base
        frameSize = c.pointee.frame_size > 0 ? Int(c.pointee.frame_size) : 1024

        var inLayout = AVChannelLayout()
        av_channel_layout_default(&inLayout, Int32(decoder.channelCount))
        var s: OpaquePointer? = nil
        try avCheck(swr_alloc_set_opts2(&s, &c.pointee.ch_layout, c.pointee.sample_fmt, Int32(rate),
                                        &inLayout, AV_SAMPLE_FMT_FLT, Int32(decoder.sampleRate), 0, nil),
                    "swr_alloc_set_opts2", path)
        try avCheck(swr_init(s), "swr_init", path, path: path)
        swr = s
        fifo = av_audio_fifo_alloc(c.pointee.sample_fmt, Int32(outChannels), Int32(frameSize * 4))
        input = [Float](repeating: 0, count: 4096 * decoder.channelCount)
        let inRate = Double(decoder.sampleRate)
        endSample = duration.map { Int(max(0, min($0 * inRate, 1e15)).rounded()) }
        conv = try Self.makeFrame(c, samples: 4096 * 4 + 64)
        out = try Self.makeFrame(c, samples: frameSize)
    }

    deinit {
        if swr != nil { swr_free(&swr) }
        if let f = fifo { av_audio_fifo_free(f) }
        if conv != nil { av_frame_free(&conv) }
        if out != nil { av_frame_free(&out) }
        if ctx != nil { avcodec_free_context(&ctx) }
    }

    static func makeFrame(_ c: UnsafeMutablePointer<AVCodecContext>, samples: Int) throws -> UnsafeMutablePointer<AVFrame> {
        let f = av_frame_alloc()!
        f.pointee.format = c.pointee.sample_fmt.rawValue
        av_channel_layout_copy(&f.pointee.ch_layout, &c.pointee.ch_layout)
        f.pointee.sample_rate = c.pointee.sample_rate
        f.pointee.nb_samples = Int32(samples)
        try avCheck(av_frame_get_buffer(f, 0), "av_frame_get_buffer", "audio")
        return f
    }

    /// Pulls one chunk of input through the resampler into the FIFO. False at the end.
    private func pull() throws -> Bool {
        guard !inputDone, let swr, let conv, let fifo else { return false }
        let channels = decoder.channelCount
        var n = try input.withUnsafeMutableBufferPointer { try decoder.readInterleaved(into: $0) }
        let offset = 0
        if n == 0 {
            inputDone = true
        } else {
            // Stop at the end.
            if let end = endSample {
                n = max(0, min(n, end - inputPosition))
                if inputPosition + n >= end { inputDone = true }
            }
            inputPosition += n
        }
        let got: Int32 = input.withUnsafeBufferPointer { buf in
            var src: UnsafePointer<UInt8>? = UnsafeRawPointer(buf.baseAddress! + offset * channels).assumingMemoryBound(to: UInt8.self)
            return withUnsafeMutablePointer(to: &src) { srcp in
                swr_convert(swr, conv.pointee.extended_data, conv.pointee.nb_samples,
                            n > 0 ? srcp : nil, Int32(n))
            }
        }
        try avCheck(got, "swr_convert", name)
        if got > 0 {
            let data = UnsafeMutableRawPointer(conv.pointee.extended_data!).assumingMemoryBound(to: UnsafeMutableRawPointer?.self)
            try avCheck(av_audio_fifo_write(fifo, data, got), "av_audio_fifo_write", name)
        }
        return !inputDone || got > 0
    }

    /// Encodes sound until `seconds` of it (from the start) are in the file, or the input ends.
    func encode(until seconds: Double, packet: UnsafeMutablePointer<AVPacket>) throws {
        let target = Int(max(0, min(seconds * Double(outRate), 1e15)))
        while encoded < target {
            if Int(av_audio_fifo_size(fifo)) < frameSize {
                if try !pull() { return }
                continue
            }
            try encodeFrame(frameSize, packet: packet)
        }
    }

    /// Encodes whatever is left and flushes the encoder.
    func flush(packet: UnsafeMutablePointer<AVPacket>) throws {
        while try pull() {}
        while Int(av_audio_fifo_size(fifo)) > 0 {
            try encodeFrame(min(frameSize, Int(av_audio_fifo_size(fifo))), packet: packet)
        }
        try avCheck(avcodec_send_frame(ctx, nil), "avcodec_send_frame(audio)", name)
        try drain(packet)
    }

    private func encodeFrame(_ n: Int, packet: UnsafeMutablePointer<AVPacket>) throws {
        guard let out, let ctx else { return }
        try avCheck(av_frame_make_writable(out), "av_frame_make_writable", name)
        out.pointee.nb_samples = Int32(n)
        let data = UnsafeMutableRawPointer(out.pointee.extended_data!).assumingMemoryBound(to: UnsafeMutableRawPointer?.self)
        let got = av_audio_fifo_read(fifo, data, Int32(n))
        try avCheck(got, "av_audio_fifo_read", name)
        out.pointee.pts = Int64(encoded)
        encoded += Int(got)
        try avCheck(avcodec_send_frame(ctx, out), "avcodec_send_frame(audio)", name)
        try drain(packet)
    }

    private func drain(_ pkt: UnsafeMutablePointer<AVPacket>) throws {
        guard let ctx else { return }
        while true {
            let r = avcodec_receive_packet(ctx, pkt)
            if r == spv_eagain() || r == spv_averror_eof() { return }
            try avCheck(r, "avcodec_receive_packet(audio)", name)
            av_packet_rescale_ts(pkt, ctx.pointee.time_base, stream.pointee.time_base)
            pkt.pointee.stream_index = stream.pointee.index
            try avCheck(av_interleaved_write_frame(format, pkt), "av_interleaved_write_frame", name)
        }
    }
}
