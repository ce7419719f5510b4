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
