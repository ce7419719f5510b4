/// An error that a user can read: one line, naming what failed.
public protocol UserFacingError: Error, CustomStringConvertible {}

/// A misuse of the rasteriser or a scene that cannot be drawn (seed 002, step 19:
/// a draw that cannot draw is an error, never a silent return).
public struct RenderError: UserFacingError, Equatable {
    public var message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}
