/// The trigger of the oscilloscope mode (`scope`; issue 17): keeps the last few hundred
/// milliseconds of one channel and, once per video frame, picks where the displayed window
/// is centred so that a periodic sound stands still (after corrscope's correlation trigger).
///
/// - Every sample goes into a ring (`raw`) and, through a DC blocker (one pole at ≈ 10 Hz)
///   and two one-pole low-passes at `lowPassHz`, into a second ring (`filtered`).
/// - Each frame the window (`windowSeconds` wide, `traceLength` points) is centred on a
///   trigger: a rising zero crossing of the filtered signal (located to a fraction of a
///   sample by linear interpolation) within ±half a window of the nominal centre, which
///   trails the newest sample by a window, so the whole trace is already heard.
/// - Of the candidates, the one whose trace best matches the previous frame's trace
///   (normalised dot product, less a small penalty for distance from the centre) wins,
///   so the trace keeps its phase across frames instead of hopping between periods;
///   the first frame takes the crossing nearest the centre.
/// - No crossing (silence, DC, sounds below ≈ 1 / window): the window is free-running at
///   the nominal centre; silence draws a flat line.
///
/// One channel: stereo (a vector scope) needs a second ring fed with the right channel,
/// which the mono analysis feed does not deliver yet. All allocation at construction.
public final class ScopeTrigger {
    public static let windowSeconds = 0.025
    public static let traceLength = 512
    public static let lowPassHz = 1000.0
    /// Penalty weight for a candidate's distance from the nominal centre (at ±half a window).
    public static let centrePenalty: Float = 0.1

    public let sampleRate: Int
    /// Window width in samples.
    public let window: Int
    private var raw: [Float]
    private var filtered: [Float]
    private let mask: Int
    /// Samples written so far (absolute index of the next sample).
    public private(set) var written = 0
    private var dcX = 0 as Float, dcY = 0 as Float, lp1 = 0 as Float, lp2 = 0 as Float
    private let dcPole: Float, lpAlpha: Float
    /// The last trace (`traceLength` raw samples across the window) and whether it exists.
    public private(set) var trace: [Float]
    private var hasTrace = false
    private var candidate: [Float]
    /// Absolute sample position (fractional) of the last trigger, the window's centre.
    public private(set) var triggerPosition: Double = 0
    /// Whether the last frame found a rising crossing (false: free-running).
    public private(set) var triggered = false
    /// Display gain: brings the recent peak level (instant attack, release 5% per frame)
    /// to `targetLevel`, at most `maxGain`; quiet music fills the screen, silence stays flat.
    public private(set) var displayGain: Float = 1
    public static let targetLevel: Float = 0.8
    public static let maxGain: Float = 4
    private var envelope: Float = 0

    public init(sampleRate: Int) {
        self.sampleRate = sampleRate
        window = max(16, Int(Double(sampleRate) * ScopeTrigger.windowSeconds))
        var capacity = 1024
        while capacity < 4 * window { capacity *= 2 }
        raw = [Float](repeating: 0, count: capacity)
        filtered = raw
        mask = capacity - 1
        dcPole = Float(1 - 2 * Double.pi * 10 / Double(sampleRate))
        let w = 2 * Double.pi * ScopeTrigger.lowPassHz / Double(sampleRate)
        lpAlpha = Float(w / (1 + w))
        trace = [Float](repeating: 0, count: ScopeTrigger.traceLength)
        candidate = trace
    }

    /// Appends samples (any chunk size). Does not allocate.
    public func process(_ samples: UnsafeBufferPointer<Float>) {
        raw.withUnsafeMutableBufferPointer { r in
            filtered.withUnsafeMutableBufferPointer { f in
                var i = written
                for x in samples {
                    let d = x - dcX + dcPole * dcY
                    dcX = x; dcY = d
                    lp1 += (d - lp1) * lpAlpha
                    lp2 += (lp1 - lp2) * lpAlpha
                    r[i & mask] = x
                    f[i & mask] = lp2
                    i += 1
                }
                written = i
            }
        }
    }

    /// Chooses this frame's trigger and fills `trace`. Does not allocate.
    public func capture() {
        let half = window / 2
        let centre = written - 1 - window
        let n = ScopeTrigger.traceLength
        let step = Double(window) / Double(n - 1)
        guard centre - window - 2 >= 0 else {
            // Not enough audio yet: a flat line.
            for k in 0..<n { trace[k] = 0 }
            triggered = false
            triggerPosition = Double(max(centre, 0))
            return
        }
        let prevEnergy = hasTrace ? trace.reduce(0) { $0 + $1 * $1 } : 0
        var best = Double(centre), bestScore = -Float.infinity, found = false
        filtered.withUnsafeBufferPointer { f in
            for i in (centre - half + 1)...(centre + half) {
                let a = f[(i - 1) & mask], b = f[i & mask]
                guard a < 0, b >= 0 else { continue }
                let pos = Double(i - 1) + Double(-a / (b - a))
                let distance = Float(abs(pos - Double(centre)) / Double(half))
                var score: Float
                if prevEnergy > 1e-12 {
                    fill(&candidate, centre: pos, step: step)
                    var dot: Float = 0, energy: Float = 0
                    for k in 0..<n { dot += candidate[k] * trace[k]; energy += candidate[k] * candidate[k] }
                    score = dot / (energy * prevEnergy).squareRoot().nonZero - ScopeTrigger.centrePenalty * distance
                } else {
                    score = -distance
                }
                if score > bestScore { bestScore = score; best = pos; found = true }
            }
        }
        triggered = found
        triggerPosition = best
        fill(&trace, centre: best, step: step)
        hasTrace = true
        var peak: Float = 0
        for v in trace { peak = max(peak, abs(v)) }
        envelope = peak > envelope ? peak : envelope + (peak - envelope) * 0.05
        displayGain = min(ScopeTrigger.maxGain, ScopeTrigger.targetLevel / max(envelope, 1e-9))
    }

    /// `out[k]` = raw signal at centre + (k − (n−1)/2)·step, linearly interpolated.
    private func fill(_ out: inout [Float], centre: Double, step: Double) {
        let n = out.count
        let start = centre - Double(n - 1) * 0.5 * step
        raw.withUnsafeBufferPointer { r in
            out.withUnsafeMutableBufferPointer { o in
                for k in 0..<n {
                    let t = start + Double(k) * step
                    let i = Int(t.rounded(.down)), fr = Float(t - Double(i))
                    let a = r[i & mask], b = r[(i + 1) & mask]
                    o[k] = a + (b - a) * fr
                }
            }
        }
    }
}

private extension Float {
    /// The value, or the smallest normal number instead of zero (a safe divisor).
    var nonZero: Float { self > 0 ? self : .leastNormalMagnitude }
}
