import Foundation
import MediaIO

/// Every write to standard output goes through here (issue 36): SIGPIPE is ignored, so a
/// closed pipe is EPIPE, and a failed write (EPIPE, ENOSPC on /dev/full, EIO) is one error
/// line and exit 1, never a trap.
enum StandardOutput {
    /// Ignores SIGPIPE for the whole process (called first thing in `main`).
    static func install() { signal(SIGPIPE, SIG_IGN) }

    /// Writes all of `text` (after anything `print` buffered), or throws naming the reason.
    static func write(_ text: String) throws {
        try flush()
        var text = text
        try text.withUTF8 { bytes in
            var done = 0
            while done < bytes.count {
                let n = Glibc.write(STDOUT_FILENO, bytes.baseAddress! + done, bytes.count - done)
                if n < 0 {
                    if errno == EINTR { continue }
                    throw failure(errno)
                }
                done += n
            }
        }
    }

    /// Flushes what `print` buffered, or throws naming the reason.
    static func flush() throws {
        if fflush(stdout) != 0 || ferror(stdout) != 0 {
            let code = errno
            clearerr(stdout)
            throw failure(code)
        }
    }

    /// For callbacks that cannot throw (progress lines): on failure, removes the temporaries,
    /// says why on one line and exits 1.
    static func writeOrExit(_ text: String) {
        do {
            try write(text)
        } catch {
            TemporaryFiles.removeAll()
            StandardError.write(Data("specviz: error: \(error)\n".utf8), level: .error)
            _exit(1)
        }
    }

    static func failure(_ code: Int32) -> CLIError {
        CLIError.cannotWrite(path: nil, errno: code)
    }
}

/// Messages on standard error. A failed write there (a batch parent gone, a closed pipe)
/// has nowhere to be reported: it is dropped, never a trap (Foundation's
/// `FileHandle.write` traps on EPIPE), so the command still cleans up and exits.
enum StandardError {
    /// Writes `data` when the log level shows messages of `level` (`--log-level`).
    static func write(_ data: Data, level: LogLevel) {
        if LogLevel.shows(level) { write(data) }
    }

    static func write(_ data: Data) {
        data.withUnsafeBytes { raw in
            guard var p = raw.baseAddress else { return }
            var left = raw.count
            while left > 0 {
                let n = Glibc.write(STDERR_FILENO, p, left)
                if n < 0 && errno == EINTR { continue }
                if n <= 0 { return }
                p += n
                left -= n
            }
        }
    }
}
