import SpecvizCore

/// The modes, and how a mode's frame is put together.
public enum ModeCatalog {
    /// Every mode, in the order `specviz modes` lists them and the live view cycles through
    /// them (the first is the default). Adding a mode is one line here and its folder.
    public static let modes: [any Mode] = [
        Bars(), Curve(), Circular(), Spectrogram(), Surface(), SurfacePlus(), Tuner(), Scope(),
    ]

    /// Builds a mode's frame: its builder, then what its traits add around it (waveform
    /// strip, labels, overlays), in that order, each marked as a layer of `layers` with
    /// what it was built from (the plot's `Mode.damageKey`, the labels' `Mode.labelsKey`,
    /// the overlays' contents; the strip changes on every frame). Returns how many items
    /// the builder added (the mode's own picture).
    @discardableResult
    public static func build(
        _ mode: VisualizationMode, builder: inout any ModeBuilder, state: VisualState, layout: Layout,
        settings: ModeSettings, title: String?, into scene: inout Scene, layers: inout FrameLayers
    ) -> Int {
        let before = scene.items.count
        let traits = mode.traits, unit = mode.unit
        // A heatmap's colour key takes a column right of the plot.
        let plot = traits.labels == .axes(.heatmap) ? layout.keyed(labelWidth: Labels.keyLabelWidth(state, layout: layout)) : layout
        builder.build(state, layout: plot, into: &scene, layers: &layers, key: unit.damageKey(state), scrolls: unit.scrolls(settings))
        let own = scene.items.count - before
        var first = scene.items.count
        if traits.waveformStrip {
            WaveformStrip().build(state, layout: layout, into: &scene)
            layers.mark(&scene, from: first, key: nil)
        }
        first = scene.items.count
        unit.buildLabels(state, layout: plot, settings: settings, title: title, into: &scene)
        layers.mark(&scene, from: first, key: unit.labelsKey(state, title: title))
        if traits.overlays {
            first = scene.items.count
            OverlayView().build(state, layout: layout, into: &scene)
            layers.mark(&scene, from: first, key: OverlayInputs(tuner: state.tuner, tempo: state.tempo))
        }
        return own
    }

    /// `build` with a builder made for the call (tests and one-off frames).
    public static func build(
        _ mode: VisualizationMode, state: VisualState, layout: Layout, settings: ModeSettings = ModeSettings(),
        title: String? = nil, into scene: inout Scene
    ) {
        var builder = mode.unit.makeBuilder(settings)
        var layers = FrameLayers()
        build(mode, builder: &builder, state: state, layout: layout, settings: settings, title: title, into: &scene, layers: &layers)
    }
}
