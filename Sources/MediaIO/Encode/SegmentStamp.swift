import CFFmpeg
import Foundation

/// What a part rendered with `--segment K/N` is, written into its container's `comment`
/// tag (MP4, MOV and Matroska all keep it) so that `join` can tell a complete, ordered set
/// of parts of one render from anything else: K/N, the absolute frames it holds, the
/// identity of the source (its size and a digest of its first and last MiB) and a digest
/// of the render's settings (everything that shapes a frame: mode, size, rate, look,
/// analysis, pictures, the whole render's --from/--to).
public struct SegmentStamp: Equatable, Sendable, CustomStringConvertible {
    public var index: Int
    public var count: Int
    public var frames: Range<Int>
    public var source: String
    public var settings: String

    public init(index: Int, count: Int, frames: Range<Int>, source: String, settings: String) {
        self.index = index
        self.count = count
        self.frames = frames
        self.source = source
        self.settings = settings
    }

    static let tag = "comment"
    static let prefix = "specviz segment "

    /// The tag's text: `specviz segment 2/4 frames 120-240 source … settings …`.
    public var description: String {
        "\(Self.prefix)\(index)/\(count) frames \(frames.lowerBound)-\(frames.upperBound) source \(source) settings \(settings)"
    }

    /// Parses a tag's text; nil for anything else.
    public init?(parsing text: String) {
        guard text.hasPrefix(Self.prefix) else { return nil }
        let words = text.dropFirst(Self.prefix.count).split(separator: " ").map(String.init)
        guard words.count == 7, words[1] == "frames", words[3] == "source", words[5] == "settings" else { return nil }
        let kn = words[0].split(separator: "/"), span = words[2].split(separator: "-")
        guard kn.count == 2, let k = Int(kn[0]), let n = Int(kn[1]), n >= 1, k >= 1, k <= n,
            span.count == 2, let lo = Int(span[0]), let hi = Int(span[1]), lo >= 0, hi >= lo
        else { return nil }
        self.init(index: k, count: n, frames: lo..<hi, source: words[4], settings: words[6])
    }

    /// Sets the tag on an output container (before its header is written).
    func write(to format: UnsafeMutablePointer<AVFormatContext>) {
        av_dict_set(&format.pointee.metadata, Self.tag, description, 0)
    }

    /// The stamp of an opened part, if it carries one.
    static func read(from format: UnsafeMutablePointer<AVFormatContext>) -> SegmentStamp? {
        guard let entry = av_dict_get(format.pointee.metadata, tag, nil, 0), let value = entry.pointee.value else {
            return nil
        }
        return SegmentStamp(parsing: String(cString: value))
    }

    /// A regular file's identity: its size and a digest of its first and last MiB (the same
    /// file under another name is the same source). `stdin` for standard input, a pipe or
    /// a device.
    public static func identity(ofFile path: String) -> String {
        guard InputPolicy.regularFileProblem(path) == nil, let handle = FileHandle(forReadingAtPath: path) else { return "stdin" }
        defer { try? handle.close() }
        let chunk = 1 << 20
        guard let size = try? handle.seekToEnd() else { return "stdin" }
        var digest = Digest()
        digest.add(String(size).utf8)
        try? handle.seek(toOffset: 0)
        if let head = try? handle.read(upToCount: chunk) { digest.add(head) }
        if size > UInt64(chunk) {
            try? handle.seek(toOffset: max(UInt64(chunk), size - UInt64(chunk)))
            if let tail = try? handle.read(upToCount: chunk) { digest.add(tail) }
        }
        return String(size) + ":" + digest.hex
    }

    /// 64-bit FNV-1a: a fingerprint to tell renders apart, not a cryptographic hash.
    public struct Digest: Sendable {
        public private(set) var value: UInt64 = 0xcbf2_9ce4_8422_2325
        public init() {}
        public mutating func add<S: Sequence>(_ bytes: S) where S.Element == UInt8 {
            for b in bytes {
                value ^= UInt64(b)
                value &*= 0x0000_0100_0000_01B3
            }
        }
        public var hex: String {
            let s = String(value, radix: 16)
            return String(repeating: "0", count: 16 - s.count) + s
        }
    }
}
