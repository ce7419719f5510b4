import Geometry
import SpecvizCore

/// Which builders make up each mode's frame.
enum ModeCatalog {
    static func build(_ mode: VisualizationMode, state: VisualState, layout: Layout, settings: RenderSettings,
                      into scene: inout Scene) {
        switch mode {
        case .tuner:
            TunerViewMode(meter: settings.meter, preset: settings.preset.id, reference: settings.reference)
                .build(state, layout: layout, into: &scene)
            return
        case .scope:
            // The scope replaces the waveform strip and the spectrum labels.
            ScopeMode().build(state, layout: layout, into: &scene)
            if let title = settings.title, layout.labels { Labels.title(title, layout: layout, into: &scene) }
            return
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
        WaveformStrip().build(state, layout: layout, into: &scene)
        if mode == .surface || mode == .surfacePlus {
            SurfaceMode.labels(state, layout: layout, into: &scene, title: settings.title)
        } else {
            let style: Labels.Style = mode == .circular ? .radial : mode == .spectrogram ? .heatmap : .linear
            Labels(style: style, heatPalette: settings.heatPalette).build(state, layout: layout, into: &scene, title: settings.title)
        }
        // Tuner and BPM overlays (SPEC §4: bars, curve, surface, surface+).
        if mode == .bars || mode == .curve || mode == .surface || mode == .surfacePlus {
            OverlayView().build(state, layout: layout, into: &scene)
        }
    }
}
