import CFFmpeg
import SpecvizCore

/// Decodes the best audio stream of any file libavformat opens, streaming:
/// packets are read only as samples are asked for, so memory stays bounded
/// for hour-long input. Output is float at the stream's own rate, either as
/// a mono mix (`readMono`) or interleaved (`readInterleaved`).
public final class AudioDecoder: AudioSource, CustomStringConvertible {
    public let path: String
    /// The rate and channels of the first decoded frame (what the whole stream is read
    /// at: a later change of format is resampled to it).
    public private(set) var sampleRate: Int
    public private(set) var channelCount: Int
    /// The length in seconds of what decodes: for a regular file, measured by decoding it
    /// once to the end on first use (a container's own figure is an estimate: a VBR mp3
    /// without a Xing header, a truncated FLAC or junk in the middle make it wrong); nil for
    /// standard input, pipes and devices, which are read once and end when they end.
    public private(set) lazy var duration: Double? = Self.decodedDuration(path: path, policy: policy)
    /// The container's estimate of the length (progress display only, never an end).
    public let estimatedDuration: Double?
    /// The codec's name, e.g. `pcm_s16le`, `flac`, `mp3`.
    public let codecName: String
    /// The name it was opened with (for messages).
    public var description: String { path }
    /// Title, artist, album and the embedded cover, read when the file is opened.
    public let tags: MediaTags
    /// Which channels `readMono` (and an `AudioTee`'s analysis side) hears.
    public var channelChoice = ChannelChoice.mix

    private var format: UnsafeMutablePointer<AVFormatContext>?
    private var codec: UnsafeMutablePointer<AVCodecContext>?
    private var resampler: OpaquePointer?
    private let streamIndex: Int32
    private let packet: UnsafeMutablePointer<AVPacket>
    private let frame: UnsafeMutablePointer<AVFrame>
    /// Interleaved float samples converted but not yet handed out.
    private var pending: [Float] = []
    private var pendingStart = 0
    private var draining = false
    private var finished = false

    /// Samples that were NaN, infinite or beyond ±`sampleLimit` (a damaged or hostile float
    /// file): read as 0 (non-finite) or clamped, so analysis and drawing stay finite.
    public private(set) var replacedSamples = 0
    /// Called once, on the first replaced sample, with a one-line explanation (at once when
    /// set after the first frame, read when the file is opened, held some).
    public var onReplacedSamples: ((String) -> Void)? { didSet { reportReplaced() } }
    private var reportedReplaced = false
    /// The largest magnitude passed through (+60 dB over full scale).
    public static let sampleLimit: Float = 1000

    private var input: OpenedInput?
    private let policy: InputPolicy
    /// Until the first frame is decoded: take its rate and channels as the stream's.
    private var adoptsFirstFormat = false
    /// The input format the resampler was set up for (a stream may change rate or layout).
    private var resamplerInput: (rate: Int32, format: Int32, layout: AVChannelLayout)?

