import CFFmpeg
import SpecvizCore

/// What a video says about itself (issue 40): container tags (title, artist, album and any
/// others, in order; a later key replaces an earlier one) and the cover picture. MP4
/// keeps the cover as an attached picture (JPEG or PNG), Matroska as an attachment (JPEG,
/// PNG or WebP; players and ffprobe show it as an attached picture); MOV (libavformat
/// writes no cover there), WebM and GIF keep no picture.
public struct OutputTags: Sendable, Equatable {
    public struct Entry: Sendable, Equatable {
        public var key: String
        public var value: String
        public init(_ key: String, _ value: String) {
            self.key = key
            self.value = value
        }
    }

    public var entries: [Entry] = []
    /// The cover's encoded bytes (JPEG, PNG or WebP).
    public var cover: [UInt8]?

    public init(entries: [Entry] = [], cover: [UInt8]? = nil) {
        self.entries = entries
        self.cover = cover
    }

    /// Sets `key` (replacing it when present; nil or empty: nothing).
    public mutating func set(_ key: String, _ value: String?) {
        guard let value, !value.isEmpty else { return }
        entries.removeAll { $0.key.lowercased() == key.lowercased() }
        entries.append(Entry(key, value))
    }

    /// The picture's kind from its first bytes: (codec, MIME type, file name).
    static func pictureKind(_ bytes: [UInt8]) -> (AVCodecID, String, String)? {
        if bytes.starts(with: [0xFF, 0xD8, 0xFF]) { return (AV_CODEC_ID_MJPEG, "image/jpeg", "cover.jpg") }
        if bytes.starts(with: [0x89, 0x50, 0x4E, 0x47]) { return (AV_CODEC_ID_PNG, "image/png", "cover.png") }
        if bytes.count > 12, bytes.starts(with: Array("RIFF".utf8)), bytes[8..<12].elementsEqual("WEBP".utf8) {
            return (AV_CODEC_ID_WEBP, "image/webp", "cover.webp")
        }
        return nil
    }

    /// Sets the tags on `oc` and adds the cover's stream where the container keeps one
    /// (before the header is written). Returns the attached picture stream whose one packet
    /// `writeCover` writes after the header (nil: none, or an attachment, which needs none).
    func apply(to oc: UnsafeMutablePointer<AVFormatContext>) -> UnsafeMutablePointer<AVStream>? {
        for e in entries { av_dict_set(&oc.pointee.metadata, e.key, e.value, 0) }
        guard let cover, let (codec, mime, name) = Self.pictureKind(cover) else { return nil }
        let container = String(cString: oc.pointee.oformat.pointee.name)
        if container == "matroska" {
            guard let st = avformat_new_stream(oc, nil), let data = av_mallocz(cover.count + Int(AV_INPUT_BUFFER_PADDING_SIZE)) else {
                return nil
            }
            cover.withUnsafeBytes { data.copyMemory(from: $0.baseAddress!, byteCount: cover.count) }
            let par = st.pointee.codecpar!
            par.pointee.codec_type = AVMEDIA_TYPE_ATTACHMENT
            par.pointee.codec_id = codec
            par.pointee.extradata = data.assumingMemoryBound(to: UInt8.self)
            par.pointee.extradata_size = Int32(cover.count)
            av_dict_set(&st.pointee.metadata, "filename", name, 0)
            av_dict_set(&st.pointee.metadata, "mimetype", mime, 0)
            return nil
        }
        // (libavformat's mov muxer writes the picture into MP4 only, not MOV.)
        guard container == "mp4" || container == "ipod", codec != AV_CODEC_ID_WEBP, let size = ImageHeader(cover),
            let st = avformat_new_stream(oc, nil)
        else { return nil }
        st.pointee.codecpar.pointee.codec_type = AVMEDIA_TYPE_VIDEO
        st.pointee.codecpar.pointee.codec_id = codec
        st.pointee.codecpar.pointee.width = Int32(size.width)
        st.pointee.codecpar.pointee.height = Int32(size.height)
        st.pointee.disposition = AV_DISPOSITION_ATTACHED_PIC
        st.pointee.time_base = spv_rational(1, 90_000)
        return st
    }

    /// Writes the cover's one packet into its attached picture stream (after the header).
    func writeCover(_ oc: UnsafeMutablePointer<AVFormatContext>, stream: UnsafeMutablePointer<AVStream>, path: String) throws {
        guard let cover, let pkt = av_packet_alloc() else { return }
        defer { var p: UnsafeMutablePointer<AVPacket>? = pkt; av_packet_free(&p) }
        try avCheck(av_new_packet(pkt, Int32(cover.count)), "av_new_packet", path, path: path)
        cover.withUnsafeBytes { UnsafeMutableRawPointer(pkt.pointee.data!).copyMemory(from: $0.baseAddress!, byteCount: cover.count) }
        pkt.pointee.stream_index = stream.pointee.index
        pkt.pointee.flags |= AV_PKT_FLAG_KEY
        pkt.pointee.pts = 0
        pkt.pointee.dts = 0
        try avCheck(av_write_frame(oc, pkt), "av_write_frame", "cannot write '\(path)'", path: path)
    }

    /// The tags of a part to keep in a joined file: all but the muxer's own and a segment
    /// stamp (which says what the part was, not what the whole is).
    static func kept(from oc: UnsafeMutablePointer<AVFormatContext>) -> OutputTags {
        var tags = OutputTags()
        let own: Set<String> = ["encoder", "major_brand", "minor_version", "compatible_brands", "creation_time", "duration"]
        var e: UnsafeMutablePointer<AVDictionaryEntry>? = nil
        while let entry = av_dict_get(oc.pointee.metadata, "", e, AV_DICT_IGNORE_SUFFIX) {
            e = entry
            guard let k = entry.pointee.key, let v = entry.pointee.value else { continue }
            let key = String(cString: k), value = String(cString: v)
            if own.contains(key.lowercased()) { continue }
            if key.lowercased() == SegmentStamp.tag && SegmentStamp(parsing: value) != nil { continue }
            tags.entries.append(Entry(key, value))
        }
        return tags
    }
}
