import Analysis

/// The waterfall's mesh rows for one frame: the history scrolled back by the state's phase,
/// with the live spectrum as the front row, so the picture moves on every video frame.
///
/// Mesh row j = 0 (back) … `count` − 1 (front). Rows 1 … rows − 1 are the history's rows
/// (row 0 oldest) at z = −1 + (j − phase)·dz, dz = 2/(rows − 1); the front row is the live
/// spectrum at z = +1 (the newest history row leaves it when it is taken and moves back by
/// dz until the next one is); the back row is the history between its two oldest rows,
/// cut at z = −1. At phase 0 the rows lie where the unscrolled history's do.
struct SurfaceGrid {
    let history: History
    let live: [Float]?
    let phase: Float
    let dz: Float

    init(history: History, live: [Float], phase: Float) {
        self.history = history
        self.live = live.count == history.bands ? live : nil
        self.phase = min(max(phase, 0), 1)
        dz = 2 / Float(history.rows - 1)
    }

    /// Mesh rows: the history's and the live one.
    var count: Int { history.rows + 1 }

    @inline(__always)
    func z(_ j: Int) -> Float {
        if j == 0 { return -1 }
        if j == count - 1 { return 1 }
        return -1 + (Float(j) - phase) * dz
    }

    /// The value (0…1) of band `c` in mesh row `j`.
    @inline(__always)
    func value(_ j: Int, _ c: Int) -> Float {
        let v: Float
        if j == 0 {
            let older = history.value(row: 0, band: c), next = history.value(row: 1, band: c)
            v = next + (older - next) * (1 - phase)
        } else if j == count - 1 {
            v = live?[c] ?? history.value(row: history.rows - 1, band: c)
        } else {
            v = history.value(row: j, band: c)
        }
        return min(max(v, 0), 1)
    }
}
