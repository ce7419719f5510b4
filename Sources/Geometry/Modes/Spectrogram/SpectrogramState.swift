import Analysis

/// The spectrogram's history: on the seed's grid, a row of the smoothed display every
/// `VisualState.scrollEvery` video frames (128 rows); at full resolution, one row per
/// analysis hop (as many as the frame has pixel rows).
public struct SpectrogramState: ModeState {
    /// Newest row last: `grid.value(row: 0, …)` is the oldest.
    public var grid = History(rows: 128) {
        didSet { revision += 1 }
    }
    /// One row per hop (nil: the grid is drawn instead).
    public var hops: History? = nil {
        didSet { revision += 1 }
    }
    public private(set) var revision = 0
    private var lastHop = -1

    public init() {}

    public mutating func step(_ shared: VisualState, toward target: SpectrumFrame) {
        let n = target.bands.count
        if var h = hops {
            guard target.index != lastHop && target.index >= 0 else { return }
            hops = nil
            h = h.resized(bands: n)
            h.push(target.bands)
            hops = h
            lastHop = target.index
        } else {
            if grid.bands != n { grid = grid.resized(bands: n) }
            if shared.scrolls { grid.push(shared.display) }
        }
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
