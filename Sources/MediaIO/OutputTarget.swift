import SpecvizCore

#if canImport(Glibc)
import Glibc
#endif

/// What an output path names once its symbolic links are followed (issue 36): a regular
/// file (existing or not) that is written beside itself and renamed into place, or a
/// stream (a character device such as /dev/null, a FIFO, or an open descriptor reached
/// through /proc such as /dev/stdout) that is written directly and never renamed or
/// removed. Folders, block devices, sockets and dangling links are refused. `-` is standard
/// output (`standardOutput`), a stream.
public enum OutputTarget: Equatable, Sendable {
    /// The name of standard output on the command line.
    public static let standardOutput = "-"

    /// The regular file the output ends up in (the link's target when `path` is a link).
    case file(String)
    /// Written in place: nothing is created, renamed or removed.
    case stream(String)

    /// Follows `path` link by link (at most 40), without normalising it (the kernel's rules).
    public static func resolve(_ path: String) throws -> OutputTarget {
        if path == standardOutput { return .stream(path) }
        var p = path
        for hop in 0..<40 {
            var st = stat()
            if lstat(p, &st) != 0 {
                let code = errno
                if code == ENOENT && hop == 0 { return .file(p) }
                if code == ENOENT {
                    throw MediaError("cannot write '\(path)': it is a symbolic link to '\(p)', which does not exist", path: path)
                }
                // A folder on the way that cannot be searched, and the like: the writer reports it.
                return .file(p)
            }
            switch st.st_mode & S_IFMT {
            case S_IFREG: return .file(p)
            case S_IFCHR, S_IFIFO: return .stream(path)
            case S_IFDIR: throw MediaError("cannot write '\(path)': it is a folder", path: path)
            case S_IFLNK:
                // A link inside /proc is an open descriptor (/dev/stdout → /proc/self/fd/1):
                // written through as it is, never replaced.
                if p.hasPrefix("/proc/") { return .stream(path) }
                guard let target = readLink(p) else { return .file(p) }
                if target.hasPrefix("/") {
                    p = target
                } else {
                    let slash = p.lastIndex(of: "/")
                    p = (slash.map { String(p[...$0]) } ?? "") + target
                }
            default:
                throw MediaError("cannot write '\(path)': it exists and is not a regular file", path: path)
            }
        }
        throw MediaError("cannot write '\(path)': too many symbolic links", path: path)
    }

    private static func readLink(_ p: String) -> String? {
        var buf = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let n = readlink(p, &buf, buf.count - 1)
        guard n > 0 else { return nil }
        return String(decoding: buf[0..<n].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// The name a muxer guesses the format from: the path when its last component has an
    /// extension or it is a regular file, else (a device or pipe such as /dev/null)
    /// `stream.<fallback>`. Give it the temporary: it is also the context's url, which a muxer
    /// may open again (mov's faststart reads its own file back).
    public static func formatName(_ path: String, fallback: String) -> String {
        let name = path.lastIndex(of: "/").map { String(path[path.index(after: $0)...]) } ?? path
        if let dot = name.lastIndex(of: "."), dot != name.startIndex, name.index(after: dot) != name.endIndex { return path }
        guard case .stream = (try? resolve(path)) ?? .file(path) else { return path }
        return "stream.\(fallback)"
    }

    /// The URL libavformat opens for `path`: `pipe:1` for standard output (never seeks), else
    /// the path itself.
    public static func avioURL(_ path: String) -> String {
        path == standardOutput ? "pipe:1" : path
    }

    /// The device and inode of `path` (links followed), nil when it does not exist.
    public static func identity(_ path: String) -> FileIdentity? {
        var st = stat()
        guard stat(path, &st) == 0 else { return nil }
        return FileIdentity(device: UInt64(st.st_dev), inode: UInt64(st.st_ino))
    }

    /// The absolute, link-free spelling of `path`: realpath of the file when it exists, else
    /// of its folder joined with its name (nil when the folder does not exist either).
    public static func canonical(_ path: String) -> String? {
        if let r = realpath(path, nil) {
            defer { free(r) }
            return String(cString: r)
        }
        let slash = path.lastIndex(of: "/")
        let dir = slash.map { $0 == path.startIndex ? "/" : String(path[..<$0]) } ?? "."
        let name = slash.map { String(path[path.index(after: $0)...]) } ?? path
        guard let r = realpath(dir, nil) else { return nil }
        defer { free(r) }
        let d = String(cString: r)
        return (d.hasSuffix("/") ? d : d + "/") + name
    }
}

/// A file as the kernel knows it: the same pair is the same file, whatever the names.
public struct FileIdentity: Hashable, Sendable {
    public var device: UInt64
    public var inode: UInt64
}
