import Analysis
import SpecvizCore

/// Spectrogram (seed 000 Part 2, "Spectrogram Mode"): the 128-row history of 128 bands as
/// a grid of flat-coloured quads, frequency across (band b in column b, log-spaced like
/// the other modes' x axis) and time upward: row 0, the oldest, at the bottom, the newest
/// row at the top ("oldest … newest, time ↑" in the seed's layout figure). Colour is the
/// heat palette (default black → dark blue → cyan → yellow → red) of the cell's value.
///
/// The history takes a new row every 3rd video frame (`VisualState.scrollEvery`), ≈ 20
/// rows/s at 60 fps, so the picture shows about the last 6.4 s.
/// 128 × 128 × 6 = 98,304 vertices.
public struct SpectrogramMode: ModeBuilder {
    public var palette: Palette

    public init(palette: Palette = .heat) { self.palette = palette }

    /// Clip-space rectangle of cell (row, band) in the spectrum area (row 0 = oldest, bottom).
    public static func cell(row: Int, band: Int, rows: Int, bands: Int = LogBands.count, in r: Layout.Rect) -> Layout.Rect {
        let n = Float(bands)
        let h = Float(rows)
        return Layout.Rect(
            x0: r.x0 + Float(band) / n * r.width, y0: r.y0 + Float(row) / h * r.height,
            x1: r.x0 + Float(band + 1) / n * r.width, y1: r.y0 + Float(row + 1) / h * r.height)
    }

    public func build(_ state: VisualState, layout: Layout, into scene: inout Scene) {
        let r = layout.spectrum
        let history = state.spectrogram
        let rows = history.rows
        let n = history.bands
        let dx = r.width / Float(n), dy = r.height / Float(rows)
        scene.begin2D()
        for row in 0..<rows {
            let y0 = r.y0 + Float(row) * dy
            let y1 = row == rows - 1 ? r.y1 : r.y0 + Float(row + 1) * dy
            for band in 0..<n {
                let x0 = r.x0 + Float(band) * dx
                let x1 = band == n - 1 ? r.x1 : r.x0 + Float(band + 1) * dx
                let c = palette.color(history.value(row: row, band: band))
                scene.quad(x0: x0, y0: y0, x1: x1, y1: y1, bottom: c, top: c)
            }
        }
        scene.end2D()
    }
}
