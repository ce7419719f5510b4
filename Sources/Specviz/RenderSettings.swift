import Analysis
import Geometry
import Tuning

/// Everything that decides how frames look, independent of where they go.
public struct RenderSettings: Sendable {
    public var mode: VisualizationMode = .default
    public var width = 1920
    public var height = 1080
    /// Video frames per second (smoothing runs once per video frame).
    public var fps = 60
    public var labels = true
    public var title: String? = nil
    /// Render-time / FPS readout in the corner.
    public var stats = false
    /// Artist line under the title (with `title`, from the file's tags or `--artist`).
    public var artist: String? = nil
    /// Draw the left and right channels apart (`--channels stereo`): nil draws one.
    public var stereo: StereoLayout? = nil
    /// Frames with straight alpha: 0 where nothing was drawn (`--transparent`).
    public var transparent = false
    /// Cover, logo and background pictures (issue 17).
    public var artwork = Artwork()
    /// Seconds a beat flash lasts (at any frame rate: 6 frames at 60 fps, 3 at 30).
    public var beatFlash = 0.1
    /// The spectrum analysis (scale, bands, FFT, window, weighting, tilt, dB range, gain).
    /// The library default is the seed's analysis; the command line starts from
    /// `AnalysisConfig()` (its own default tilt).
    public var analysis = AnalysisConfig.seed(musicMode: true)
    /// Display smoothing per video frame toward the analysis (seed: rise 0.35, fall 0.12)
    /// and the peak markers' hold time (s) before they fall.
    public var smoothing = Smoothing.seed
    /// Spectrogram: the seed's 128-row grid, or one row per hop and colour per pixel.
    public var fullResolutionSpectrogram = false
    /// Seconds the full-resolution spectrogram shows, top to bottom (`--history`).
    public var historySeconds = RenderSettings.defaultHistorySeconds
    public static let defaultHistorySeconds = 10.0
    /// Legacy switch: true keeps the analysis' tilt (music mode), false selects the seed's
    /// untilted mic-mode levels when the analysis uses the seed measure, else no tilt.
    public var musicMode: Bool {
        get { analysis.tilt != .seedUntilted && analysis.tilt != .off }
        set {
            if newValue {
                if analysis.tilt == .seedUntilted { analysis.tilt = .seed }
            } else {
                analysis.tilt = analysis.tilt.usesSeedLevels ? .seedUntilted : .off
            }
        }
    }
    /// Static gain added to every band (dB).
    public var gainDB: Float {
        get { analysis.gainDB }
        set { analysis.gainDB = newValue }
    }
    public var palette: Palette = .spectrum
    /// The spectrogram's heatmap: magma by default (issue 39: the rainbow `heat` is harsh
    /// beside it; `--palette heat` keeps it).
    public var heatPalette: Palette = .magma
    /// Tuner and BPM overlays (drawn in bars, curve, surface, surface+).
    public var tunerOverlay = false
    public var tempoOverlay = false
    public var preset: TuningPreset = .chromatic
    public var reference: Double = 440
    /// Temperament, tonic and transposition of the tuner overlay and view (issue 19).
    public var tuningSystem: TuningSystem = .equal
    /// Meter pair of `--mode tuner` (seed 004 §3.2).
    public var meter: TunerMeter = .arc
    /// Rasteriser threads.
    public var threads = 2
    /// How far back a render's tuner remembers (`TunerMemory`): periods of this many
    /// seconds, each shown by a pitch tracker started `tunerWarmUp` seconds before it.
    public var tunerPeriod = 20.0
    public var tunerWarmUp = 4.0

    public init() {}

    /// What the mode's builder and labels read of these settings.
    public var modeSettings: ModeSettings {
        var m = ModeSettings()
        m.palette = palette
        m.heatPalette = heatPalette
        m.fullResolution = fullResolutionSpectrogram
        m.historySeconds = historySeconds
        m.meter = meter
        m.preset = preset.id
        m.reference = reference
        return m
    }
}

/// How a stereo render places its two channels.
public enum StereoLayout: String, CaseIterable, Sendable {
    /// Left on top, right below, each a whole picture at half height.
    case split
    /// Left above the centre line, right mirrored below it: the spectra grow outward from
    /// the middle, where the two waveform strips meet.
    case mirror
}
