import CFFmpeg
import SpecvizCore

/// An I/O failure, with the file and the C function that failed.
public struct MediaError: UserFacingError, Equatable {
    public var message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }

    /// The text libav gives for an error code.
    static func avText(_ code: Int32) -> String {
        var buffer = [CChar](repeating: 0, count: 256)
        av_strerror(code, &buffer, buffer.count)
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}

/// Turns a libav return code into a typed error naming the function and the subject.
@discardableResult
func avCheck(_ code: Int32, _ function: String, _ subject: String) throws -> Int32 {
    if code < 0 {
        throw MediaError("\(subject): \(function) failed: \(MediaError.avText(code))")
    }
    return code
}

/// Called once before any libav use: silence its logging (we report errors ourselves).
let quietLibav: Void = { spv_quiet_logs() }()
