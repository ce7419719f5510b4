import SpecvizCore

#if canImport(Glibc)
import Glibc
#endif

/// Temporaries left by a run that was killed (SIGKILL, a power cut) are removed by the next
/// run to the same output: only names of our own pattern, `.svz-<pid>-<key>-…`, whose key
/// is that output's and whose process no longer runs (issue 36).
public enum StaleTemporaries {
    public static let prefix = ".svz-"
    private static let scanned = Locked<Set<String>>([])

    /// 12 hex digits of FNV-1a over the output's file name.
    public static func key(_ name: String) -> String {
        var h: UInt64 = 0xcbf2_9ce4_8422_2325
        for b in name.utf8 {
            h ^= UInt64(b)
            h = h &* 0x100_0000_01b3
        }
        let hex = String(h, radix: 16)
        return String((String(repeating: "0", count: max(0, 16 - hex.count)) + hex).suffix(12))
    }

    /// A temporary folder (a PNG sequence in progress) for the output named `name` in `dir`
    /// (with its trailing slash, empty for the current folder), after removing abandoned ones.
    public static func folder(in dir: String, for name: String) -> String {
        let key = key(name)
        removeAbandoned(in: dir, key: key)
        return "\(dir)\(prefix)\(getpid())-\(key)-frames"
    }

    /// Removes `dir`'s entries `.svz-<pid>-<key>-…` whose process is gone.
    public static func removeAbandoned(in dir: String, key: String) {
        // Once per output and process (a PNG sequence writes thousands of frames).
        var first = false
        scanned.update { first = $0.insert(dir + "\u{0}" + key).inserted }
        guard first else { return }
        guard let handle = opendir(dir.isEmpty ? "." : dir) else { return }
        var abandoned: [String] = []
        while let entry = readdir(handle) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            guard name.hasPrefix(prefix) else { continue }
            let fields = name.dropFirst(prefix.count).split(separator: "-", maxSplits: 2)
            guard fields.count == 3, fields[1] == key, let pid = pid_t(fields[0]), pid > 0, pid != getpid() else { continue }
            if kill(pid, 0) != 0 && errno == ESRCH { abandoned.append(dir + name) }
        }
        closedir(handle)
        for path in abandoned { TemporaryFiles.removeTree(path) }
    }
}
