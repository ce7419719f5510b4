import Analysis

/// What the renderer shows at one video frame: the spectrum smoothed at the video rate,
/// peaks, the latest waveform, the auto-level window, and the scrolling histories.
///
/// Smoothing (seed 000 Part 2, once per video frame): rise d += (t − d)·0.35,
/// fall d += (t − d)·0.12; peaks rise instantly and fall 0.006 per frame.
/// Histories take a new row every 3rd video frame (spectrogram 128 rows, surface 60).
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
    /// Newest row last: `spectrogram.row(0)` is the oldest.
    public var spectrogram = History(rows: 128)
    public var surface = History(rows: 60)
    /// Video frames rendered so far.
    public var frameIndex = 0
    /// Additive colour boost of the beat flash (0 or 0.15).
    public var flash: Float = 0
    /// Media time of this video frame (s).
    public var time: Double = 0
    public var tuner: TunerOverlay? = nil
    public var tempo: TempoOverlay? = nil
    /// The tuner view's meter state (`--mode tuner`); nil shows `---`.
    public var tunerView: TunerViewState? = nil
    /// The oscilloscope's recent traces (`--mode scope`); empty in other modes.
    public var scope = ScopeTraces()

    public init() {}

    /// Advances one video frame toward the latest analysis `target`. Does not allocate.
    public mutating func step(toward target: SpectrumFrame) {
        display.withUnsafeMutableBufferPointer { d in
            peaks.withUnsafeMutableBufferPointer { p in
                target.bands.withUnsafeBufferPointer { t in
                    for i in 0..<d.count {
                        let k = t[i] > d[i] ? VisualState.attack : VisualState.decay
                        d[i] += (t[i] - d[i]) * k
                        p[i] = d[i] > p[i] ? d[i] : max(0, p[i] - VisualState.peakFall)
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
        if frameIndex % VisualState.scrollEvery == 0 {
            spectrogram.push(display)
            surface.push(display)
        }
        frameIndex += 1
    }
}

/// A ring of spectrum rows (128 bands each), oldest first when read by `row(_:)`.
public struct History: Sendable {
    public let rows: Int
    @usableFromInline var storage: [Float]
    @usableFromInline var next = 0

    public init(rows: Int) {
        self.rows = rows
        storage = [Float](repeating: 0, count: rows * LogBands.count)
    }

    /// Appends a row, dropping the oldest. Does not allocate.
    public mutating func push(_ row: [Float]) {
        let base = next * LogBands.count
        storage.withUnsafeMutableBufferPointer { s in
            for i in 0..<LogBands.count { s[base + i] = row[i] }
        }
        next = (next + 1) % rows
    }

    /// Value of band `band` in row `r` (0 = oldest, rows − 1 = newest).
    @inlinable
    public func value(row r: Int, band: Int) -> Float {
        storage[((next + r) % rows) * LogBands.count + band]
    }
}

/// The tuner overlay's content (SPEC §4): note and cents, coloured by accuracy.
public struct TunerOverlay: Sendable {
    public var note: String
    public var cents: Double
    public var frequency: Double
    public init(note: String, cents: Double, frequency: Double) {
        self.note = note; self.cents = cents; self.frequency = frequency
    }
    /// Green within 10¢, yellow within 25¢, red beyond (seed 000 Part 4).
    public var color: SIMD4<Float> {
        let a = abs(cents)
        return a <= 10 ? SIMD4(0.2, 1, 0.4, 1) : a <= 25 ? SIMD4(1, 0.85, 0.2, 1) : SIMD4(1, 0.3, 0.25, 1)
    }
}

/// The BPM overlay's content: tempo and the beat dot's brightness (1 on a beat, fading).
public struct TempoOverlay: Sendable {
    public var bpm: Double?
    public var beat: Float
    public init(bpm: Double?, beat: Float) { self.bpm = bpm; self.beat = beat }
}
