import Analysis

/// The 3D waterfall's history: a row of the smoothed display every
/// `VisualState.scrollEvery` video frames, the last 60; and what moves it every frame in
/// between: the newest spectrum (`live`, the front row) and how far the history has
/// scrolled toward its next row (`phase`).
public struct SurfaceState: ModeState {
    /// Newest row last.
    public var history = History(rows: 60) {
        didSet { revision += 1 }
    }
    /// The smoothed display of this frame, drawn as the front row (empty: the newest
    /// history row, as in a state built from rows alone).
    public private(set) var live: [Float] = []
    /// Fraction (0 ≤ phase < 1) of a row's spacing the history has moved back since its
    /// newest row was taken: frames since then over `VisualState.scrollEvery`.
    public private(set) var phase: Float = 0
    public private(set) var revision = 0

    public init() {}

    public mutating func step(_ shared: VisualState, toward target: SpectrumFrame) {
        if history.bands != target.bands.count { history = history.resized(bands: target.bands.count) }
        if shared.scrolls { history.push(shared.display) }
        if live.count != shared.display.count { live = [Float](repeating: 0, count: shared.display.count) }
        shared.display.withUnsafeBufferPointer { d in
            live.withUnsafeMutableBufferPointer { l in for i in 0..<l.count { l[i] = d[i] } }
        }
        phase = Float(shared.frameIndex % VisualState.scrollEvery) / Float(VisualState.scrollEvery)
        // The picture moves every frame (the front row and the scroll).
        revision += 1
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

    /// The waterfall's front row and scroll phase (`SurfaceState.live`, `.phase`).
    public var surfaceMotion: (live: [Float], phase: Float) {
        guard let own = modeState as? SurfaceState else { return ([], 0) }
        return (own.live, own.phase)
    }
}
