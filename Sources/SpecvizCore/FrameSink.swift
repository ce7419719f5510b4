/// Where rendered frames go: a video encoder, a PNG sequence, a still, a live display.
/// `write` is called with frames in order, `finish` once at the end (making the output
/// appear), or `cancel` after a failure (leaving nothing behind).
public protocol FrameSink: AnyObject {
    func write(_ frame: PixelBuffer, index: Int) throws
    func finish() throws
    func cancel()
}

/// Discards frames (benchmarks).
public final class NullFrameSink: FrameSink {
    public private(set) var frames = 0
    public init() {}
    public func write(_ frame: PixelBuffer, index: Int) throws { frames += 1 }
    public func finish() throws {}
    public func cancel() {}
}