    /// Opens `path` (`-` is standard input) under `policy` (see `InputPolicy`: local files
    /// and pipes only, no playlists unless allowed). Throws a `MediaError` naming the file
    /// when it cannot be opened, holds no audio stream, or its codec is unknown.
    public init(path: String, policy: InputPolicy = InputPolicy()) throws {
        _ = quietLibav
        self.path = path
        self.policy = policy
        let opened = try policy.open(path)
        input = opened
        let fmt: UnsafeMutablePointer<AVFormatContext>? = opened.format
        format = fmt
        packet = av_packet_alloc()
        frame = av_frame_alloc()
        do {
            // Pictures and video are never decoded for sound (an attached 100-megapixel
            // cover would be decoded here to read its size): they are discarded, and the
            // probe may open audio decoders only.
            Self.discard(fmt!, keeping: nil)
            let info = Self.findStreamInfo(fmt!)
            if opened.refusedOpens > 0 { throw MediaError("cannot open '\(path)': \(OpenedInput.refusalText)", path: path) }
            try avCheck(info, "avformat_find_stream_info", "'\(path)' is not a readable media file", path: path)
            let index = av_find_best_stream(fmt, AVMEDIA_TYPE_AUDIO, -1, -1, nil, 0)
            guard index >= 0 else { throw MediaError("'\(path)' holds no audio stream", path: path) }
            streamIndex = index
            Self.discard(fmt!, keeping: index)
            let stream = fmt!.pointee.streams[Int(index)]!
            let params = stream.pointee.codecpar!
            guard let decoder = avcodec_find_decoder(params.pointee.codec_id) else {
                throw MediaError("'\(path)': no decoder for its audio codec", path: path)
            }
            codecName = String(cString: decoder.pointee.name)
            let ctx = avcodec_alloc_context3(decoder)
            codec = ctx
            try avCheck(avcodec_parameters_to_context(ctx, params), "avcodec_parameters_to_context", "'\(path)'", path: path)
            try avCheck(avcodec_open2(ctx, decoder, nil), "avcodec_open2", "'\(path)'", path: path)
            let rate = Int(ctx!.pointee.sample_rate)
            let channels = Int(ctx!.pointee.ch_layout.nb_channels)
            guard rate >= 1000, rate <= 768_000, channels > 0 else {
                throw MediaError("'\(path)': audio stream has no usable sample rate or channels", path: path)
            }
            sampleRate = rate
            channelCount = channels
            var seconds: Double?
            if stream.pointee.duration > 0 {
                seconds = Double(stream.pointee.duration) * av_q2d(stream.pointee.time_base)
            } else if fmt!.pointee.duration > 0 {
                seconds = Double(fmt!.pointee.duration) / Double(AV_TIME_BASE)
            }
            estimatedDuration = seconds.flatMap { $0.isFinite && $0 > 0 ? $0 : nil }
            tags = MediaTags(format: fmt!, audioStream: index)
            // The first frame says what the stream starts as (the probe may have left the
            // context at a later frame's format).
            adoptsFirstFormat = true
            _ = try refill()
        } catch {
            Self.release(format: &format, codec: &codec, resampler: &resampler, input: &input)
            var p: UnsafeMutablePointer<AVPacket>? = packet
            av_packet_free(&p)
            var f: UnsafeMutablePointer<AVFrame>? = frame
            av_frame_free(&f)
            throw error
        }
    }

    deinit {
        if var current = resamplerInput { av_channel_layout_uninit(&current.layout) }
        Self.release(format: &format, codec: &codec, resampler: &resampler, input: &input)
        var p: UnsafeMutablePointer<AVPacket>? = packet
        av_packet_free(&p)
        var f: UnsafeMutablePointer<AVFrame>? = frame
        av_frame_free(&f)
    }

    private static func release(
        format: inout UnsafeMutablePointer<AVFormatContext>?,
        codec: inout UnsafeMutablePointer<AVCodecContext>?,
        resampler: inout OpaquePointer?, input: inout OpenedInput?
    ) {
        if resampler != nil { swr_free(&resampler) }
        if codec != nil { avcodec_free_context(&codec) }
        input?.close()
        input = nil
        format = nil
    }

    /// Reads up to `buffer.count` mono samples (mean of the channels). 0 at the end.
    public func readMono(into buffer: UnsafeMutableBufferPointer<Float>) throws -> Int {
        let channels = channelCount
        var written = 0
        while written < buffer.count {
            if pendingStart >= pending.count {
                guard try refill() else { break }
            }
            let available = (pending.count - pendingStart) / channels
            let n = min(available, buffer.count - written)
            pending.withUnsafeBufferPointer { src in
                mixToMono(
                    src.baseAddress! + pendingStart, channels: channels, frames: n, into: buffer.baseAddress! + written,
                    choice: channelChoice)
            }
            pendingStart += n * channels
            written += n
        }
        return written
    }

    /// Reads up to `frames` interleaved frames (`channelCount` floats each) into `buffer`.
    /// Returns frames written; 0 at the end.
    public func readInterleaved(into buffer: UnsafeMutableBufferPointer<Float>) throws -> Int {
        let channels = channelCount
        let capacity = buffer.count / channels
        var written = 0
        while written < capacity {
            if pendingStart >= pending.count {
                guard try refill() else { break }
            }
            let available = (pending.count - pendingStart) / channels
            let n = min(available, capacity - written)
            pending.withUnsafeBufferPointer { src in
                for i in 0..<(n * channels) { buffer[written * channels + i] = src[pendingStart + i] }
            }
            pendingStart += n * channels
            written += n
        }
        return written
    }

