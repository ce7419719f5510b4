import CFFmpeg
import SpecvizCore
#if canImport(Glibc)
import Glibc
#endif

/// Writes float audio to any audio format libavformat writes, chosen by the file
/// extension: `.wav` (16-bit PCM, or 32-bit float with `wavFloat`), `.flac`, `.mp3`
/// (libmp3lame), `.ogg`/`.oga` (Vorbis), `.opus`, `.m4a`/`.aac`/`.mp4` (AAC), or whatever
/// libavformat's default audio codec for the extension is.
///
/// Samples arrive interleaved at `sampleRate`; libswresample converts them to the encoder's
/// sample format and, when the encoder demands it (Opus: 48 kHz), its rate. The file is
/// written under a temporary name in the same folder and renamed into place by `finish()`,
/// so a failure or `cancel()` never leaves a half-written file at `path`.
public final class AudioFileWriter {
    /// The final path.
    public let path: String
    /// Input sample rate (Hz) and channel count.
    public let sampleRate: Int
    public let channels: Int
    /// The encoder's name, e.g. `pcm_s16le`, `flac`, `libmp3lame`.
    public private(set) var codecName = ""
    /// The rate (Hz) the file is encoded at (differs from `sampleRate` only when the codec requires it).
    public private(set) var encodedSampleRate = 0

    private let tempPath: String
    private let overwrite: Bool
    private var format: UnsafeMutablePointer<AVFormatContext>?
    private var codec: UnsafeMutablePointer<AVCodecContext>?
    private var resampler: OpaquePointer?
    private var fifo: OpaquePointer?
    private var frame: UnsafeMutablePointer<AVFrame>?
    private var packet: UnsafeMutablePointer<AVPacket>?
    private var stream: UnsafeMutablePointer<AVStream>?
    private var frameSize = 1024
    private var staging: UnsafeMutablePointer<UnsafeMutablePointer<UInt8>?>?
    private var stagingCapacity = 0
    private var samplesWritten: Int64 = 0
    private var state = State.open
    private enum State { case open, finished, failed }

