import Analysis
import SpecvizCore

/// A visualisation mode, as one unit: its name and summary, its traits (what is drawn
/// around it and what it needs fed), its builder and the labels it draws. Each mode lives
/// in its own folder under `Modes/` and is listed once in `ModeCatalog.modes`; nothing
/// else names it. See ARCHITECTURE.md, "Adding a mode".
public protocol Mode: Sendable {
    /// The name `--mode`, the config file and `specviz modes` know it by.
    var name: String { get }
    /// One line for `specviz modes`.
    var summary: String { get }
    var traits: ModeTraits { get }
    /// The builder of the mode's own geometry for these settings (made once per composer).
    func makeBuilder(_ settings: ModeSettings) -> any ModeBuilder
    /// The text around the picture. The default draws what `traits.labels` names; a mode
    /// whose labels are `.own` draws its own here.
    func buildLabels(_ state: VisualState, layout: Layout, settings: ModeSettings, title: String?, into scene: inout Scene)
    /// The part of the visual state only this mode uses (`VisualState.modeState`), for a
    /// frame `height` pixels tall; nil (the default): none.
    func makeState(_ settings: ModeSettings, height: Int) -> (any ModeState)?
    /// The mode's damage: a number that changes whenever its own picture (what its builder
    /// draws, for one composer's settings and layout) may change; nil (the default): it
    /// changes on every frame (no picture is kept after it). While it stays the same from
    /// one frame to the next, the frame starts from the last one's picture
    /// (`FrameLayers`, `LayerDamage`).
    func damageKey(_ state: VisualState) -> Int?
    /// Whether a new picture of the mode may be the last one moved by whole pixel rows (a
    /// scrolling history; the rasteriser then moves it instead of drawing it all again).
    /// The default: no.
    func scrolls(_ settings: ModeSettings) -> Bool
    /// What the mode's labels (`buildLabels`) are built from, besides the layout and the
    /// settings: equal keys, the same labels. The default knows the label sets of
    /// `ModeTraits.labels`; for `.own` it is nil (they may change on every frame), unless
    /// the mode gives its own.
    func labelsKey(_ state: VisualState, title: String?) -> LayerKey?
}

extension Mode {
    public func makeState(_ settings: ModeSettings, height: Int) -> (any ModeState)? { nil }
    public func damageKey(_ state: VisualState) -> Int? { nil }
    public func scrolls(_ settings: ModeSettings) -> Bool { false }

    public func labelsKey(_ state: VisualState, title: String?) -> LayerKey? {
        switch traits.labels {
        case .axes: AxisLabelInputs(state, title: title)
        case .titleOnly: title ?? ""
        case .none: 0
        case .own: nil
        }
    }

    public func buildLabels(_ state: VisualState, layout: Layout, settings: ModeSettings, title: String?, into scene: inout Scene) {
        switch traits.labels {
        case .axes(let style):
            Labels(style: style, heatPalette: settings.heatPalette).build(state, layout: layout, into: &scene, title: title)
        case .titleOnly:
            if let title, layout.labels { Labels.title(title, layout: layout, into: &scene) }
        case .own, .none:
            break
        }
    }
}

/// The part of the visual state only one mode uses: its histories, its meters, its traces.
/// It lives in `VisualState.modeState`, steps with the shared state and hears the trackers
/// the mode's traits ask for.
public protocol ModeState: Sendable {
    /// Advances one video frame, called by `VisualState.step` after the shared state has
    /// moved toward `target` (its `frameIndex` is still this frame's).
    mutating func step(_ shared: VisualState, toward target: SpectrumFrame)
    /// Takes what a tracker heard over this video frame (the default ignores it).
    mutating func hear(_ input: ModeInput, time: Double)
    /// Grows whenever what the mode's builder reads of this state changes (a mode whose
    /// builder reads nothing else gives it as its `damageKey`).
    var revision: Int { get }
}

extension ModeState {
    public mutating func step(_ shared: VisualState, toward target: SpectrumFrame) {}
    public mutating func hear(_ input: ModeInput, time: Double) {}
}

