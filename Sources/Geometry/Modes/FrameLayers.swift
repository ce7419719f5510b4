import Analysis
import SpecvizCore

/// What a layer of a frame was built from (`FrameLayers`): two frames whose layer has
/// equal keys draw it the same, item for item. nil: it may change on every frame.
public typealias LayerKey = any Equatable & Sendable

/// The damage of a frame's layers (`Scene.layers`), told from what each one was built
/// from: every part that adds items to the scene (the mode's plot, the waveform strip,
/// the labels, the overlays, the composer's own text) marks them with its key, and a
/// layer whose key is the last drawn frame's is `unchanged`. Nothing is compared but the
/// keys: the rasteriser then reuses the kept picture and reports changed rows from them.
///
/// The layers of a frame are the same parts in the same order on every frame of one
/// composer (layer k is compared with the last drawn frame's layer k).
public struct FrameLayers {
    /// The keys of the frame being built, and of the last frame drawn (nil: none).
    private var built: [LayerKey?] = []
    private var drawn: [LayerKey?]? = nil
    /// What every item of the frame depends on besides its layer's key (the beat flash,
    /// which brightens every vertex), for the frame being built and the last one drawn.
    private var builtCommon: Float = 0
    private var drawnCommon: Float = 0

    public init() {}

    /// Starts a frame whose every item also depends on `common` (its bits).
    public mutating func begin(common: Float) {
        built.removeAll(keepingCapacity: true)
        builtCommon = common
    }

    /// Marks the items of `scene` from item `first` on as the frame's next layer, built from
    /// `key` (nil: it changes on every frame). A changed layer that `scrolls` may be the
    /// last one moved by whole rows (`LayerDamage.scrolled`).
    public mutating func mark(_ scene: inout Scene, from first: Int, key: LayerKey?, scrolls: Bool = false) {
        let k = built.count
        built.append(key)
        scene.markLayer(from: first, damage: damage(k, key: key, scrolls: scrolls))
    }

    private func damage(_ k: Int, key: LayerKey?, scrolls: Bool) -> LayerDamage {
        guard let key else { return .everyFrame }
        if let drawn, builtCommon.bitPattern == drawnCommon.bitPattern, k < drawn.count, let last = drawn[k],
            FrameLayers.equal(key, last)
        {
            return .unchanged
        }
        return scrolls ? .scrolled : .changed
    }

    /// The frame last built was drawn: the next one is told from it.
    public mutating func drew() {
        drawn = built
        drawnCommon = builtCommon
    }

    /// The last frame drawn is not known (a failed or a transparent draw): every layer of
    /// the next frame has changed.
    public mutating func forget() { drawn = nil }

    /// Whether two keys are equal (of the same type and ==).
    static func equal(_ a: LayerKey, _ b: LayerKey) -> Bool {
        func same<T: Equatable>(_ x: T) -> Bool { (b as? T) == x }
        return same(a)
    }
}

/// What the labels with axes are built from (`ModeTraits.LabelSet.axes`), besides the
/// layout and palette, which a composer never changes.
struct AxisLabelInputs: Equatable, Sendable {
    var dbTop: Float
    var dbBottom: Float
    var axis: FrequencyAxis
    var levelUnit: String
    var title: String?
    /// The spectrogram's rows and seconds per row (its time axis).
    var historyRows: Int?
    var rowSeconds: Double?

    init(_ state: VisualState, title: String?) {
        dbTop = state.dbTop
        dbBottom = state.dbBottom
        axis = state.axis
        levelUnit = state.levelUnit
        self.title = title
        let rows = state.spectrogramRows
        historyRows = rows?.rows.rows
        rowSeconds = rows?.seconds
    }
}

/// What the tuner and BPM overlays are built from.
struct OverlayInputs: Equatable, Sendable {
    var tuner: TunerOverlay?
    var tempo: TempoOverlay?
}
