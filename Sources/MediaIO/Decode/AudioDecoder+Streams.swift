import CFFmpeg
import Foundation

extension AudioDecoder {
    /// Marks every stream but `keeping` as discarded (`AVDISCARD_ALL`): the demuxer drops
    /// their packets and nothing decodes them. With `keeping` nil (before the audio stream
    /// is chosen) only the streams that are known not to be sound: attached pictures,
    /// video, subtitles and data.
    static func discard(_ format: UnsafeMutablePointer<AVFormatContext>, keeping: Int32?) {
        for i in 0..<Int(format.pointee.nb_streams) {
            guard let stream = format.pointee.streams[i] else { continue }
            let picture = stream.pointee.disposition & AV_DISPOSITION_ATTACHED_PIC != 0
            let kind = stream.pointee.codecpar.pointee.codec_type
            let drop = keeping.map { Int32(i) != $0 } ?? (picture || (kind != AVMEDIA_TYPE_AUDIO && kind != AVMEDIA_TYPE_UNKNOWN))
            if drop { stream.pointee.discard = AVDISCARD_ALL }
        }
    }

    /// `avformat_find_stream_info` allowed to open audio decoders only, and with `video`
    /// the decoders of the video streams that are not attached pictures (the context's
    /// `codec_whitelist`: an attached picture is queued when the file is opened, before it
    /// can be discarded, and the probe would decode it to learn its size), each capped at
    /// `ImageDecoder.maxPixels` (libavcodec's `max_pixels`) all the same.
    static func findStreamInfo(_ format: UnsafeMutablePointer<AVFormatContext>, video: Bool = false) -> Int32 {
        var allowed = audioDecoders
        if video {
            for i in 0..<Int(format.pointee.nb_streams) {
                guard let st = format.pointee.streams[i], st.pointee.disposition & AV_DISPOSITION_ATTACHED_PIC == 0,
                    st.pointee.codecpar.pointee.codec_type == AVMEDIA_TYPE_VIDEO,
                    let decoder = avcodec_find_decoder(st.pointee.codecpar.pointee.codec_id)
                else { continue }
                allowed += "," + String(cString: decoder.pointee.name)
            }
        }
        av_opt_set(UnsafeMutableRawPointer(format), "codec_whitelist", allowed, 0)
        let count = Int(format.pointee.nb_streams)
        if count > 0 && (0..<count).allSatisfy({ isPCM(format.pointee.streams[$0]) }) { format.pointee.probesize = pcmProbeSize }
        guard count > 0 else { return avformat_find_stream_info(format, nil) }
        let options = UnsafeMutablePointer<OpaquePointer?>.allocate(capacity: count)
        options.initialize(repeating: nil, count: count)
        defer {
            for i in 0..<count { av_dict_free(&options[i]) }
            options.deallocate()
        }
        for i in 0..<count { av_dict_set(&options[i], "max_pixels", String(ImageDecoder.maxPixels), 0) }
        return avformat_find_stream_info(format, options)
    }

    /// Bytes the probe reads when every stream is PCM. Its header says all there is; what is
    /// left to learn is whether the samples carry a compressed stream (DTS in a WAV), whose sync
    /// words start at the first frame. With the default 5 MB, libavformat ran every demuxer's
    /// probe on the samples, in doubling sizes, for 4 ms of a 40 s WAV's ~100 ms `tempo`.
    static let pcmProbeSize: Int64 = 32768

    /// True for a stream that is discarded or holds PCM (libavcodec's PCM ids, 0x10000 up to
    /// the ADPCM ones).
    static func isPCM(_ stream: UnsafeMutablePointer<AVStream>?) -> Bool {
        guard let stream else { return false }
        if stream.pointee.discard == AVDISCARD_ALL { return true }
        let id = stream.pointee.codecpar.pointee.codec_id.rawValue
        return id >= AV_CODEC_ID_PCM_S16LE.rawValue && id < AV_CODEC_ID_ADPCM_IMA_QT.rawValue
    }

    /// The names of this FFmpeg's audio decoders, comma-separated.
    static let audioDecoders: String = {
        var names: [String] = []
        var state: UnsafeMutableRawPointer? = nil
        while let codec = av_codec_iterate(&state) {
            if av_codec_is_decoder(codec) != 0 && codec.pointee.type == AVMEDIA_TYPE_AUDIO {
                names.append(String(cString: codec.pointee.name))
            }
        }
        return names.joined(separator: ",")
    }()

    /// Decodes a regular file to its end with a decoder of its own and returns the seconds
    /// of sound it holds, at the first format's rate; nil for anything that cannot be read
    /// twice (standard input, a pipe, a device) or that does not open.
    static func decodedDuration(path: String, policy: InputPolicy) -> Double? {
        guard path != "-", !path.hasPrefix("pipe:"), InputPolicy.regularFileProblem(path) == nil,
            let other = try? AudioDecoder(path: path, policy: policy)
        else { return nil }
        let frames = other.countFramesToEnd()
        return frames > 0 ? Double(frames) / Double(other.sampleRate) : nil
    }
}

extension InputPolicy {
    /// Why `path` is not a regular file (a FIFO, a device, a directory, missing), or nil
    /// when it is one. `stat` follows links and does not open the file, so a FIFO with no
    /// writer does not block.
    public static func regularFileProblem(_ path: String) -> String? {
        var info = stat()
        guard stat(path, &info) == 0 else { return "cannot open '\(path)': \(String(cString: strerror(errno)))" }
        switch info.st_mode & S_IFMT {
        case S_IFREG: return nil
        case S_IFIFO: return "'\(path)' is a FIFO (named pipe), not a regular file"
        case S_IFCHR, S_IFBLK: return "'\(path)' is a device, not a regular file"
        case S_IFDIR: return "'\(path)' is a directory, not a regular file"
        default: return "'\(path)' is not a regular file"
        }
    }
}
