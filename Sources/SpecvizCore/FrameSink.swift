/// Where rendered frames go: a video encoder, a PNG sequence, a still, a live display.
/// `write` is called with frames in order, `finish` once at the end (making the output
/// appear), or `cancel` after a failure (leaving nothing behind).
public protocol FrameSink: AnyObject {
    func write(_ frame: PixelBuffer, index: Int) throws
    /// `write`, told which rows may differ from the frame written before (a sink may redo
    /// only those); the same as `write` unless the sink makes use of it.
    func write(_ frame: PixelBuffer, index: Int, changed: ChangedRows) throws
    /// When `write(_:index:changed:)` reads only the rows that changed: it reads the bands of
    /// this many rows (from row 0) that hold a row `changed` names and takes every other
    /// row as the frame written before's. A renderer may then hand it pictures with older
    /// pixels in those rows (`RenderJob` does, when its rasteriser draws whole bands of a
    /// multiple of this). nil: the sink reads every row.
    var changedRowBands: Int? { get }
    func finish() throws
    func cancel()
}

extension FrameSink {
    public func write(_ frame: PixelBuffer, index: Int, changed: ChangedRows) throws {
        try write(frame, index: index)
    }

    public var changedRowBands: Int? { nil }
}
