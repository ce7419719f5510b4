import Geometry
import Tuning

/// Everything that decides how frames look, independent of where they go.
public struct RenderSettings: Sendable {
    public var mode: VisualizationMode = .bars
    public var width = 1920
    public var height = 1080
    /// Video frames per second (smoothing runs once per video frame).
    public var fps = 60
    public var labels = true
    public var title: String? = nil
    /// Render-time / FPS readout in the corner.
    public var stats = false
    /// Music mode (file input) applies the spectral tilt; mic mode does not.
    public var musicMode = true
    /// Static gain added to every band (dB).
    public var gainDB: Float = 0
    public var palette: Palette = .spectrum
    public var heatPalette: Palette = .heat
    /// Tuner and BPM overlays (drawn in bars, curve, surface, surface+).
    public var tunerOverlay = false
    public var tempoOverlay = false
    public var preset: String = "chromatic"
    public var reference: Double = 440
    /// Meter pair of `--mode tuner` (seed 004 §3.2).
    public var meter: TunerMeter = .arc
    /// Rasteriser threads.
    public var threads = 2

    public init() {}
}
