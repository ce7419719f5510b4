import SpecvizCore

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
        let temp = "\(dir).\(name).specviz-\(getpid())-partial\(ext)"
        TemporaryFiles.add(temp)
        return temp
    }

    /// Moves the finished temporary file into place. With `overwrite`, an existing regular
    /// file is replaced; without it the final name is created exclusively (a hard link,
    /// then the temporary is removed), so a file that appeared meanwhile — another render
    /// to the same path — is never replaced. Something that is not a regular file (a
    /// device node, a folder) is never replaced.
    public static func commit(_ temp: String, to path: String, overwrite: Bool = true) throws {
        do {
            try checkReplaceable(path)
        } catch {
            discard(temp)
            throw error
        }
        if !overwrite {
            if link(temp, path) == 0 {
                discard(temp)
                return
            }
            let code = errno
            if code == EEXIST {
                discard(temp)
                throw MediaError("'\(path)' exists (it appeared while writing; use -y to overwrite)", path: path)
            }
            // A filesystem without hard links: fall back to a checked rename.
            if exists(path) {
                discard(temp)
                throw MediaError("'\(path)' exists (use -y to overwrite)", path: path)
            }
        }
        if rename(temp, path) != 0 {
            let why = String(cString: strerror(errno))
            discard(temp)
            throw MediaError("cannot write '\(path)': \(why)", path: path)
        }
        TemporaryFiles.remove(temp)
    }

    /// Throws when something that is not a regular file (or a link to one) is at `path`:
    /// outputs never replace device nodes, sockets or folders.
    public static func checkReplaceable(_ path: String) throws {
        var st = stat()
        guard lstat(path, &st) == 0 else { return }
        let kind = st.st_mode & S_IFMT
        if kind == S_IFREG || kind == S_IFLNK { return }
        throw MediaError("cannot write '\(path)': it exists and is not a regular file", path: path)
    }

    /// Writes `bytes` to a temporary file beside `path` (checking every write, so a full
    /// disk is reported with its reason), then commits it.
    public static func write(_ bytes: [UInt8], to path: String, overwrite: Bool = true) throws {
        let temp = temporaryPath(for: path)
        let fd = open(temp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw MediaError("cannot write '\(path)': \(String(cString: strerror(errno)))", path: path) }
        var failure: Int32 = 0
        bytes.withUnsafeBytes { raw in
            var done = 0
            while done < raw.count {
                let n = Glibc.write(fd, raw.baseAddress! + done, raw.count - done)
                if n < 0 {
                    if errno == EINTR { continue }
                    failure = errno
                    return
                }
                done += n
            }
        }
        if close(fd) != 0 && failure == 0 { failure = errno }
        if failure != 0 {
            discard(temp)
            throw MediaError("cannot write '\(path)': \(String(cString: strerror(failure)))", path: path)
        }
        try commit(temp, to: path, overwrite: overwrite)
    }

    /// Removes a temporary file after a failure (ignores errors).
    public static func discard(_ temp: String) {
        unlink(temp)
        TemporaryFiles.remove(temp)
    }

    /// True when something exists at `path`.
    public static func exists(_ path: String) -> Bool { access(path, F_OK) == 0 }

    /// Checks that the folder of `path` exists and is writable, so that a long render
    /// fails before it starts rather than at the end.
    public static func checkWritable(_ path: String) throws {
        let slash = path.lastIndex(of: "/")
        let dir = slash.map { $0 == path.startIndex ? "/" : String(path[..<$0]) } ?? "."
        if access(dir, W_OK) != 0 {
            throw MediaError("cannot write '\(path)': \(String(cString: strerror(errno)))", path: path)
        }
    }
}
