import Geometry
import SpecvizCore

/// Builds a mode's frame: its builder, then what its traits add around it (waveform strip,
/// labels, overlays), in that order.
enum ModeCatalog {
    static func build(
        _ mode: VisualizationMode, state: VisualState, layout: Layout, settings: RenderSettings,
        into scene: inout Scene
    ) {
        switch mode {
        case .tuner:
            TunerViewMode(meter: settings.meter, preset: settings.preset.id, reference: settings.reference)
                .build(state, layout: layout, into: &scene)
        case .scope:
            ScopeMode().build(state, layout: layout, into: &scene)
        case .bars:
            BarsMode(palette: settings.palette).build(state, layout: layout, into: &scene)
        case .curve:
            CurveMode(palette: settings.palette).build(state, layout: layout, into: &scene)
        case .circular:
            CircularMode(palette: settings.palette).build(state, layout: layout, into: &scene)
        case .spectrogram:
            if settings.fullResolutionSpectrogram {
                FullSpectrogramMode(palette: settings.heatPalette).build(state, layout: layout, into: &scene)
            } else {
                SpectrogramMode(palette: settings.heatPalette).build(state, layout: layout, into: &scene)
            }
        case .surface, .surfacePlus:
            SurfaceMode(ridgelines: mode == .surfacePlus, palette: settings.palette).build(state, layout: layout, into: &scene)
        }
        let traits = mode.traits
        if traits.waveformStrip { WaveformStrip().build(state, layout: layout, into: &scene) }
        switch traits.labels {
        case .axes(let style):
            Labels(style: style, heatPalette: settings.heatPalette).build(state, layout: layout, into: &scene, title: settings.title)
        case .surface:
            SurfaceMode.labels(state, layout: layout, into: &scene, title: settings.title)
        case .titleOnly:
            if let title = settings.title, layout.labels { Labels.title(title, layout: layout, into: &scene) }
        case .none:
            break
        }
        if traits.overlays { OverlayView().build(state, layout: layout, into: &scene) }
    }
}