    /// Creates the writer and the temporary file.
    /// - Parameters: path (its extension picks the format), sampleRate (Hz), channels (1–8),
    ///   wavFloat (`.wav` as 32-bit float instead of 16-bit PCM), bitRate (bits/s for lossy codecs).
    ///   overwrite: replace an existing file (otherwise the final name is created exclusively).
    public init(path: String, sampleRate: Int, channels: Int, wavFloat: Bool = false, bitRate: Int = 192_000,
                overwrite: Bool = true) throws {
        _ = quietLibav
        guard sampleRate >= 1000, (1...8).contains(channels) else {
            throw MediaError("'\(path)': cannot write \(channels) channels at \(sampleRate) Hz", path: path)
        }
        self.path = path
        self.overwrite = overwrite
        self.sampleRate = sampleRate
        self.channels = channels
        let slash = path.lastIndex(of: "/")
        let base = slash.map { String(path[path.index(after: $0)...]) } ?? path
        tempPath = AtomicFile.temporaryPath(for: path)
        let ext = base.lastIndex(of: ".").map { base[base.index(after: $0)...].lowercased() } ?? ""
        guard let oformat = av_guess_format(nil, base, nil) else {
            throw MediaError("'\(path)': unknown output format '.\(ext)' (use .wav, .flac, .mp3, .ogg, .opus or .m4a)", path: path)
        }
        try AtomicFile.checkWritable(path)
        var fmt: UnsafeMutablePointer<AVFormatContext>? = nil
        try avCheck(avformat_alloc_output_context2(&fmt, oformat, nil, tempPath), "avformat_alloc_output_context2", "'\(path)'", path: path)
        format = fmt
        do {
            let (encoder, experimental) = try Self.encoder(for: ext, wavFloat: wavFloat, oformat: oformat, path: path)
            codecName = String(cString: encoder.pointee.name)
            guard let st = avformat_new_stream(fmt, nil) else { throw MediaError("'\(path)': avformat_new_stream failed", path: path) }
            stream = st
            guard let ctx = avcodec_alloc_context3(encoder) else { throw MediaError("'\(path)': avcodec_alloc_context3 failed", path: path) }
            codec = ctx
            ctx.pointee.sample_fmt = Self.sampleFormat(for: encoder)
            encodedSampleRate = Self.rate(for: encoder, preferred: sampleRate)
            ctx.pointee.sample_rate = Int32(encodedSampleRate)
            av_channel_layout_default(&ctx.pointee.ch_layout, Int32(channels))
            ctx.pointee.time_base = spv_rational(1, Int32(encodedSampleRate))
            if !codecName.hasPrefix("pcm_") && codecName != "flac" { ctx.pointee.bit_rate = Int64(bitRate) }
            if experimental { ctx.pointee.strict_std_compliance = -2 }
            if spv_fmt_needs_global_header(fmt) != 0 { ctx.pointee.flags |= Int32(AV_CODEC_FLAG_GLOBAL_HEADER) }
            try avCheck(avcodec_open2(ctx, encoder, nil), "avcodec_open2(\(codecName))", "'\(path)'", path: path)
            try avCheck(avcodec_parameters_from_context(st.pointee.codecpar, ctx), "avcodec_parameters_from_context", "'\(path)'", path: path)
            st.pointee.time_base = ctx.pointee.time_base
            let variable = (encoder.pointee.capabilities & Int32(AV_CODEC_CAP_VARIABLE_FRAME_SIZE)) != 0
            frameSize = (ctx.pointee.frame_size > 0 && !variable) ? Int(ctx.pointee.frame_size) : 1024

            var swr: OpaquePointer? = nil
            var inLayout = AVChannelLayout()
            av_channel_layout_default(&inLayout, Int32(channels))
            try avCheck(swr_alloc_set_opts2(&swr, &ctx.pointee.ch_layout, ctx.pointee.sample_fmt, Int32(encodedSampleRate),
                                            &inLayout, AV_SAMPLE_FMT_FLT, Int32(sampleRate), 0, nil),
                        "swr_alloc_set_opts2", "'\(path)'")
            resampler = swr
            try avCheck(swr_init(swr), "swr_init", "'\(path)'", path: path)
            guard let fifoPtr = av_audio_fifo_alloc(ctx.pointee.sample_fmt, Int32(channels), Int32(frameSize * 4)) else {
                throw MediaError("'\(path)': av_audio_fifo_alloc failed", path: path)
            }
            fifo = fifoPtr
            frame = av_frame_alloc()
            packet = av_packet_alloc()
            guard let f = frame, packet != nil else { throw MediaError("'\(path)': out of memory", path: path) }
            f.pointee.nb_samples = Int32(frameSize)
            f.pointee.format = ctx.pointee.sample_fmt.rawValue
            f.pointee.sample_rate = Int32(encodedSampleRate)
            try avCheck(av_channel_layout_copy(&f.pointee.ch_layout, &ctx.pointee.ch_layout), "av_channel_layout_copy", "'\(path)'", path: path)
            try avCheck(av_frame_get_buffer(f, 0), "av_frame_get_buffer", "'\(path)'", path: path)
            if spv_fmt_has_nofile(fmt) == 0 {
                try avCheck(avio_open(&fmt!.pointee.pb, tempPath, AVIO_FLAG_WRITE), "avio_open", "cannot write '\(path)'", path: path)
            }
            try avCheck(avformat_write_header(fmt, nil), "avformat_write_header", "'\(path)'", path: path)
        } catch {
            state = .failed
            release()
            AtomicFile.discard(tempPath)
            throw error
        }
    }

    deinit {
        if state == .open { cancel() } else { release() }
    }

