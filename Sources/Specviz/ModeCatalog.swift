import Geometry
import SpecvizCore

/// Which builders make up each mode's frame.
enum ModeCatalog {
    static func build(_ mode: VisualizationMode, state: VisualState, layout: Layout, settings: RenderSettings,
                      into scene: inout Scene) {
        switch mode {
        case .bars:
            BarsMode(palette: settings.palette).build(state, layout: layout, into: &scene)
        default:
            BarsMode(palette: settings.palette).build(state, layout: layout, into: &scene)
        }
        WaveformStrip().build(state, layout: layout, into: &scene)
        Labels().build(state, layout: layout, into: &scene, title: settings.title)
    }
}
