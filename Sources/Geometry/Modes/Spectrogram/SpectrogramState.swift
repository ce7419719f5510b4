import Analysis

/// The spectrogram's history: on the seed's grid, a row of the smoothed display every
/// `VisualState.scrollEvery` video frames (128 rows); at full resolution, one row per pixel
/// row of the plot, each standing for `rowSeconds` of sound (issue 39: the plot shows a set
/// span of time, `--history`, at any frame size), holding the loudest of the hops that
/// ended in it (a hop longer than a row fills as many rows as it lasts).
public struct SpectrogramState: ModeState {
    /// Newest row last: `grid.value(row: 0, …)` is the oldest.
    public var grid = History(rows: 128) {
        didSet { revision += 1 }
    }
    /// The full-resolution rows (nil: the grid is drawn instead).
    public var hops: History? = nil {
        didSet { revision += 1 }
    }
    /// Seconds of sound one row of `hops` stands for (0: one row per hop).
    public var rowSeconds: Double = 0
    /// Seconds between the grid's rows, measured between its pushes (0: not yet known).
    public private(set) var gridRowSeconds: Double = 0
    private var lastGridPush = -1.0
    private var gridPushes = 0
    public private(set) var revision = 0
    private var lastHop = -1
    /// Rows of `hops` pushed since the stream's start (media time / `rowSeconds`).
    private var rowsDone = -1
    /// The loudest of the hops since the last row, and whether a new hop has come since.
    private var pending: [Float] = []
    private var pendingFresh = false

    public init() {}

    public mutating func step(_ shared: VisualState, toward target: SpectrumFrame) {
        let n = target.bands.count
        if var h = hops {
            guard target.index != lastHop && target.index >= 0 else { return }
            lastHop = target.index
            hops = nil
            h = h.resized(bands: n)
            if rowSeconds > 0 {
                pushTimed(target, into: &h)
            } else {
                h.push(target.bands)
            }
            hops = h
        } else {
            if grid.bands != n { grid = grid.resized(bands: n) }
            if shared.scrolls {
                grid.push(shared.display)
                // (The first push may come before any frame's time is set: measured from the second.)
                if gridPushes >= 2 && shared.time > lastGridPush { gridRowSeconds = shared.time - lastGridPush }
                lastGridPush = shared.time
                gridPushes += 1
            }
        }
    }

    /// Takes a hop into the rows it completes: the rows that ended by the hop's end get the
    /// loudest of the hops since the last row (the first hop starts one row).
    private mutating func pushTimed(_ target: SpectrumFrame, into h: inout History) {
        let n = target.bands.count
        if pending.count != n {
            pending = [Float](repeating: 0, count: n)
            pendingFresh = false
        }
        target.bands.withUnsafeBufferPointer { b in
            for i in 0..<n { pending[i] = pendingFresh ? max(pending[i], b[i]) : b[i] }
        }
        pendingFresh = true
        let due = Int(min((target.time / rowSeconds).rounded(.down), Double(Int32.max)))
        if rowsDone < 0 || due < rowsDone { rowsDone = due - 1 }
        let rows = min(due - rowsDone, h.rows)
        for _ in 0..<max(rows, 0) { h.push(pending) }
        if rows > 0 { pendingFresh = false }
        rowsDone = max(rowsDone, due)
    }
}

extension VisualState {
    /// The grid spectrogram's history (empty when the state holds another mode's).
    public var spectrogram: History {
        get { (modeState as? SpectrogramState)?.grid ?? History(rows: 128) }
        set {
            var own = modeState as? SpectrogramState ?? SpectrogramState()
            own.grid = newValue
            modeState = own
        }
    }

    /// The full-resolution spectrogram's history, one row per hop (nil: not kept).
    public var hopHistory: History? {
        get { (modeState as? SpectrogramState)?.hops }
        set {
            var own = modeState as? SpectrogramState ?? SpectrogramState()
            own.hops = newValue
            modeState = own
        }
    }
}

extension VisualState {
    /// The spectrogram's rows as drawn (the full-resolution ones, else the grid's) and the
    /// seconds of sound per row (nil: no spectrogram state, or the time per row not known).
    public var spectrogramRows: (rows: History, seconds: Double)? {
        guard let own = modeState as? SpectrogramState else { return nil }
        if let hops = own.hops { return own.rowSeconds > 0 ? (hops, own.rowSeconds) : nil }
        return own.gridRowSeconds > 0 ? (own.grid, own.gridRowSeconds) : nil
    }
}
