import CFFmpeg
import SpecvizCore

/// An I/O failure: the one line the user reads, and as fields (as swift-nio's `IOError`
/// keeps them) the C function that failed, its return code and the file or device, so
/// callers and tests can act on them without parsing the text.
public struct MediaError: UserFacingError, Equatable {
    /// The whole message (`specviz: error: <message>`).
    public var message: String
    /// The libav/ALSA/libc function that failed, when one did (e.g. `avcodec_open2`).
    public var function: String?
    /// That function's return code: a negative AVERROR for libav, −errno for ALSA.
    public var code: Int32?
    /// The file or ALSA device the operation was on.
    public var path: String?

    public init(_ message: String, function: String? = nil, code: Int32? = nil, path: String? = nil) {
        self.message = message
        self.function = function
        self.code = code
        self.path = path
    }

    public var description: String { message }

    /// The text libav gives for an error code.
    static func avText(_ code: Int32) -> String {
        var buffer = [CChar](repeating: 0, count: 256)
        av_strerror(code, &buffer, buffer.count)
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}

/// Turns a libav return code into a typed error naming the function and the subject
/// (`path`: the file it was on, when there is one). The function's name and the subject
/// are only formatted for an error: the decoder checks every chunk it resamples and the
/// audio encoder every packet.
@discardableResult
func avCheck(
    _ code: Int32, _ function: @autoclosure () -> String, _ subject: @autoclosure () -> String, path: String? = nil
) throws -> Int32 {
    if code < 0 {
        let function = function()
        throw MediaError("\(subject()): \(function) failed: \(MediaError.avText(code))", function: function, code: code, path: path)
    }
    return code
}

/// Called once before any libav use: silence its logging (we report errors ourselves).
let quietLibav: Void = { spv_quiet_logs() }()
