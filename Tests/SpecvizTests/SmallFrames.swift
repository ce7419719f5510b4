import Geometry
import Specviz

extension RenderSettings {
    /// A test's frame: `mode` at `width` × `height`, no labels, one raster thread (the same
    /// pixels on any machine), `fps` frames a second.
    static func small(_ mode: VisualizationMode = .bars, width: Int, height: Int, fps: Int = 60) -> RenderSettings {
        var s = RenderSettings()
        s.mode = mode
        s.width = width
        s.height = height
        s.labels = false
        s.threads = 1
        s.fps = fps
        return s
    }
}
