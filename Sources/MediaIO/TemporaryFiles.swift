import SpecvizCore

#if canImport(Glibc)
import Glibc
#endif

/// Every temporary output that exists right now (files, and folders of a PNG sequence in
/// progress), so that a signal handler's last resort can remove them before exiting.
public enum TemporaryFiles {
    private static let paths = Locked<Set<String>>([])

    public static func add(_ path: String) { paths.update { _ = $0.insert(path) } }
    public static func remove(_ path: String) { paths.update { _ = $0.remove(path) } }

    /// Removes every registered temporary (a folder with its files). Ignores errors.
    /// The files go while the lock is held: a second caller on another thread (the signal
    /// watchdog, a failed progress write, the main path) waits until they are gone before
    /// it can exit the process, so no temporary is left behind half-way through the list.
    public static func removeAll() {
        paths.update {
            for p in $0 { removeTree(p) }
            $0.removeAll()
        }
    }

    /// Removes a file, or a folder and the files in it (one level: our temporaries).
    public static func removeTree(_ path: String) {
        if unlink(path) == 0 || errno == ENOENT { return }
        if let dir = opendir(path) {
            while let entry = readdir(dir) {
                let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
                if name != "." && name != ".." { unlink(path + "/" + name) }
            }
            closedir(dir)
        }
        rmdir(path)
    }
}
