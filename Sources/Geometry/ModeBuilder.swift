import SpecvizCore

/// A visualisation mode: turns the visual state into triangles (and text) for one frame.
/// Builders are pure: same state and layout, same scene.
public protocol ModeBuilder {
    mutating func build(_ state: VisualState, layout: Layout, into scene: inout Scene)
}

/// The visualisation modes of SPEC §4.
public enum VisualizationMode: String, CaseIterable, Sendable {
    case bars, curve, circular, spectrogram, surface
    case surfacePlus = "surface+"
    case tuner
    case scope

    public var summary: String {
        switch self {
        case .bars: return "128 gradient bars with falling peaks"
        case .curve: return "filled spectrum curve with a bright outline and peak squares"
        case .circular: return "128 radial bars around a ring"
        case .spectrogram: return "scrolling 128x128 heatmap (time up, frequency across)"
        case .surface: return "3D waterfall: lit mesh of the last 60 spectra"
        case .surfacePlus: return "3D waterfall with ridgelines along each spectrum"
        case .tuner: return "chromatic tuner: LED arc, note wheel, stroboscope"
        case .scope: return "oscilloscope: triggered waveform with phosphor persistence"
        }
    }
}

/// What a mode shows around its own geometry, and what it needs fed: decided here, once,
/// so that adding a mode is one builder file, one entry in `traits` and its golden frames.
public struct ModeTraits: Sendable, Equatable {
    /// The text around the picture.
    public enum LabelSet: Sendable, Equatable {
        /// dB and frequency labels in this style, and the title.
        case axes(Labels.Style)
        /// The 3D waterfall's axis labels and the title.
        case surface
        /// Only the title.
        case titleOnly
        /// None (the mode draws its own text).
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

extension VisualizationMode {
    /// The mode's traits (the one table of them).
    public var traits: ModeTraits {
        switch self {
        case .bars, .curve: return ModeTraits(overlays: true, labels: .axes(.linear), stereo: true)
        case .circular: return ModeTraits(labels: .axes(.radial))
        case .spectrogram: return ModeTraits(labels: .axes(.heatmap), paletteIsHeatmap: true, stereo: true)
        case .surface, .surfacePlus: return ModeTraits(overlays: true, labels: .surface)
        case .tuner: return ModeTraits(waveformStrip: false, labels: .none, needsPitch: true)
        case .scope: return ModeTraits(waveformStrip: false, labels: .titleOnly, needsScope: true, vectorScope: true)
        }
    }
}