    /// Decodes to the end and returns how many frames were left to read (they are not
    /// handed out: a decoder used to measure the length).
    func countFramesToEnd() -> Int {
        var n = (pending.count - pendingStart) / channelCount
        while (try? refill()) == true { n += pending.count / channelCount }
        pendingStart = pending.count
        return n
    }

    /// Decodes the next frame into `pending`. Returns false at the end of the stream.
    private func refill() throws -> Bool {
        pending.removeAll(keepingCapacity: true)
        pendingStart = 0
        while !finished {
            let r = avcodec_receive_frame(codec, frame)
            if r == 0 {
                try convert(frame)
                av_frame_unref(frame)
                if !pending.isEmpty { return true }
                continue
            }
            if r == spv_averror_eof() { finished = true; break }
            if r != spv_eagain() {
                // A corrupt frame: skip it rather than abort the whole file.
                if r == spv_averror(EINVAL) { throw MediaError("'\(path)': decoder failed: \(MediaError.avText(r))", code: r, path: path) }
                continue
            }
            if draining { finished = true; break }
            // Feed the decoder another packet of our stream.
            while true {
                let rr = av_read_frame(format, packet)
                if rr < 0 {
                    draining = true
                    avcodec_send_packet(codec, nil)
                    break
                }
                defer { av_packet_unref(packet) }
                if packet.pointee.stream_index == streamIndex {
                    let s = avcodec_send_packet(codec, packet)
                    if s < 0 && s != spv_eagain() && s != spv_averror_eof() {
                        // Damaged packet: skip it (a truncated file still yields what it has).
                        continue
                    }
                    break
                }
            }
        }
        // Flush anything the resampler still holds.
        if let swr = resampler {
            let out = swr_get_delay(swr, Int64(sampleRate))
            if out > 0 {
                try flushResampler(swr, frames: Int(out) + 32)
                swr_free(&resampler)
                return !pending.isEmpty
            }
        }
        return false
    }

    /// The resampler for frames like `f`: the one in use while the stream's rate, sample
    /// format and layout stay those it was set up for; when they change mid-stream (a
    /// chained Ogg, a spliced mp3), what it still holds is flushed and a new one converts
    /// the new format to the FIRST one (`sampleRate`, `channelCount`), so the sound keeps
    /// its speed and its channels.
    private func setUpResampler(for f: UnsafeMutablePointer<AVFrame>) throws -> OpaquePointer {
        var inLayout = AVChannelLayout()
        if f.pointee.ch_layout.nb_channels > 0 && f.pointee.ch_layout.order != AV_CHANNEL_ORDER_UNSPEC {
            av_channel_layout_copy(&inLayout, &f.pointee.ch_layout)
        } else {
            let n = f.pointee.ch_layout.nb_channels > 0 ? f.pointee.ch_layout.nb_channels : Int32(channelCount)
            av_channel_layout_default(&inLayout, n)
        }
        let inRate = f.pointee.sample_rate > 0 ? f.pointee.sample_rate : Int32(sampleRate)
        if let swr = resampler, var current = resamplerInput {
            let same = current.rate == inRate && current.format == f.pointee.format && av_channel_layout_compare(&current.layout, &inLayout) == 0
            if same {
                av_channel_layout_uninit(&inLayout)
                return swr
            }
            let delay = swr_get_delay(swr, Int64(sampleRate))
            if delay > 0 { try flushResampler(swr, frames: Int(delay) + 32) }
            swr_free(&resampler)
            av_channel_layout_uninit(&current.layout)
            resamplerInput = nil
        }
        if var stale = resamplerInput {
            av_channel_layout_uninit(&stale.layout)
            resamplerInput = nil
        }
        guard inLayout.nb_channels <= 64, inRate <= 768_000 else {
            av_channel_layout_uninit(&inLayout)
            throw MediaError("'\(path)': audio changes to an unusable format mid-stream", path: path)
        }
        var swr: OpaquePointer? = nil
        var outLayout = AVChannelLayout()
        av_channel_layout_default(&outLayout, Int32(channelCount))
        let made = swr_alloc_set_opts2(
            &swr, &outLayout, AV_SAMPLE_FMT_FLT, Int32(sampleRate),
            &inLayout, AVSampleFormat(f.pointee.format), inRate, 0, nil)
        if made < 0 || swr_init(swr) < 0 {
            swr_free(&swr)
            av_channel_layout_uninit(&inLayout)
            throw MediaError(
                "'\(path)': cannot convert its audio (\(f.pointee.ch_layout.nb_channels) channels, sample format \(f.pointee.format), \(f.pointee.sample_rate) Hz)",
                code: made, path: path)
        }
        resampler = swr
        resamplerInput = (inRate, f.pointee.format, inLayout)
        return swr!
    }

