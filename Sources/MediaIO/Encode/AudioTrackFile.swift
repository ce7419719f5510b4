import CFFmpeg
import SpecvizCore

/// The sound of a render on its own (`render --audio-only`): the track a video render
/// would carry, encoded by the same `AudioTrackEncoder` (AAC, at most two channels, the
/// input's rate, the same bit rate) over the same span, into an audio-only container
/// (.m4a, .mp4, .mov, .mkv, .mka). `join --audio` copies its packets into the joined video
/// unchanged, so the sound is encoded once, beside the segments, not after them.
///
/// The file is written under a temporary name and renamed at the end; an error or
/// `cancelled()` leaves nothing behind.
public enum AudioTrackFile {
    /// Extensions whose container carries the AAC track of a render.
    public static let extensions = ["m4a", "mp4", "mov", "mkv", "mka"]

    /// The `comment` tag (MP4 and Matroska keep it) naming where in the original the file
    /// starts: `specviz audio from 60.0` (`join` refuses another --from with it).
    static let tag = "comment"
    static let prefix = "specviz audio from "

    /// Where in its original the sound of `path` starts, when `render --audio-only` wrote it.
    public static func start(ofFile path: String) -> Double? {
        guard AudioPacketCopier.isRegularFile(path), let opened = try? InputPolicy().open(path) else { return nil }
        defer { opened.close() }
        guard let entry = av_dict_get(opened.format.pointee.metadata, tag, nil, 0), let value = entry.pointee.value else { return nil }
        let text = String(cString: value)
        guard text.hasPrefix(prefix) else { return nil }
        return Double(text.dropFirst(prefix.count))
    }

    /// Encodes `source` (positioned at `start` seconds of the original) into `path`: at most
    /// `duration` seconds (nil: to the end of the input). Returns the seconds written.
    @discardableResult
    public static func write(
        source: AudioTrackSource, name: String, to path: String, duration: Double?, start: Double, overwrite: Bool,
        cancelled: () -> Bool = { false }
    ) throws -> Double {
        _ = quietLibav
        let temp = AtomicFile.temporaryPath(for: path)
        var oc: UnsafeMutablePointer<AVFormatContext>? = nil
        guard avformat_alloc_output_context2(&oc, nil, nil, OutputTarget.formatName(temp, fallback: "mp4")) >= 0, let out = oc else {
            throw MediaError("cannot write '\(path)': no container for its extension (use .m4a)", path: path)
        }
        var encoder: AudioTrackEncoder?
        defer {
            encoder = nil
            if spv_fmt_has_nofile(out) == 0, out.pointee.pb != nil { avio_closep(&out.pointee.pb) }
            avformat_free_context(out)
        }
        do {
            encoder = try AudioTrackEncoder(source: source, name: name, format: out, duration: duration)
            av_dict_set(&out.pointee.metadata, tag, prefix + "\(start)", 0)
            try writeContainerHeader(out, temp: temp, path: path)
            let packet = av_packet_alloc()
            defer { var p = packet; av_packet_free(&p) }
            // One second at a time, so a signal is noticed soon.
            var seconds = 1.0
            while !encoder!.ended {
                if cancelled() { throw Interrupted() }
                try encoder!.encode(until: seconds, packet: packet!)
                seconds += 1
            }
            try encoder!.flush(packet: packet!)
            let written = Double(encoder!.core.encoded) / Double(encoder!.core.sampleRate)
            try avCheck(av_write_trailer(out), "av_write_trailer", "cannot write '\(path)'", path: path)
            if spv_fmt_has_nofile(out) == 0 { avio_closep(&out.pointee.pb) }
            try AtomicFile.commit(temp, to: path, overwrite: overwrite)
            return written
        } catch {
            if spv_fmt_has_nofile(out) == 0, out.pointee.pb != nil { avio_closep(&out.pointee.pb) }
            AtomicFile.discard(temp)
            throw error
        }
    }
}
