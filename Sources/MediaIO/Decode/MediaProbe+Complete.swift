import CFFmpeg

extension MediaProbe {
    /// The duration in seconds of a finished media file, read from its header only (cheap:
    /// no demuxing of the whole file); nil when libavformat cannot open it, it states no
    /// duration (a truncated MP4 without `moov`, an empty file), or its index (an MP4's
    /// sample table) places a sample past the file's end (a faststart MP4 cut short).
    public static func headerDuration(path: String) -> Double? {
        _ = quietLibav
        guard let input = try? InputPolicy().open(path) else { return nil }
        defer { input.close() }
        let fmt = input.format
        guard fmt.pointee.nb_streams > 0, avformat_find_stream_info(fmt, nil) >= 0 else { return nil }
        let size = avio_size(fmt.pointee.pb)
        for i in 0..<Int(fmt.pointee.nb_streams) {
            let st = fmt.pointee.streams[i]!
            let n = avformat_index_get_entries_count(st)
            guard n > 0, let last = avformat_index_get_entry(st, n - 1) else { continue }
            if size < 0 || last.pointee.pos + Int64(last.pointee.size) > size { return nil }
        }
        let duration = fmt.pointee.duration
        guard duration != spv_nopts(), duration > 0 else { return nil }
        return Double(duration) / Double(AV_TIME_BASE)
    }
}