    /// The encoder for an extension; `experimental` when it needs strict = -2.
    private static func encoder(for ext: String, wavFloat: Bool, oformat: UnsafePointer<AVOutputFormat>,
                                path: String) throws -> (UnsafePointer<AVCodec>, Bool) {
        let names: [String]
        switch ext {
        case "wav", "wave": names = [wavFloat ? "pcm_f32le" : "pcm_s16le"]
        case "flac": names = ["flac"]
        case "mp3": names = ["libmp3lame", "libshine"]
        case "ogg", "oga": names = ["libvorbis", "vorbis", "flac"]
        case "opus": names = ["libopus", "opus"]
        case "m4a", "aac", "mp4", "mov": names = ["aac", "libfdk_aac"]
        default: names = []
        }
        for name in names {
            if let c = avcodec_find_encoder_by_name(name) { return (c, name == "vorbis" || name == "opus") }
        }
        if names.isEmpty, oformat.pointee.audio_codec != AV_CODEC_ID_NONE,
           let c = avcodec_find_encoder(oformat.pointee.audio_codec) {
            return (c, false)
        }
        throw MediaError("'\(path)': no audio encoder available for '.\(ext)'", path: path)
    }

    /// Prefers float, then 16-bit, then 32-bit integer samples among those the encoder takes.
    private static func sampleFormat(for encoder: UnsafePointer<AVCodec>) -> AVSampleFormat {
        guard let list = encoder.pointee.sample_fmts else { return AV_SAMPLE_FMT_FLT }
        var supported: [AVSampleFormat] = []
        var i = 0
        while list[i] != AV_SAMPLE_FMT_NONE { supported.append(list[i]); i += 1 }
        for want in [AV_SAMPLE_FMT_FLT, AV_SAMPLE_FMT_FLTP, AV_SAMPLE_FMT_S16, AV_SAMPLE_FMT_S16P, AV_SAMPLE_FMT_S32, AV_SAMPLE_FMT_S32P]
        where supported.contains(want) { return want }
        return supported.first ?? AV_SAMPLE_FMT_FLT
    }

    /// `preferred` (Hz) if the encoder takes it, else the lowest supported rate above it, else the highest.
    private static func rate(for encoder: UnsafePointer<AVCodec>, preferred: Int) -> Int {
        guard let list = encoder.pointee.supported_samplerates else { return preferred }
        var rates: [Int] = []
        var i = 0
        while list[i] != 0 { rates.append(Int(list[i])); i += 1 }
        if rates.isEmpty || rates.contains(preferred) { return preferred }
        return rates.filter { $0 > preferred }.min() ?? rates.max()!
    }

    /// Appends interleaved frames (`channels` floats each, nominally −1…1).
    public func write(_ interleaved: UnsafeBufferPointer<Float>) throws {
        guard state == .open else { throw MediaError("'\(path)': write after finish, cancel or an earlier error", path: path) }
        let frames = interleaved.count / channels
        guard frames > 0 else { return }
        do {
            try convert(input: interleaved.baseAddress, frames: frames)
            try encodeFullFrames(final: false)
        } catch { fail(); throw error }
    }

    /// Flushes the encoder, writes the trailer and renames the file into place.
    public func finish() throws {
        guard state == .open else { return }
        do {
            try convert(input: nil, frames: 0)
            try encodeFullFrames(final: true)
            try send(nil)
            try avCheck(av_write_trailer(format), "av_write_trailer", "'\(path)'", path: path)
            if let fmt = format, spv_fmt_has_nofile(fmt) == 0 { avio_closep(&fmt.pointee.pb) }
            try AtomicFile.commit(tempPath, to: path, overwrite: overwrite)
            state = .finished
            release()
        } catch { fail(); throw error }
    }

    /// Abandons the file: nothing is left at `path` or under the temporary name.
    public func cancel() {
        guard state == .open else { return }
        fail()
    }

    private func fail() {
        state = .failed
        if let fmt = format, spv_fmt_has_nofile(fmt) == 0, fmt.pointee.pb != nil { avio_closep(&fmt.pointee.pb) }
        AtomicFile.discard(tempPath)
        release()
    }