    private func convert(_ f: UnsafeMutablePointer<AVFrame>) throws {
        if adoptsFirstFormat {
            adoptsFirstFormat = false
            let rate = Int(f.pointee.sample_rate), channels = Int(f.pointee.ch_layout.nb_channels)
            if rate >= 1000 && rate <= 768_000 && channels > 0 && channels <= 64 {
                sampleRate = rate
                channelCount = channels
            }
        }
        let swr = try setUpResampler(for: f)
        try resample(
            swr, frames: Int(swr_get_out_samples(swr, f.pointee.nb_samples)) + 16,
            input: spv_frame_data_cptr(f), count: f.pointee.nb_samples)
    }

    /// Replaces non-finite samples by 0 and clamps huge ones, from `start` to the end of
    /// `pending`; counts them and reports the first once. Does not allocate.
    private func sanitize(from start: Int) {
        let limit = Self.sampleLimit
        var bad = 0
        pending.withUnsafeMutableBufferPointer { p in
            // Almost always every sample is fine: find that out eight at a time first.
            var fine = true, i = start
            let top = SIMD8<Float>(repeating: limit)
            while fine && i + 8 <= p.count {
                let v = UnsafeRawPointer(p.baseAddress! + i).loadUnaligned(as: SIMD8<Float>.self)
                fine = all((v .<= top) .& (v .>= -top)) // NaN fails both
                i += 8
            }
            if fine { while i < p.count && abs(p[i]) <= limit { i += 1 } }
            if fine && i == p.count { return }
            for i in start..<p.count {
                let x = p[i]
                if !(abs(x) <= limit) { // NaN fails every comparison
                    p[i] = x.isFinite ? (x > 0 ? limit : -limit) : 0
                    bad += 1
                }
            }
        }
        guard bad > 0 else { return }
        replacedSamples += bad
        reportReplaced()
    }

    private func reportReplaced() {
        guard replacedSamples > 0, !reportedReplaced, let report = onReplacedSamples else { return }
        reportedReplaced = true
        report("'\(path)' holds NaN, infinite or out-of-range samples; they are read as silence (or clamped)")
    }

    private func flushResampler(_ swr: OpaquePointer, frames: Int) throws {
        try resample(swr, frames: frames, input: nil, count: 0)
    }

    /// Converts `count` input frames (nil: the resampler's delay at the end) into at most
    /// `frames` output frames appended to `pending`, sanitized.
    private func resample(_ swr: OpaquePointer, frames: Int, input: UnsafeMutablePointer<UnsafePointer<UInt8>?>?, count: Int32) throws {
        let base = pending.count
        pending.append(contentsOf: repeatElement(0, count: frames * channelCount))
        let got: Int32 = pending.withUnsafeMutableBufferPointer { dst in
            var outPtr: UnsafeMutablePointer<UInt8>? = UnsafeMutableRawPointer(dst.baseAddress! + base)
                .assumingMemoryBound(to: UInt8.self)
            return withUnsafeMutablePointer(to: &outPtr) { outs in
                swr_convert(swr, outs, Int32(frames), input, count)
            }
        }
        try avCheck(got, "swr_convert", "'\(path)'", path: path)
        pending.removeLast((frames - Int(got)) * channelCount)
        sanitize(from: base)
    }
}
