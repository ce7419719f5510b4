/// Where rendered frames go: a video encoder, a PNG sequence, a still, a live display.
/// `write` is called with frames in order, `finish` once at the end (making the output
/// appear), or `cancel` after a failure (leaving nothing behind).
public protocol FrameSink: AnyObject {
    func write(_ frame: PixelBuffer, index: Int) throws
    func finish() throws
    func cancel()
}
