import Foundation
import SpecvizCore

/// An error of the command line itself (a bad combination, refusing to overwrite, a file
/// that cannot be read or written). Each case holds what its one line names.
enum CLIError: UserFacingError, Equatable {
    /// A batch input that is not a regular file (`problem` says what it is).
    case batchNeedsRegularFile(problem: String)
    /// `failed` of a batch's `of` files failed.
    case batchFailed(failed: Int, of: Int)
    /// `live --fb PATH` names a regular file (without -y).
    case notFramebuffer(path: String)
    /// The terminal display without a terminal on standard output.
    case noTerminal
    /// `join`'s --from (s) past the end of `path` (`length` s).
    case startPastEnd(from: Double, path: String, length: Double)
    /// `what` ("--temperament", "input") at `path` cannot be read: `errno`.
    case cannotRead(what: String, path: String, errno: Int32)
    /// Writing `path` (nil: standard output) failed: `errno` (0 reads as EIO).
    case cannotWrite(path: String?, errno: Int32)
    /// A write after the output was closed (nil: standard output).
    case closed(path: String?)
    /// An output that exists (without -y).
    case exists(path: String)

    var description: String {
        switch self {
        case .batchNeedsRegularFile(let problem): return "\(problem): a batch reads regular files only (render it on its own)"
        case .batchFailed(let failed, let total): return "\(failed) of \(total) files failed (\(total - failed) rendered)"
        case .notFramebuffer(let path):
            return "'\(path)' exists and is a regular file, not a framebuffer device (use -y to write over it)"
        case .noTerminal: return "the terminal display needs a terminal on standard output (or use --display fb --fb PATH)"
        case .startPastEnd(let from, let path, let length):
            return "--from \(InputChecks.format(from)) is past the end of '\(path)' (\(String(format: "%.2f", length)) s)"
        case .cannotRead(let what, let path, let code): return "\(what) '\(path)': \(String(cString: strerror(code)))"
        case .cannotWrite(let path, let code):
            let why = String(cString: strerror(code == 0 ? EIO : code))
            return path.map { "cannot write '\($0)': \(why)" } ?? "cannot write to standard output: \(why)"
        case .closed(let path): return "cannot write '\(path ?? "standard output")': already closed"
        case .exists(let path): return "'\(path)' exists (use -y to overwrite)"
        }
    }
}
