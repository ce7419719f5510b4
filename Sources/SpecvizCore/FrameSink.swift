/// Where rendered frames go: a video encoder, a PNG sequence, a still, a live display.
/// `write` is called with frames in order, `finish` once at the end (making the output
/// appear), or `cancel` after a failure (leaving nothing behind).
public protocol FrameSink: AnyObject {
    func write(_ frame: PixelBuffer, index: Int) throws
    /// `write`, told which rows may differ from the frame written before (a sink may redo
    /// only those); the same as `write` unless the sink makes use of it.
    func write(_ frame: PixelBuffer, index: Int, changed: ChangedRows) throws
    func finish() throws
    func cancel()
}

extension FrameSink {
    public func write(_ frame: PixelBuffer, index: Int, changed: ChangedRows) throws {
        try write(frame, index: index)
    }
}
