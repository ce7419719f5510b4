import Analysis
import SpecvizCore

/// The full-resolution spectrogram (`--resolution full`, issue 16), like ffmpeg's
/// showspectrum: one row per pixel row of the plot, each a set time of sound
/// (`SpectrogramState.rowSeconds`, `--history` over the rows), newest at the top, and colour
/// per output pixel across: each row is drawn as quads
/// between neighbouring band centres (or per pixel column when there are more bands than
/// pixels) whose ends carry the palette colour of those bands, so the colour runs smoothly
/// across the frequency axis in any scale. Values are the analysis' own (unsmoothed)
/// display levels.
///
/// Vertices: 6 · rows · min(bands, width) — 128 bands on an 800-pixel-high area: 614,400.
public struct FullSpectrogramMode: ModeBuilder {
    public var palette: Palette

    public init(palette: Palette = .heat) { self.palette = palette }

    /// How the rows lie in the plot: the top pixel row (whole pixels from the frame's top),
    /// the pixels a row takes (1 when the history has a row per pixel row or more, else the
    /// plot's height over its rows) and how many rows fit.
    public static func rows(layout: Layout, history: History) -> (top: Float, rowPixels: Float, shown: Int) {
        let r = layout.spectrum
        let pixelRows = max(1, Int((r.height / layout.clipPerPixel.y).rounded()))
        let top = ((1 - r.y1) / layout.clipPerPixel.y).rounded()
        if history.rows >= pixelRows { return (top, 1, pixelRows) }
        return (top, Float(pixelRows) / Float(history.rows), history.rows)
    }

    public func build(_ state: VisualState, layout: Layout, into scene: inout Scene) {
        let r = layout.spectrum
        guard let history = state.hopHistory, history.filled > 0 else { return }
        let pixelCols = max(1, Int((r.width / layout.clipPerPixel.x).rounded()))
        let (topRow, rowPixels, rows) = FullSpectrogramMode.rows(layout: layout, history: history)
        let n = history.bands
        // Rows on whole pixel rows when a row is a pixel tall (so that last frame's rows are
        // this frame's, moved by exactly one row per row pushed).
        let pixel = layout.clipPerPixel.y
        let columns = min(n, pixelCols)
        scene.vertices2D.reserveCapacity(scene.vertices2D.count + 6 * columns * min(rows, history.filled))
        for k in 0..<min(rows, history.filled) {
            // k = 0 is the newest row, drawn at the top. One draw per row: when a row comes,
            // the rasteriser finds last frame's rows one row lower and moves its picture of
            // them instead of drawing them again (`FrameMemory`).
            scene.begin2D()
            defer { scene.end2D() }
            let row = history.rows - 1 - k
            let y1 = 1 - (topRow + Float(k) * rowPixels) * pixel, y0 = 1 - (topRow + Float(k + 1) * rowPixels) * pixel
            if columns == n {
                // Band centres at (i + ½)/n across; the ends hold the first/last band's colour.
                var x0 = r.x0
                var c0 = palette.color(history.value(row: row, band: 0))
                for i in 0..<n {
                    let x1 = i == n - 1 ? r.x1 : r.x0 + (Float(i) + 1) / Float(n) * r.width
                    let xc = r.x0 + (Float(i) + 0.5) / Float(n) * r.width
                    let cc = palette.color(history.value(row: row, band: i))
                    scene.quad(SIMD2(x0, y0), SIMD2(xc, y0), SIMD2(xc, y1), SIMD2(x0, y1), c0, cc, cc, c0)
                    let cn = i == n - 1 ? cc : palette.color(0.5 * (history.value(row: row, band: i) + history.value(row: row, band: i + 1)))
                    scene.quad(SIMD2(xc, y0), SIMD2(x1, y0), SIMD2(x1, y1), SIMD2(xc, y1), cc, cn, cn, cc)
                    x0 = x1; c0 = cn
                }
            } else {
                // More bands than pixels: per pixel column, the loudest band inside it.
                for p in 0..<columns {
                    let a = p * n / columns, b = max((p + 1) * n / columns, a + 1)
                    var v: Float = 0
                    for i in a..<b { v = max(v, history.value(row: row, band: i)) }
                    let c = palette.color(v)
                    let x0 = r.x0 + Float(p) / Float(columns) * r.width, x1 = r.x0 + Float(p + 1) / Float(columns) * r.width
                    scene.quad(x0: x0, y0: y0, x1: x1, y1: y1, bottom: c, top: c)
                }
            }
        }
    }
}
