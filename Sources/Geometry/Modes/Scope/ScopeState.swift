import Analysis

/// The oscilloscope's recent traces (its persistence) and, for a stereo input, this
/// frame's vector scope points.
public struct ScopeState: ModeState {
    public var traces = ScopeTraces() {
        didSet { revision += 1 }
    }
    /// (side, mid) pairs of this frame; empty for mono.
    public var vector: [SIMD2<Float>] = [] {
        didSet { revision += 1 }
    }
    public private(set) var revision = 0

    public init() {}

    /// A new trace (the trigger captures the window it has heard so far; the trace, scaled
    /// by its display gain, joins the persistence history), or this frame's stereo points.
    public mutating func hear(_ input: ModeInput, time: Double) {
        switch input {
        case .trigger(let trigger):
            trigger.capture()
            traces.push(trigger.trace, gain: trigger.displayGain, time: time)
        case .stereo(let history, let samples):
            history.points(max(2, samples), into: &vector)
        case .pitch:
            break
        }
    }
}

extension VisualState {
    /// The oscilloscope's traces (empty when the state holds another mode's).
    public var scope: ScopeTraces {
        get { (modeState as? ScopeState)?.traces ?? ScopeTraces() }
        set {
            var own = modeState as? ScopeState ?? ScopeState()
            own.traces = newValue
            modeState = own
        }
    }

    /// The vector scope's points for this frame (empty for mono or another mode).
    public var vector: [SIMD2<Float>] {
        get { (modeState as? ScopeState)?.vector ?? [] }
        set {
            var own = modeState as? ScopeState ?? ScopeState()
            own.vector = newValue
            modeState = own
        }
    }
}
