import Analysis
import Tuning

#if canImport(Glibc)
import Glibc
#endif

/// What the renderer shows at one video frame: the spectrum smoothed at the video rate,
/// peaks, the latest waveform, the auto-level window, the overlays, and the part only the
/// mode uses (`modeState`: its histories, meters or traces).
///
/// Smoothing (seed 000 Part 2, once per video frame): rise d += (t − d)·0.35,
/// fall d += (t − d)·0.12; peaks rise instantly and fall 0.006 per frame.
/// Histories take a new row every 3rd video frame (`scrolls`).
public struct VisualState: Sendable {
    public static let attack: Float = 0.35
    public static let decay: Float = 0.12
    public static let peakFall: Float = 0.006
    public static let scrollEvery = 3

    public var display = [Float](repeating: 0, count: LogBands.count)
    public var peaks = [Float](repeating: 0, count: LogBands.count)
    public var waveform = [Float](repeating: 0, count: SpectrumAnalyzer.waveformLength)
    public var dbTop: Float = -35
    public var dbBottom: Float = -75
    /// The bands' frequency axis and the level unit (from the analysis).
    public var axis: FrequencyAxis = .standard {
        didSet { if axis != oldValue { frequencyLabels = Labels.frequencies(for: axis) } }
    }
    /// `Labels.frequencies(for: axis)`, built when the axis changes (not every frame).
    public private(set) var frequencyLabels = Labels.frequencies(for: .standard)
    public var levelUnit = "dB"
    /// Rise and fall per video frame and the peak hold (`--smoothing`, `--peak-hold`).
    public var smoothing = Smoothing.seed
    /// Video frames each peak still holds before it falls.
    public var hold = [Int32](repeating: 0, count: LogBands.count)
    /// Video frames rendered so far.
    public var frameIndex = 0
    /// Additive colour boost of the beat flash (0 or 0.15).
    public var flash: Float = 0
    /// Media time of this video frame (s).
    public var time: Double = 0
    public var tuner: TunerOverlay? = nil
    public var tempo: TempoOverlay? = nil
    /// The part of the state only the mode uses (`Mode.makeState`); nil: none.
    public var modeState: (any ModeState)? = nil

    public init() {}

    /// Advances one video frame toward the analysis `target` (the spectrum at the frame's
    /// time); the mode's state reads `hop` (the latest hop's frame: the full-resolution
    /// spectrogram takes a row per hop), or `target` when nil. Does not allocate.
    /// Allocates only when the band count changes (once per analysis layout).
    public mutating func step(toward target: SpectrumFrame, hop: SpectrumFrame? = nil) {
        let n = target.bands.count
        if display.count != n {
            display = [Float](repeating: 0, count: n)
            peaks = [Float](repeating: 0, count: n)
            hold = [Int32](repeating: 0, count: n)
        }
        axis = target.axis
        levelUnit = target.levelUnit
        let attack = smoothing.attack, decay = smoothing.decay, holdFrames = smoothing.holdFrames
        display.withUnsafeMutableBufferPointer { d in
            peaks.withUnsafeMutableBufferPointer { p in
                hold.withUnsafeMutableBufferPointer { h in
                    target.bands.withUnsafeBufferPointer { t in
                        for i in 0..<d.count {
                            let k = t[i] > d[i] ? attack : decay
                            d[i] += (t[i] - d[i]) * k
                            if d[i] > p[i] {
                                p[i] = d[i]; h[i] = holdFrames
                            } else if h[i] > 0 {
                                h[i] -= 1
                            } else {
                                p[i] = max(0, p[i] - VisualState.peakFall)
                            }
                        }
                    }
                }
            }
        }
        waveform.withUnsafeMutableBufferPointer { w in
            target.waveform.withUnsafeBufferPointer { s in
                for i in 0..<w.count { w[i] = s[i] }
            }
        }
        dbTop = target.dbTop
        dbBottom = target.dbBottom
        if var own = modeState {
            // (Moved out while it steps, so that its storage stays unshared.)
            modeState = nil
            own.step(self, toward: hop ?? target)
            modeState = own
        }
        frameIndex += 1
    }

    /// Whether the histories take a new row this frame (every `scrollEvery`th).
    public var scrolls: Bool { frameIndex % VisualState.scrollEvery == 0 }

    /// Hands the mode's state what a tracker heard this frame (see `ModeInput`).
    public mutating func hear(_ input: ModeInput) {
        guard var own = modeState else { return }
        modeState = nil
        own.hear(input, time: time)
        modeState = own
    }
}

