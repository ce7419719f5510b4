import CFFmpeg

/// What a media file holds: its streams, their codecs, durations and packet counts
/// (read by demuxing the whole file, so counts are exact).
public struct MediaProbe: Sendable {
    public struct Stream: Sendable {
        public var kind: String // "video", "audio", …
        public var codec: String // e.g. "h264", "aac"
        public var duration: Double // seconds (from packet timestamps)
        public var packets: Int
        public var width: Int
        public var height: Int
        public var sampleRate: Int
    }

    public var streams: [Stream]
    public var formatName: String

    /// Opens `path` under the default `InputPolicy` (local files only, no playlists).
    public init(path: String) throws {
        _ = quietLibav
        let input = try InputPolicy().open(path)
        let fmt = input.format
        defer { input.close() }
        try avCheck(avformat_find_stream_info(fmt, nil), "avformat_find_stream_info", path, path: path)
        formatName = String(cString: fmt.pointee.iformat.pointee.name)
        var list: [Stream] = []
        var ends: [Int64] = []
        var starts: [Int64] = []
        for i in 0..<Int(fmt.pointee.nb_streams) {
            let par = fmt.pointee.streams[i]!.pointee.codecpar!.pointee
            list.append(
                Stream(
                    kind: av_get_media_type_string(par.codec_type).map { String(cString: $0) } ?? "unknown",
                    codec: String(cString: avcodec_get_name(par.codec_id)), duration: 0, packets: 0,
                    width: Int(par.width), height: Int(par.height), sampleRate: Int(par.sample_rate)))
            ends.append(Int64.min)
            starts.append(Int64.max)
        }
        let pkt = av_packet_alloc()
        defer { var p = pkt; av_packet_free(&p) }
        while av_read_frame(fmt, pkt) >= 0 {
            let s = Int(pkt!.pointee.stream_index)
            guard s < list.count else { av_packet_unref(pkt); continue } // a stream that appeared late
            list[s].packets += 1
            let pts = pkt!.pointee.pts
            if pts != spv_nopts() {
                starts[s] = min(starts[s], pts)
                ends[s] = max(ends[s], pts + pkt!.pointee.duration)
            }
            av_packet_unref(pkt)
        }
        for i in list.indices where ends[i] != Int64.min {
            list[i].duration = Double(ends[i] - starts[i]) * av_q2d(fmt.pointee.streams[i]!.pointee.time_base)
        }
        streams = list
    }
}
