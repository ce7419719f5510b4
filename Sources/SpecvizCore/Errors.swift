/// An error that a user can read: one line, naming what failed.
public protocol UserFacingError: Error, CustomStringConvertible {}

/// A misuse of the rasteriser or a scene that cannot be drawn (seed 002, step 19:
/// a draw that cannot draw is an error, never a silent return).
public struct RenderError: UserFacingError, Equatable {
    public var message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
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
