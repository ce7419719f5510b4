import CFFmpeg
import SpecvizCore

/// Encodes sound read from a source (already positioned at the render's start) into an
/// audio stream of an output container (AAC for MP4/MOV/MKV, the container's default
/// otherwise), at most `duration` seconds of it, so it lines up with the rendered frames.
/// It does not open or decode the input itself: the render reads the input once (`AudioTee`).
/// Streams: bounded memory for any length. The encoding is `AudioStreamEncoder`'s.
final class AudioTrackEncoder {
    let source: AudioTrackSource
    let core: AudioStreamEncoder
    private var input: [Float]
    private let endSample: Int?
    private var inputPosition = 0
    private var inputDone = false

    init(source: AudioTrackSource, name path: String, format oc: UnsafeMutablePointer<AVFormatContext>, duration: Double?) throws {
        self.source = source
        let formatName = String(cString: oc.pointee.oformat.pointee.name)
        // AAC in MP4/MOV and in Matroska too (libavformat's Matroska default is Vorbis).
        let codecID =
            formatName.contains("matroska") || formatName.contains("mp4") || formatName.contains("mov")
            ? AV_CODEC_ID_AAC : oc.pointee.oformat.pointee.audio_codec
        guard let codec = avcodec_find_encoder(codecID) else {
            throw MediaError("no audio encoder for this container", path: path)
        }
        let channels = min(source.channelCount, 2)
        core = try AudioStreamEncoder(
            format: oc, encoder: codec, inputRate: source.sampleRate, inputChannels: source.channelCount,
            channels: channels, bitRate: channels == 1 ? 128_000 : 192_000, name: path, path: path)
        input = [Float](repeating: 0, count: 4096 * source.channelCount)
        endSample = duration.map { Int(max(0, min($0 * Double(source.sampleRate), 1e15)).rounded()) }
    }

    var stream: UnsafeMutablePointer<AVStream> { core.stream }

    /// The input is read to its end (or to `duration`): what is left is in the FIFO.
    var ended: Bool { inputDone }

    /// Pulls one chunk of input through the resampler into the FIFO. False at the end.
    private func pull() throws -> Bool {
        guard !inputDone else { return false }
        var n = try input.withUnsafeMutableBufferPointer { try source.readInterleaved(into: $0) }
        if n == 0 { inputDone = true }
        if let end = endSample {
            n = max(0, min(n, end - inputPosition))
            if inputPosition + n >= end { inputDone = true }
        }
        inputPosition += n
        if n > 0 { try input.withUnsafeBufferPointer { try core.append($0.baseAddress!, frames: n) } }
        return true
    }

    /// Encodes sound until `seconds` of it (from the start) are in the file, or the input ends.
    func encode(until seconds: Double, packet _: UnsafeMutablePointer<AVPacket>) throws {
        let target = Int(max(0, min(seconds * Double(core.sampleRate), 1e15)))
        while core.encoded < target {
            if core.buffered < core.frameSize {
                if try !pull() { return }
                continue
            }
            try core.encodeFrame()
        }
    }

    /// Encodes whatever is left and flushes the encoder.
    func flush(packet _: UnsafeMutablePointer<AVPacket>) throws {
        while try pull() {}
        try core.finish()
    }
}
