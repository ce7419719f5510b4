#if canImport(Glibc)
import Glibc
#endif

/// An error that a user can read: one line, naming what failed.
public protocol UserFacingError: Error, CustomStringConvertible {}

/// A render or draw that cannot go on (seed 002, step 19: a draw that cannot draw is an
/// error, never a silent return). Each case holds what the message names.
public enum RenderError: UserFacingError, Equatable {
    /// The input decoded to no samples at all.
    case noAudio(source: String)
    /// A frame at `time` (s) asked for past the end of `source`, which held `length` s.
    case pastEnd(time: Double, source: String, length: Double)
    /// The render's start (--from, s) is past the end of `source` (`length` s).
    case startPastEnd(from: Double, source: String, length: Double)
    /// A still asked for at a negative or non-finite time.
    case badStillTime(Double)
    /// The time range holds no frames.
    case emptyRange
    /// A draw of `count` vertices from `first` reaches past the `available` vertices.
    case drawOutOfRange(count: Int, first: Int, available: Int)
    /// A draw whose vertex count is not a multiple of three.
    case notTriangleList(count: Int)
    /// A draw holds a non-finite vertex in triangle `triangle`.
    case nonFiniteVertex(triangle: Int)
    /// A frame dump that ends early, is not one, or has another version.
    case truncatedFrameDump, notFrameDump, unsupportedFrameDumpVersion
    /// A frame dump file that cannot be read.
    case unreadableFrameDump(path: String)
    /// A frame dump of a size outside 1…16384.
    case frameDumpSize(path: String, width: Int, height: Int)
    /// `error` in the frame dump at `path`.
    indirect case inFrameDump(path: String, RenderError)

    public var description: String {
        switch self {
        case .noAudio(let source): return "'\(source)' contains no audio samples"
        case .pastEnd(let time, let source, let length):
            return "\(cFormat("%.2f", time)) s is past the end of '\(source)' (\(cFormat("%.2f", length)) s)"
        case .startPastEnd(let from, let source, let length):
            return "--from \(cFormat("%g", from)) is past the end of '\(source)' (\(cFormat("%.2f", length)) s)"
        case .badStillTime(let t): return "bad still time \(t)"
        case .emptyRange: return "nothing to render: the time range holds no frames"
        case .drawOutOfRange(let count, let first, let available):
            return "draw of \(count) vertices from \(first) exceeds the \(available)-vertex buffer"
        case .notTriangleList(let count): return "draw of \(count) vertices is not a triangle list"
        case .nonFiniteVertex(let triangle): return "draw holds a non-finite vertex (triangle \(triangle))"
        case .truncatedFrameDump: return "frame dump is truncated"
        case .notFrameDump: return "not a frame dump"
        case .unsupportedFrameDumpVersion: return "unsupported frame dump version"
        case .unreadableFrameDump(let path): return "cannot read frame dump \(path)"
        case .frameDumpSize(let path, let w, let h): return "\(path): frame size \(w)x\(h) is outside 1…16384"
        case .inFrameDump(let path, let error): return "\(path): \(error)"
        }
    }

    /// The message (the description).
    public var message: String { description }
}

/// The one way to say a run was stopped before it finished: by a stop signal (SIGINT,
/// SIGTERM, SIGHUP: `signal`), or by whoever asked the render or loop to stop (`signal` nil).
/// The command line exits 128 + the signal after removing its temporaries.
public struct Interrupted: UserFacingError, Equatable {
    public var signal: Int32?
    public init(signal: Int32? = nil) { self.signal = signal }

    public var description: String { signal.map { "interrupted (\(Interrupted.name($0)))" } ?? "interrupted" }

    /// The process's exit status for it (128 + the signal; 130 when no signal is known).
    public var exitCode: Int32 { 128 + (signal ?? SIGINT) }

    /// The signal's name as the messages give it.
    public static func name(_ sig: Int32) -> String {
        switch sig {
        case SIGINT: return "SIGINT"
        case SIGTERM: return "SIGTERM"
        case SIGHUP: return "SIGHUP"
        default: return "signal \(sig)"
        }
    }
}

/// `value` through one C format (`%.2f`, `%g`) in the C locale.
func cFormat(_ format: String, _ value: Double) -> String {
    var out = [CChar](repeating: 0, count: 64)
    let n = out.withUnsafeMutableBufferPointer { b in withVaList([value]) { vsnprintf(b.baseAddress, b.count, format, $0) } }
    guard n >= 0 && Int(n) < out.count else { return String(value) }
    return String(decoding: out[0..<Int(n)].map { UInt8(bitPattern: $0) }, as: UTF8.self)
}

extension String {
    /// The text with control characters written as escapes (`\n`, `\r`, `\t`, `\u{1B}`…), so
    /// that a name or token quoted in a message is one line and cannot drive the terminal.
    public var escapingControlCharacters: String {
        guard unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) else { return self }
        var out = ""
        for s in unicodeScalars {
            switch s {
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case _ where s.properties.generalCategory == .control: out += "\\u{" + String(s.value, radix: 16, uppercase: true) + "}"
            default: out.unicodeScalars.append(s)
            }
        }
        return out
    }
}