/// What the trackers feed a mode once per video frame (`ModeTraits.needsPitch`,
/// `needsScope`, `vectorScope`).
public enum ModeInput {
    /// The pitch display (nil: nothing heard) and the stroboscope's reading over `dt` seconds.
    case pitch(TunerReading?, strobe: StrobeReading?, dt: Double)
    /// The oscilloscope's trigger, ready to capture this frame's trace.
    case trigger(ScopeTrigger)
    /// A stereo input's recent sound, of which the last `samples` pairs are this frame's.
    case stereo(StereoHistory, samples: Int)
}

/// Builds a mode's own geometry: turns the visual state into triangles (and text) for one
/// frame. Builders are pure: same state and layout, same scene.
public protocol ModeBuilder {
    mutating func build(_ state: VisualState, layout: Layout, into scene: inout Scene)
    /// `build`, marking what it adds as layers of `layers` (`FrameLayers`), `key` being the
    /// mode's `damageKey` and `scrolls` its `scrolls`. The default marks the whole picture
    /// as one layer built from `key`; a builder whose picture has a part that changes less
    /// often (a cabinet that never does) marks it apart, so that it is not redrawn when
    /// only the rest changes (`TunerViewMode`).
    mutating func build(
        _ state: VisualState, layout: Layout, into scene: inout Scene, layers: inout FrameLayers, key: LayerKey?, scrolls: Bool)
}

extension ModeBuilder {
    public mutating func build(
        _ state: VisualState, layout: Layout, into scene: inout Scene, layers: inout FrameLayers, key: LayerKey?, scrolls: Bool
    ) {
        let first = scene.items.count
        build(state, layout: layout, into: &scene)
        layers.mark(&scene, from: first, key: key, scrolls: scrolls)
    }
}

/// What of the render's settings a mode's builder and labels may read.
public struct ModeSettings: Sendable {
    /// The frequency gradient (`--palette` in the modes without a heatmap).
    public var palette: Palette = .spectrum
    /// The heatmap (`--palette` in the modes with one; the heatmap labels' colour bar).
    public var heatPalette: Palette = .heat
    /// The spectrogram's one row per hop and colour per pixel instead of its 128×128 grid.
    public var fullResolution = false
    /// Seconds the full-resolution spectrogram shows, top to bottom, and the pixel rows of
    /// its plot (0: the frame's height), so that a row stands for a set time at any size.
    public var historySeconds = 10.0
    public var plotRows = 0
    /// The tuner view's meter pair, preset name and reference pitch (Hz).
    public var meter: TunerMeter = .arc
    public var preset = "chromatic"
    public var reference: Double = 440

    public init() {}
}

/// What a mode shows around its own geometry, and what it needs fed.
public struct ModeTraits: Sendable, Equatable {
    /// The text around the picture.
    public enum LabelSet: Sendable, Equatable {
        /// dB and frequency labels in this style, and the title.
        case axes(Labels.Style)
        /// The mode's own (`Mode.buildLabels`), title included.
        case own
        /// Only the title.
        case titleOnly
        /// None (the mode draws its own text inside its picture).
        case none
    }

    /// Shows the tuner and BPM overlays and the beat flash (SPEC §4).
    public var overlays: Bool
    /// Draws the waveform strip under the picture.
    public var waveformStrip: Bool
    public var labels: LabelSet
    /// `--palette` sets the heatmap rather than the frequency gradient.
    public var paletteIsHeatmap: Bool
    /// Needs the pitch tracker and stroboscope (the tuner view).
    public var needsPitch: Bool
    /// Needs the oscilloscope trigger.
    public var needsScope: Bool
    /// Draws a stereo input's two channels apart (`--channels stereo`).
    public var stereo: Bool
    /// Draws a stereo input as a vector scope beside its own picture.
    public var vectorScope: Bool

    public init(
        overlays: Bool = false, waveformStrip: Bool = true, labels: LabelSet, paletteIsHeatmap: Bool = false,
        needsPitch: Bool = false, needsScope: Bool = false, stereo: Bool = false, vectorScope: Bool = false
    ) {
        self.stereo = stereo
        self.vectorScope = vectorScope
        self.overlays = overlays
        self.waveformStrip = waveformStrip
        self.labels = labels
        self.paletteIsHeatmap = paletteIsHeatmap
        self.needsPitch = needsPitch
        self.needsScope = needsScope
    }
}