    /// Converts `frames` input frames (or flushes the resampler when `input` is nil) into the FIFO.
    private func convert(input: UnsafePointer<Float>?, frames: Int) throws {
        let out = Int(swr_get_out_samples(resampler, Int32(frames))) + 32
        if out > stagingCapacity {
            if let s = staging { av_freep(s); av_freep(&staging) }
            var planes: UnsafeMutablePointer<UnsafeMutablePointer<UInt8>?>? = nil
            try avCheck(av_samples_alloc_array_and_samples(&planes, nil, Int32(channels), Int32(out), codec!.pointee.sample_fmt, 0),
                        "av_samples_alloc_array_and_samples", "'\(path)'")
            staging = planes
            stagingCapacity = out
        }
        var inPtr: UnsafePointer<UInt8>? = input.map { UnsafeRawPointer($0).assumingMemoryBound(to: UInt8.self) }
        let got = withUnsafeMutablePointer(to: &inPtr) { ins in
            swr_convert(resampler, staging, Int32(stagingCapacity), input == nil ? nil : ins, Int32(frames))
        }
        try avCheck(got, "swr_convert", "'\(path)'", path: path)
        if got > 0 {
            let raw = UnsafeMutableRawPointer(staging!).assumingMemoryBound(to: UnsafeMutableRawPointer?.self)
            let w = av_audio_fifo_write(fifo, raw, got)
            if w < got { throw MediaError("'\(path)': av_audio_fifo_write failed", path: path) }
        }
    }

    /// Encodes whole frames from the FIFO (and the short last one when `final`).
    private func encodeFullFrames(final: Bool) throws {
        while true {
            let available = Int(av_audio_fifo_size(fifo))
            if available == 0 || (available < frameSize && !final) { return }
            let n = min(available, frameSize)
            guard let f = frame else { return }
            try avCheck(av_frame_make_writable(f), "av_frame_make_writable", "'\(path)'", path: path)
            let raw = UnsafeMutableRawPointer(f.pointee.extended_data!).assumingMemoryBound(to: UnsafeMutableRawPointer?.self)
            let r = av_audio_fifo_read(fifo, raw, Int32(n))
            if r < n { throw MediaError("'\(path)': av_audio_fifo_read failed", path: path) }
            f.pointee.nb_samples = Int32(n)
            f.pointee.pts = samplesWritten
            samplesWritten += Int64(n)
            try send(f)
        }
    }

    /// Sends a frame (nil flushes) and writes every packet the encoder returns.
    private func send(_ f: UnsafeMutablePointer<AVFrame>?) throws {
        try avCheck(avcodec_send_frame(codec, f), "avcodec_send_frame", "'\(path)'", path: path)
        while true {
            let r = avcodec_receive_packet(codec, packet)
            if r == spv_eagain() || r == spv_averror_eof() { return }
            try avCheck(r, "avcodec_receive_packet", "'\(path)'", path: path)
            av_packet_rescale_ts(packet, codec!.pointee.time_base, stream!.pointee.time_base)
            packet!.pointee.stream_index = stream!.pointee.index
            try avCheck(av_interleaved_write_frame(format, packet), "av_interleaved_write_frame", "cannot write '\(path)'", path: path)
        }
    }

    private func release() {
        if staging != nil { av_freep(staging); av_freep(&staging) }
        if fifo != nil { av_audio_fifo_free(fifo); fifo = nil }
        if frame != nil { av_frame_free(&frame) }
        if packet != nil { av_packet_free(&packet) }
        if resampler != nil { swr_free(&resampler) }
        if codec != nil { avcodec_free_context(&codec) }
        if let fmt = format {
            if spv_fmt_has_nofile(fmt) == 0, fmt.pointee.pb != nil { avio_closep(&fmt.pointee.pb) }
            avformat_free_context(fmt)
            format = nil
        }
    }
}
