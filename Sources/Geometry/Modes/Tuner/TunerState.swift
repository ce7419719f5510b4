import Analysis

/// The tuner view's meters, updated once per video frame from the pitch display and the
/// stroboscope (nil until the first: the view shows `---`).
public struct TunerState: ModeState {
    public var view: TunerViewState? = nil {
        didSet { if view != oldValue { revision += 1 } }
    }
    public private(set) var revision = 0

    public init() {}

    public mutating func hear(_ input: ModeInput, time: Double) {
        guard case .pitch(let display, let strobe, let dt) = input else { return }
        var next = view ?? TunerViewState()
        next.update(display, strobe: strobe, dt: dt)
        view = next
    }
}

extension VisualState {
    /// The tuner view's meter state (nil shows `---`, as does another mode's state).
    public var tunerView: TunerViewState? {
        get { (modeState as? TunerState)?.view }
        set {
            var own = modeState as? TunerState ?? TunerState()
            own.view = newValue
            modeState = own
        }
    }
}
