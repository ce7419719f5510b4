#if canImport(Glibc)
import Glibc
#endif

/// Outputs appear whole or not at all: write to a hidden temporary name in the same
/// folder, then `rename` (atomic on one filesystem).
public enum AtomicFile {
    /// A temporary path beside `path`, keeping its extension (muxers choose by it).
    public static func temporaryPath(for path: String) -> String {
        let slash = path.lastIndex(of: "/")
        let dir = slash.map { String(path[...$0]) } ?? ""
        let name = slash.map { String(path[path.index(after: $0)...]) } ?? path
        let ext = name.lastIndex(of: ".").map { String(name[$0...]) } ?? ""
        return "\(dir).\(name).specviz-\(getpid())-partial\(ext)"
    }

    /// Moves the finished temporary file into place.
    public static func commit(_ temp: String, to path: String) throws {
        if rename(temp, path) != 0 {
            let why = String(cString: strerror(errno))
            unlink(temp)
            throw MediaError("cannot write '\(path)': \(why)")
        }
    }

    /// Removes a temporary file after a failure (ignores errors).
    public static func discard(_ temp: String) { unlink(temp) }

    /// True when something exists at `path`.
    public static func exists(_ path: String) -> Bool { access(path, F_OK) == 0 }

    /// Checks that the folder of `path` exists and is writable, so that a long render
    /// fails before it starts rather than at the end.
    public static func checkWritable(_ path: String) throws {
        let slash = path.lastIndex(of: "/")
        let dir = slash.map { $0 == path.startIndex ? "/" : String(path[..<$0]) } ?? "."
        if access(dir, W_OK) != 0 {
            throw MediaError("cannot write '\(path)': \(String(cString: strerror(errno)))")
        }
    }
}
