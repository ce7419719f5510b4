import CFFmpeg
import SpecvizCore

/// Joins video files rendered as consecutive segments (`render --segment K/N`) into one,
/// by stream copy: the compressed video packets are copied unchanged (no re-encode), with
/// their timestamps shifted by the length of the parts before them.
///
/// Sound: with `audio` (the original, read from the render's --from) the original's sound is
/// encoded once over the whole joined span (for the joined video's length), so there is no gap or click
/// at a join; with `copyingAudio` (an AAC file: `render --audio-only`, or an AAC original)
/// its packets are copied unchanged, the sound encoded once beside the segments; without
/// either the parts' own audio packets are copied (each part's encoder priming may then be
/// audible at the joins).
///
/// All parts must hold the same video stream kind (codec, size, frame rate and codec
/// header). The output is written under a temporary name and renamed at the end.
public enum StreamJoiner {
    public struct Summary: Sendable {
        /// Video frames and length in seconds of the joined file.
        public var frames: Int
        public var seconds: Double
    }

    /// One opened part: its demuxer and stream indices.
    final class Part {
        let path: String
        let input: OpenedInput
        var ctx: UnsafeMutablePointer<AVFormatContext>? { input.format }
        let video: Int32
        let audio: Int32

        /// Opened like every input (`InputPolicy`: a local file, no playlists, no nested opens).
        init(path: String) throws {
            self.path = path
            let opened = try InputPolicy().open(path)
            let c = opened.format
            do {
                // Its pictures are never decoded, its video only as far as the probe needs.
                try avCheck(AudioDecoder.findStreamInfo(c, video: true), "avformat_find_stream_info", "'\(path)'", path: path)
            } catch {
                opened.close()
                throw error
            }
            let v = av_find_best_stream(c, AVMEDIA_TYPE_VIDEO, -1, -1, nil, 0)
            guard v >= 0 else {
                opened.close()
                throw MediaError("'\(path)' has no video stream", path: path)
            }
            input = opened
            video = v
            audio = av_find_best_stream(c, AVMEDIA_TYPE_AUDIO, -1, -1, nil, 0)
        }

        deinit { input.close() }

        func stream(_ i: Int32) -> UnsafeMutablePointer<AVStream> { ctx!.pointee.streams[Int(i)]! }
        var videoParameters: UnsafeMutablePointer<AVCodecParameters> { stream(video).pointee.codecpar }

        /// Frames of the video stream: its whole packets, counted by reading the part (a
        /// header's count is what was meant, not what is there: a cut file keeps it).
        func frameCount() throws -> Int {
            var n = 0
            let pkt = av_packet_alloc()!
            defer { var p: UnsafeMutablePointer<AVPacket>? = pkt; av_packet_free(&p) }
            while av_read_frame(ctx, pkt) >= 0 {
                if pkt.pointee.stream_index == video && pkt.pointee.size > 0 && pkt.pointee.flags & AV_PKT_FLAG_CORRUPT == 0 {
                    n += 1
                }
                av_packet_unref(pkt)
            }
            try avCheck(avformat_seek_file(ctx, -1, Int64.min, 0, 0, 0), "avformat_seek_file", "'\(path)'", path: path)
            return n
        }

        /// What the part says it is (`render --segment` writes it).
        var stamp: SegmentStamp? { SegmentStamp.read(from: ctx!) }

        /// Frames per second as a rational (the stream's average rate).
        var frameRate: AVRational { stream(video).pointee.avg_frame_rate }
    }