/// A ring of spectrum rows (`bands` values each), oldest first when read by `row(_:)`.
public struct History: Sendable {
    public let rows: Int
    public let bands: Int
    @usableFromInline var storage: [Float]
    @usableFromInline var next = 0
    /// Rows pushed so far, up to `rows`.
    public private(set) var filled = 0

    public init(rows: Int, bands: Int = LogBands.count) {
        self.rows = rows
        self.bands = bands
        storage = [Float](repeating: 0, count: rows * bands)
    }

    /// This ring, emptied, with rows of `bands` values (as it is when the count matches).
    public func resized(bands: Int) -> History { bands == self.bands ? self : History(rows: rows, bands: bands) }

    /// Appends a row, dropping the oldest. Does not allocate.
    public mutating func push(_ row: [Float]) {
        let base = next * bands
        let n = bands
        storage.withUnsafeMutableBufferPointer { s in
            for i in 0..<n { s[base + i] = row[i] }
        }
        next = (next + 1) % rows
        filled = min(filled + 1, rows)
    }

    /// Value of band `band` in row `r` (0 = oldest, rows − 1 = newest).
    @inlinable
    public func value(row r: Int, band: Int) -> Float {
        storage[((next + r) % rows) * bands + band]
    }
}

/// The tuner overlay's content (SPEC §4): note and cents, coloured by accuracy.
public struct TunerOverlay: Sendable, Equatable {
    public var note: String
    public var cents: Double
    public var frequency: Double
    /// The reading is unsure (another sound dominates the note's band): drawn dim, no cents.
    public var unsure: Bool
    public init(note: String, cents: Double, frequency: Double, unsure: Bool = false) {
        self.note = note; self.cents = cents; self.frequency = frequency; self.unsure = unsure
    }
    /// Green in tune, yellow near, red far (`TuningTolerance`, shared by every tuner display);
    /// grey when unsure.
    public var color: SIMD4<Float> {
        if unsure { return SIMD4(0.6, 0.6, 0.6, 1) }
        return switch TuningTolerance.classify(cents: cents) {
        case .inTune: SIMD4(0.2, 1, 0.4, 1)
        case .near: SIMD4(1, 0.85, 0.2, 1)
        case .far: SIMD4(1, 0.3, 0.25, 1)
        }
    }
}

/// The BPM overlay's content: tempo and the beat dot's brightness (1 on a beat, fading).
public struct TempoOverlay: Sendable, Equatable {
    public var bpm: Double?
    public var beat: Float
    /// The newest beat's number in the bar (1 = downbeat), nil when unknown.
    public var position: Int?
    /// Beats per bar when the metre is known (drives the beat-in-bar dots).
    public var beatsPerBar: Int?
    public init(bpm: Double?, beat: Float, position: Int? = nil, beatsPerBar: Int? = nil) {
        self.bpm = bpm; self.beat = beat; self.position = position; self.beatsPerBar = beatsPerBar
    }
}

/// Display smoothing per video frame (`--smoothing ATTACK:RELEASE` in ms) and the peak
/// hold (`--peak-hold SECONDS`). A time constant τ at f frames/s gives the per-frame
/// coefficient 1 − e^(−1/(f·τ)); the seed's 0.35 / 0.12 are τ ≈ 38.7 / 130.1 ms at 60 fps.
public struct Smoothing: Sendable, Equatable {
    /// Fraction of the distance to the target taken per frame when rising / falling.
    public var attack: Float
    public var decay: Float
    /// Frames a peak holds before falling.
    public var holdFrames: Int32

    public init(attack: Float, decay: Float, holdFrames: Int32 = 0) {
        self.attack = attack
        self.decay = decay
        self.holdFrames = holdFrames
    }

    /// The seed's per-frame values, no hold.
    public static let seed = Smoothing(attack: VisualState.attack, decay: VisualState.decay)

    /// The seed's time constants (ms) at 60 fps.
    public static let seedMilliseconds = (
        attack: -1000 / (60 * log(1 - Double(VisualState.attack))),
        release: -1000 / (60 * log(1 - Double(VisualState.decay)))
    )

    /// From time constants in ms (0: instant) at `fps`, and a hold in seconds.
    public init(attackMS: Double, releaseMS: Double, holdSeconds: Double = 0, fps: Int) {
        func k(_ ms: Double) -> Float { ms <= 0 ? 1 : Float(1 - exp(-1000 / (Double(fps) * ms))) }
        self.init(attack: k(attackMS), decay: k(releaseMS), holdFrames: Int32((holdSeconds * Double(fps)).rounded()))
    }
}
