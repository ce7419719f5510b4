import CFFmpeg
import SpecvizCore

#if canImport(Glibc)
import Glibc
#endif

/// The joined file's sound, written alongside the video packets in time order: encoded from
/// the original (`AudioTrackEncoder`) or copied from an AAC file (`AudioPacketCopier`).
protocol JoinedSound: AnyObject {
    /// Writes the sound up to `seconds` from the start of the joined video.
    func encode(until seconds: Double, packet: UnsafeMutablePointer<AVPacket>) throws
    /// Writes the rest.
    func flush(packet: UnsafeMutablePointer<AVPacket>) throws
}

extension AudioTrackEncoder: JoinedSound {}

/// Copies the AAC track of an audio file (`render --audio-only`, or an AAC original) into
/// the joined file packet by packet, without decoding it: the packets, their timestamps
/// (the encoder's priming included) and durations are the file's, so the joined sound is
/// that file's sound, sample for sample, and as long as it.
public final class AudioPacketCopier: JoinedSound {
    let path: String
    let input: OpenedInput
    let index: Int32
    let out: UnsafeMutablePointer<AVFormatContext>
    let stream: UnsafeMutablePointer<AVStream>
    private var pending = av_packet_alloc()
    private var hasPending = false
    private var ended = false

    /// Whether `path`'s sound can be copied into a video in `container` (a file name with
    /// its extension) as the render's track: AAC with its decoder configuration in the
    /// container (MP4/MOV/Matroska, not raw ADTS), at most two channels (a render mixes
    /// more down to two), at a rate AAC takes, in an MP4, MOV or Matroska output. Any
    /// reason not to is a false, never an error: the sound is then encoded.
    public static func canCopy(_ path: String, into container: String) -> Bool {
        let name = OutputTarget.formatName(container, fallback: "mkv")
        guard let oformat = av_guess_format(nil, name, nil).map({ String(cString: $0.pointee.name) }),
            ["mp4", "mov", "matroska", "ipod"].contains(where: { oformat.contains($0) })
        else { return false }
        // Only a regular file is looked into: a FIFO or a device is read once, by the decoder.
        guard isRegularFile(path), let opened = try? InputPolicy().open(path) else { return false }
        defer { opened.close() }
        guard AudioDecoder.findStreamInfo(opened.format, video: false) >= 0 else { return false }
        let a = av_find_best_stream(opened.format, AVMEDIA_TYPE_AUDIO, -1, -1, nil, 0)
        guard a >= 0, let par = opened.format.pointee.streams[Int(a)]?.pointee.codecpar else { return false }
        let p = par.pointee
        return p.codec_id == AV_CODEC_ID_AAC && p.extradata_size > 0 && (1...2).contains(p.ch_layout.nb_channels)
            && (8000...96000).contains(p.sample_rate)
    }

    /// Whether `path` is a regular file (following links), which can be opened twice.
    static func isRegularFile(_ path: String) -> Bool {
        guard path != "-", !path.hasPrefix("pipe:") else { return false }
        var st = stat()
        return stat(path, &st) == 0 && (st.st_mode & S_IFMT) == S_IFREG
    }

    /// Opens `path` and adds a copy of its audio stream to `out` (before its header).
    init(path: String, format out: UnsafeMutablePointer<AVFormatContext>) throws {
        self.path = path
        self.out = out
        let opened = try InputPolicy().open(path)
        do {
            try avCheck(AudioDecoder.findStreamInfo(opened.format, video: false), "avformat_find_stream_info", "'\(path)'", path: path)
            index = av_find_best_stream(opened.format, AVMEDIA_TYPE_AUDIO, -1, -1, nil, 0)
            guard index >= 0 else { throw MediaError("'\(path)' has no audio stream", path: path) }
            let inStream = opened.format.pointee.streams[Int(index)]!
            guard let s = avformat_new_stream(out, nil) else { throw MediaError("'\(path)': avformat_new_stream failed", path: path) }
            try avCheck(avcodec_parameters_copy(s.pointee.codecpar, inStream.pointee.codecpar), "avcodec_parameters_copy", path, path: path)
            s.pointee.codecpar.pointee.codec_tag = 0
            s.pointee.time_base = inStream.pointee.time_base
            stream = s
        } catch {
            opened.close()
            throw error
        }
        input = opened
    }

    deinit {
        av_packet_free(&pending)
        input.close()
    }

    var inputTimeBase: AVRational { input.format.pointee.streams[Int(index)]!.pointee.time_base }

    /// Reads the next packet of the audio stream into `pending`; false at the end.
    private func readNext() throws -> Bool {
        while !ended {
            let r = av_read_frame(input.format, pending)
            if r == spv_averror_eof() { ended = true; break }
            try avCheck(r, "av_read_frame", "'\(path)'", path: path)
            if pending!.pointee.stream_index == index { return true }
            av_packet_unref(pending)
        }
        return false
    }

    func encode(until seconds: Double, packet _: UnsafeMutablePointer<AVPacket>) throws {
        let tb = inputTimeBase
        while true {
            if !hasPending {
                guard try readNext() else { return }
                hasPending = true
            }
            let p = pending!.pointee
            let ts = p.dts != spv_nopts() ? p.dts : p.pts
            if ts != spv_nopts() && Double(ts) * Double(tb.num) / Double(tb.den) > seconds { return }
            try writePending(tb)
        }
    }

    func flush(packet: UnsafeMutablePointer<AVPacket>) throws {
        try encode(until: .infinity, packet: packet)
    }

    private func writePending(_ tb: AVRational) throws {
        hasPending = false
        av_packet_rescale_ts(pending, tb, stream.pointee.time_base)
        pending!.pointee.stream_index = stream.pointee.index
        pending!.pointee.pos = -1
        try avCheck(av_interleaved_write_frame(out, pending), "av_interleaved_write_frame", "cannot write the sound of '\(path)'", path: path)
    }
}
