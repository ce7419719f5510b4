import CFFmpeg
import Foundation
import SpecvizCore

/// What an input says about itself: title, artist and album from its tags (ID3, Vorbis
/// comments, MP4 atoms, FLAC), and the embedded cover picture (libavformat's
/// `attached_pic`), kept encoded until asked for.
public struct MediaTags: Sendable, Equatable {
    public var title: String?
    public var artist: String?
    public var album: String?
    /// The embedded picture's encoded bytes (JPEG, PNG or WebP), if the file has one.
    public var coverBytes: [UInt8]?

    public init(title: String? = nil, artist: String? = nil, album: String? = nil, coverBytes: [UInt8]? = nil) {
        self.title = title
        self.artist = artist
        self.album = album
        self.coverBytes = coverBytes
    }

    /// Reads the tags of an opened input: the container's, then the audio stream's (Ogg
    /// keeps its comments there), and the first attached picture stream.
    init(format: UnsafeMutablePointer<AVFormatContext>, audioStream: Int32) {
        let streams = (0..<Int(format.pointee.nb_streams)).compactMap { format.pointee.streams[$0] }
        func tag(_ key: String) -> String? {
            for dict in [format.pointee.metadata] + streams.map({ $0.pointee.metadata }) {
                guard let entry = av_dict_get(dict, key, nil, 0), let v = entry.pointee.value else { continue }
                let text = String(cString: v).trimmingCharacters(in: .whitespacesAndNewlines)
                if !text.isEmpty { return String(text.prefix(200)) }
            }
            return nil
        }
        title = tag("title")
        artist = tag("artist") ?? tag("album_artist")
        album = tag("album")
        let pictures = streams.lazy.filter { $0.pointee.disposition & AV_DISPOSITION_ATTACHED_PIC != 0 }
        if let s = pictures.first, s.pointee.attached_pic.size > 0, let data = s.pointee.attached_pic.data {
            coverBytes = Array(UnsafeBufferPointer(start: data, count: Int(s.pointee.attached_pic.size)))
        }
    }

    /// The embedded cover decoded to RGBA, or nil when there is none. A damaged picture
    /// throws (the caller decides whether that matters).
    public func cover(of name: String, fitting: (width: Int, height: Int)? = nil) throws -> PixelBuffer? {
        guard let coverBytes else { return nil }
        return try ImageDecoder.decode(coverBytes, name: "the cover picture in '\(name)'", fitting: fitting)
    }
}
