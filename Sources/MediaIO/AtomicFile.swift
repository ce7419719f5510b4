import SpecvizCore

#if canImport(Glibc)
import Glibc
#endif

/// Outputs appear whole or not at all: write to a hidden temporary name in the folder of
/// the file the output ends up in (a link's target), then `rename` (atomic on one
/// filesystem). A device, a FIFO or /dev/stdout is written directly: nothing the user did
/// not name is created, renamed or removed (issue 36).
public enum AtomicFile {
    /// Temporaries written in place (streams): never renamed or removed.
    private static let direct = Locked<Set<String>>([])
    private static let counter = Locked(0)

    /// The temporary for `path`: `.svz-<pid>-<key>-<n>.tmp<.ext>` beside the file the output
    /// ends up in (short whatever the output's name: a legal name never becomes too long;
    /// `key` names the output, so the next run to it removes what a killed run left), or
    /// the stream itself for a device, FIFO or descriptor.
    public static func temporaryPath(for path: String) -> String {
        let target = (try? OutputTarget.resolve(path)) ?? .file(path)
        switch target {
        case .stream(let s):
            direct.update { _ = $0.insert(s) }
            return s
        case .file(let final):
            let (dir, name) = split(final)
            let key = StaleTemporaries.key(name)
            StaleTemporaries.removeAbandoned(in: dir, key: key)
            var n = 0
            counter.update {
                $0 += 1
                n = $0
            }
            let ext = name.lastIndex(of: ".").map { String(name[$0...]) } ?? ""
            let keptExt = ext.count <= 12 && ext.dropFirst().allSatisfy { $0.isLetter || $0.isNumber } ? ext : ""
            let temp = "\(dir)\(StaleTemporaries.prefix)\(getpid())-\(key)-\(n).tmp\(keptExt)"
            TemporaryFiles.add(temp)
            return temp
        }
    }

    /// The folder (with its trailing slash, empty for the current one) and the name.
    static func split(_ path: String) -> (String, String) {
        let slash = path.lastIndex(of: "/")
        let dir = slash.map { String(path[...$0]) } ?? ""
        let name = slash.map { String(path[path.index(after: $0)...]) } ?? path
        return (dir, name)
    }

    /// True when `temp` is a stream written in place.
    public static func isDirect(_ temp: String) -> Bool { direct.value.contains(temp) }

    /// Moves the finished temporary file into place (into a link's target, never over the
    /// link). With `overwrite`, an existing regular file is replaced; without it the final
    /// name is created exclusively (a hard link, then the temporary is removed), so a file
    /// that appeared meanwhile — another render to the same path — is never replaced.
    /// Something that is not a regular file (a device node, a folder) is never replaced.
    public static func commit(_ temp: String, to path: String, overwrite: Bool = true) throws {
        if isDirect(temp) {
            direct.update { _ = $0.remove(temp) }
            return
        }
        let final: String
        do {
            guard case .file(let f) = try OutputTarget.resolve(path) else {
                throw MediaError("cannot write '\(path)': it became a device while writing", path: path)
            }
            final = f
        } catch {
            discard(temp)
            throw error
        }
        if !overwrite {
            if link(temp, final) == 0 {
                discard(temp)
                return
            }
            let code = errno
            if code == EEXIST {
                discard(temp)
                throw MediaError("'\(path)' exists (it appeared while writing; use -y to overwrite)", path: path)
            }
            // A filesystem without hard links: fall back to a checked rename.
            if exists(final) {
                discard(temp)
                throw MediaError("'\(path)' exists (use -y to overwrite)", path: path)
            }
        }
        // A replaced file keeps its permissions (a link's target is the user's file).
        var old = stat()
        if stat(final, &old) == 0 { chmod(temp, old.st_mode & 0o7777) }
        if rename(temp, final) != 0 {
            let why = String(cString: strerror(errno))
            discard(temp)
            throw MediaError("cannot write '\(path)': \(why)", path: path)
        }
        TemporaryFiles.remove(temp)
    }

    /// Throws when `path` cannot take an output: a folder, a block device, a socket, a
    /// dangling link (a device, a FIFO and a link to a regular file are fine).
    public static func checkReplaceable(_ path: String) throws {
        _ = try OutputTarget.resolve(path)
    }

    /// Everything a command checks before its work starts: what `path` is, that nothing is
    /// replaced without `overwrite` (a stream replaces nothing), and that the folder is
    /// writable. Returns the target.
    @discardableResult
    public static func checkOutput(_ path: String, overwrite: Bool) throws -> OutputTarget {
        let target = try OutputTarget.resolve(path)
        if case .file(let f) = target {
            if !overwrite && exists(f) { throw MediaError("'\(path)' exists (use -y to overwrite)", path: path) }
            try checkWritable(f)
        }
        return target
    }

    /// Writes `bytes` to a temporary file beside `path` (checking every write, so a full
    /// disk is reported with its reason), then commits it; `-` is standard output.
    public static func write(_ bytes: [UInt8], to path: String, overwrite: Bool = true) throws {
        let temp = temporaryPath(for: path)
        let fd =
            temp == OutputTarget.standardOutput
            ? dup(STDOUT_FILENO)
            : isDirect(temp) ? open(temp, O_WRONLY | O_CLOEXEC) : open(temp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        guard fd >= 0 else {
            let why = String(cString: strerror(errno))
            discard(temp)
            throw MediaError("cannot write '\(path)': \(why)", path: path)
        }
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

    /// Removes a temporary file after a failure (ignores errors). A stream is left alone.
    public static func discard(_ temp: String) {
        if isDirect(temp) {
            direct.update { _ = $0.remove(temp) }
            return
        }
        unlink(temp)
        TemporaryFiles.remove(temp)
    }

    /// True when something exists at `path`.
    public static func exists(_ path: String) -> Bool { access(path, F_OK) == 0 }

    /// Checks that the folder of `path` exists and is writable, so that a long render
    /// fails before it starts rather than at the end.
    public static func checkWritable(_ path: String) throws {
        let target = try OutputTarget.resolve(path)
        guard case .file(let path) = target else { return }
        let slash = path.lastIndex(of: "/")
        let dir = slash.map { $0 == path.startIndex ? "/" : String(path[..<$0]) } ?? "."
        if access(dir, W_OK) != 0 {
            throw MediaError("cannot write '\(path)': \(String(cString: strerror(errno)))", path: path)
        }
    }
}