    /// Joins `parts` (in order) into `path`. Throws before writing anything when a part
    /// cannot be read or does not match the first.
    @discardableResult
    public static func join(
        parts paths: [String], to path: String, audio: AudioTrackSource? = nil,
        audioName: String = "audio", copyingAudio: String? = nil
    ) throws -> Summary {
        _ = quietLibav
        guard let firstPath = paths.first else { throw MediaError("nothing to join: no parts given") }
        var first: Part? = try Part(path: firstPath)
        let rate = first!.frameRate
        guard rate.num > 0, rate.den > 0 else { throw MediaError("'\(firstPath)' has no frame rate") }
        let frames = try checkParts(paths, first: first!, ownSound: audio == nil && copyingAudio == nil)
        let seconds = Double(frames) * Double(rate.den) / Double(rate.num)

        let temp = AtomicFile.temporaryPath(for: path)
        var oc: UnsafeMutablePointer<AVFormatContext>? = nil
        guard avformat_alloc_output_context2(&oc, nil, nil, OutputTarget.formatName(temp, fallback: "mkv")) >= 0, let out = oc else {
            throw MediaError("cannot write '\(path)': no container for its extension (try .mp4, .mkv, .mov)", path: path)
        }
        var copier: PacketCopier?
        defer {
            copier = nil
            if spv_fmt_has_nofile(out) == 0, out.pointee.pb != nil { avio_closep(&out.pointee.pb) }
            avformat_free_context(out)
        }
        do {
            copier = try PacketCopier(out: out, first: first!, rate: rate, path: path)
            if let copyingAudio {
                copier!.audioEncoder = try AudioPacketCopier(path: copyingAudio, format: out)
            } else if let audio {
                copier!.audioEncoder = try AudioTrackEncoder(source: audio, name: audioName, format: out, duration: seconds)
            } else if first!.audio >= 0 {
                try copier!.copyAudio(of: first!)
            }
            // The first part's tags (its cover is not copied), without its segment stamp.
            _ = OutputTags(entries: OutputTags.kept(from: first!.ctx!).entries).apply(to: out)
            first = nil
            try writeContainerHeader(out, temp: temp, path: path)
            for p in paths { try copier!.copy(try Part(path: p)) }
            try copier!.finishAudio(until: seconds)
            try avCheck(av_write_trailer(out), "av_write_trailer", "cannot write '\(path)'", path: path)
            if spv_fmt_has_nofile(out) == 0 { avio_closep(&out.pointee.pb) }
            try AtomicFile.commit(temp, to: path)
        } catch {
            if spv_fmt_has_nofile(out) == 0, out.pointee.pb != nil { avio_closep(&out.pointee.pb) }
            AtomicFile.discard(temp)
            throw error
        }
        return Summary(frames: frames, seconds: seconds)
    }

    /// Checks every part against the first (and their stamps as a set) and counts their
    /// frames.
    static func checkParts(_ paths: [String], first: Part, ownSound: Bool) throws -> Int {
        var frames = 0
        var stamps: [(path: String, stamp: SegmentStamp?, frames: Int)] = []
        for (i, p) in paths.enumerated() {
            let part = i == 0 ? first : try Part(path: p)
            try checkMatch(part, first)
            if ownSound && (part.audio < 0) != (first.audio < 0) {
                throw MediaError("'\(p)' and '\(first.path)' differ in having sound: give --audio ORIGINAL")
            }
            let n = try part.frameCount()
            stamps.append((p, part.stamp, n))
            frames += n
        }
        try checkSet(stamps)
        return frames
    }

    static func shift(_ pkt: UnsafeMutablePointer<AVPacket>, by delta: Int64) {
        if pkt.pointee.pts != spv_nopts() { pkt.pointee.pts += delta }
        if pkt.pointee.dts != spv_nopts() { pkt.pointee.dts += delta }
    }

    /// Throws unless `part`'s video can follow `first`'s in one stream.
    static func checkMatch(_ part: Part, _ first: Part) throws {
        let a = part.videoParameters.pointee, b = first.videoParameters.pointee
        let ra = part.frameRate, rb = first.frameRate
        let sameHeader =
            a.extradata_size == b.extradata_size
            && (a.extradata_size == 0 || memcmp(a.extradata, b.extradata, Int(a.extradata_size)) == 0)
        guard a.codec_id == b.codec_id, a.width == b.width, a.height == b.height, a.format == b.format,
            Int64(ra.num) * Int64(rb.den) == Int64(rb.num) * Int64(ra.den), sameHeader
        else {
            throw MediaError("'\(part.path)' does not match '\(first.path)' (codec, size, frame rate or encoder settings differ): cannot join by stream copy")
        }
    }
}
