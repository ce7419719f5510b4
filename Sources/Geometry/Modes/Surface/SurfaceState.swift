import Analysis

/// The 3D waterfall's history: a row of the smoothed display every
/// `VisualState.scrollEvery` video frames, the last 60.
public struct SurfaceState: ModeState {
    /// Newest row last.
    public var history = History(rows: 60) {
        didSet { revision += 1 }
    }
    public private(set) var revision = 0

    public init() {}

    public mutating func step(_ shared: VisualState, toward target: SpectrumFrame) {
        if history.bands != target.bands.count { history = history.resized(bands: target.bands.count) }
        if shared.scrolls { history.push(shared.display) }
    }
}

extension VisualState {
    /// The waterfall's history (empty when the state holds another mode's).
    public var surface: History {
        get { (modeState as? SurfaceState)?.history ?? History(rows: 60) }
        set {
            var own = modeState as? SurfaceState ?? SurfaceState()
            own.history = newValue
            modeState = own
        }
    }
}
