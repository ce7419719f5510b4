import SpecvizCore

#if canImport(Glibc)
import Glibc
#endif

/// Shows frames in a terminal with 24-bit colour: each character cell is the upper half
/// block `▀` with the foreground the top pixel and the background the bottom pixel, so a
/// window of C columns and R rows shows C × 2(R − 1) pixels (the last row is a status line).
/// Works over SSH and inside tmux (truecolor passes through).
///
/// The picture follows the window: `preferredSize` reads the window size (`TIOCGWINSZ`)
/// each frame, and a frame of another size is scaled to the grid (nearest pixel).
/// Colour escapes are sent only when a cell's colour differs from the previous cell's, and
/// each frame goes out in one `write`. The byte buffer is reused frame to frame.
public final class TerminalSink: FrameSink {
    /// The file descriptor written to (standard output by default).
    public let fd: Int32
    /// A fixed grid (columns, rows) instead of the window's (tests).
    public let fixedGrid: (columns: Int, rows: Int)?
    /// Text shown on the bottom row (fps, mode, keys).
    public var status = ""
    /// The bytes of the last frame (tests).
    public private(set) var bytes: [UInt8] = []

    public init(fd: Int32 = STDOUT_FILENO, grid: (columns: Int, rows: Int)? = nil) {
        self.fd = fd
        fixedGrid = grid
        bytes.reserveCapacity(1 << 20)
    }

    /// Columns and rows of the window (or the fixed grid); 80×24 when unknown.
    public var grid: (columns: Int, rows: Int) {
        if let fixedGrid { return fixedGrid }
        var ws = winsize()
        if ioctl(fd, UInt(TIOCGWINSZ), &ws) == 0 && ws.ws_col > 0 && ws.ws_row > 1 {
            return (Int(ws.ws_col), Int(ws.ws_row))
        }
        return (80, 24)
    }

    /// The picture size that fills the window: one pixel per column, two per text row.
    public var preferredSize: (width: Int, height: Int)? {
        let g = grid
        return (max(g.columns, 16), max(2 * (g.rows - 1), 16))
    }

    /// Encodes `frame` as escape sequences and writes them. Does not allocate once the
    /// buffer has grown to the window's size.
    public func write(_ frame: PixelBuffer, index: Int) throws {
        encode(frame)
        try flush()
    }

    /// Builds the escape sequence for `frame` (scaled to the grid) into `bytes`.
    public func encode(_ frame: PixelBuffer) {
        let g = grid
        let columns = g.columns, pixelRows = 2 * max(g.rows - 1, 1)
        bytes.removeAll(keepingCapacity: true)
        append("\u{1B}[H")
        frame.pixels.withUnsafeBufferPointer { px in
            var lastFG: UInt32 = 1, lastBG: UInt32 = 1 // impossible (alpha 0) values: force the first escape
            for cellRow in 0..<(pixelRows / 2) {
                if cellRow > 0 { append("\r\n") }
                let y0 = (2 * cellRow) * frame.height / pixelRows
                let y1 = (2 * cellRow + 1) * frame.height / pixelRows
                for c in 0..<columns {
                    let x = c * frame.width / columns
                    let top = px[y0 * frame.width + x] | 0xFF00_0000
                    let bottom = px[y1 * frame.width + x] | 0xFF00_0000
                    if top != lastFG { appendColor(38, top); lastFG = top }
                    if bottom != lastBG { appendColor(48, bottom); lastBG = bottom }
                    bytes.append(0xE2); bytes.append(0x96); bytes.append(0x80) // U+2580 ▀
                }
            }
        }
        append("\u{1B}[0m\r\n\u{1B}[2K")
        var n = 0
        for u in status.utf8 where n < columns - 1 { bytes.append(u); n += 1 }
    }

    private func flush() throws {
        var offset = 0
        while offset < bytes.count {
            let n = bytes.withUnsafeBytes { Glibc.write(fd, $0.baseAddress! + offset, $0.count - offset) }
            if n < 0 {
                if errno == EINTR || errno == EAGAIN { continue }
                throw MediaError("cannot write to the terminal: \(String(cString: strerror(errno)))")
            }
            offset += n
        }
    }

    private func append(_ s: StaticString) {
        s.withUTF8Buffer { for b in $0 { bytes.append(b) } }
    }

    private func appendNumber(_ v: UInt32) {
        if v >= 100 { bytes.append(UInt8(48 + v / 100)) }
        if v >= 10 { bytes.append(UInt8(48 + (v / 10) % 10)) }
        bytes.append(UInt8(48 + v % 10))
    }

    /// `ESC [ 38;2;r;g;b m` (foreground) or `48;…` (background).
    private func appendColor(_ kind: UInt32, _ p: UInt32) {
        bytes.append(0x1B); bytes.append(UInt8(ascii: "["))
        appendNumber(kind); append(";2;")
        appendNumber(p & 0xFF); bytes.append(UInt8(ascii: ";"))
        appendNumber((p >> 8) & 0xFF); bytes.append(UInt8(ascii: ";"))
        appendNumber((p >> 16) & 0xFF); bytes.append(UInt8(ascii: "m"))
    }

    public func finish() throws {}
    public func cancel() {}
}
