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
    private var core: AudioStreamEncoder?
    private var state = State.open
    private enum State { case open, finished, failed }

    /// Creates the writer and the temporary file.
    /// - Parameters: path (its extension picks the format), sampleRate (Hz), channels (1–8),
    ///   wavFloat (`.wav` as 32-bit float instead of 16-bit PCM), bitRate (bits/s for lossy codecs).
    ///   overwrite: replace an existing file (otherwise the final name is created exclusively).
    public init(
        path: String, sampleRate: Int, channels: Int, wavFloat: Bool = false, bitRate: Int = 192_000,
        overwrite: Bool = true
    ) throws {
        _ = quietLibav
        guard sampleRate >= 1000, (1...8).contains(channels) else {
            throw MediaError("'\(path)': cannot write \(channels) channels at \(sampleRate) Hz", path: path)
        }
        guard path != OutputTarget.standardOutput else {
            throw MediaError("'-': sound is written to a file (.wav, .flac, .mp3, .ogg, .opus or .m4a), not standard output", path: path)
        }
        self.path = path
        self.overwrite = overwrite
        self.sampleRate = sampleRate
        self.channels = channels
        let named = OutputTarget.formatName(path, fallback: "wav")
        let base = named.lastIndex(of: "/").map { String(named[named.index(after: $0)...]) } ?? named
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
            let c = try AudioStreamEncoder(
                format: fmt!, encoder: encoder, inputRate: sampleRate, inputChannels: channels,
                channels: channels, bitRate: bitRate, experimental: experimental,
                name: "'\(path)'", path: path)
            core = c
            codecName = c.codecName
            encodedSampleRate = c.sampleRate
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
    private static func encoder(
        for ext: String, wavFloat: Bool, oformat: UnsafePointer<AVOutputFormat>,
        path: String
    ) throws -> (UnsafePointer<AVCodec>, Bool) {
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
            let c = avcodec_find_encoder(oformat.pointee.audio_codec)
        {
            return (c, false)
        }
        throw MediaError("'\(path)': no audio encoder available for '.\(ext)'", path: path)
    }

    /// Appends interleaved frames (`channels` floats each, nominally −1…1).
    public func write(_ interleaved: UnsafeBufferPointer<Float>) throws {
        guard state == .open else { throw MediaError("'\(path)': write after finish, cancel or an earlier error", path: path) }
        let frames = interleaved.count / channels
        guard frames > 0 else { return }
        do {
            try core!.append(interleaved.baseAddress, frames: frames)
            try core!.encodeWholeFrames()
        } catch { fail(); throw error }
    }

    /// Flushes the encoder, writes the trailer and renames the file into place.
    public func finish() throws {
        guard state == .open else { return }
        do {
            try core!.finish()
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

    private func release() {
        core = nil
        if let fmt = format {
            if spv_fmt_has_nofile(fmt) == 0, fmt.pointee.pb != nil { avio_closep(&fmt.pointee.pb) }
            avformat_free_context(fmt)
            format = nil
        }
    }
}
