import Analysis

/// How far back a render's tuner remembers (issue 41): the pitch tracker and stroboscope
/// whose readings a render shows during the period [i·period, (i+1)·period) of the audio
/// are a fresh pair started `warmUp` before it, at i·period − warmUp (the first at 0), and
/// fed every sample from there. So what the tuner shows at any time depends on at most
/// `period + warmUp` of the audio before it — its latch, smoothing, filters, partial
/// histories and tail gate included — and a segment of a render (`--segment K/N`) needs the
/// tracker only from the start of its period's warm-up, not from 0, and still shows exactly
/// the readings of a single pass. A new pair takes over at a period's start having heard
/// `warmUp` of the same sound (it latches within a few hops), so the change is rarely
/// visible: at most a reading that the old pair's longer history would have made otherwise.
/// Live keeps one tracker (no memory bound): it has no segments.
public struct TunerMemory: Sendable, Equatable {
    /// Samples per period and of the warm-up before it.
    public let period: Int
    public let warmUp: Int

    /// 20 s periods with 4 s warm-ups: a segment's tracker pre-roll is at most 24 s of audio
    /// (about 0.4 s of CPU); a single pass runs two trackers a fifth of the time.
    public init(sampleRate: Int, period: Double = 20, warmUp: Double = 4) {
        self.period = max(1, Int(period * Double(sampleRate)))
        self.warmUp = min(self.period - 1, max(0, Int(warmUp * Double(sampleRate))))
    }

    /// The sample where the pair shown at sample `n` starts hearing.
    public func start(ofPairShownAt n: Int) -> Int {
        let i = max(0, n) / period
        return i == 0 ? 0 : i * period - warmUp
    }
}

extension OverlayTrackers {
    /// A render that shows frames only from sample `first` on (a segment): the shown pitch
    /// tracker hears nothing before the start of the pair shown there (the frames before
    /// `first` are stepped, not drawn), which that pair's readings never depend on.
    /// Without a memory bound (live) nothing is skipped.
    public func skipTuner(before first: Int) {
        guard let memory else { return }
        skipUntil = memory.start(ofPairShownAt: first)
    }

    /// The sample from which the shown pair hears (before it, the pair shown is one no
    /// drawn frame shows: the pair of `skipUntil`'s period takes over first).
    private var shownFrom: Int { skipUntil == 0 ? 0 : skipUntil + (memory?.warmUp ?? 0) }

    private func takeSpare() -> (PitchTracker, StroboscopeAnalyzer) {
        defer { spare = nil }
        return spare ?? makePair()
    }

    /// Feeds the shown pair (from `skipUntil`) and the warming one, cutting `samples` at
    /// each warm-up start and period start, where a pair is made or takes over.
    func processPitch(_ samples: UnsafeBufferPointer<Float>) {
        var offset = 0
        while offset < samples.count {
            let at = position + offset
            var end = samples.count
            if let memory {
                let phase = at % memory.period
                if at > 0 && phase == 0 {
                    (pitch, strobe) = next ?? takeSpare()
                    next = nil
                } else if at >= skipUntil && phase == memory.period - memory.warmUp && next == nil {
                    next = takeSpare()
                }
                let toWarm = memory.period - memory.warmUp - phase
                let toSwitch = memory.period - phase
                end = min(end, offset + (toWarm > 0 ? toWarm : toSwitch))
            }
            let piece = UnsafeBufferPointer(rebasing: samples[offset..<end])
            if let pitch, let strobe, at >= shownFrom {
                pitchSamples += piece.count
                feed(pitch, strobe, piece)
                heardSinceReading = true
            }
            if let (p, s) = next {
                pitchSamples += piece.count
                feed(p, s, piece)
            }
            offset = end
        }
    }

    private func feed(_ pitch: PitchTracker, _ strobe: StroboscopeAnalyzer, _ piece: UnsafeBufferPointer<Float>) {
        pitch.process(piece)
        // The strobe follows the target of what is displayed (dark while nothing is).
        strobe.setTarget(frequency: pitch.display.map { system.frequency(of: system.sounding($0.target), reference: reference) } ?? 0)
        strobe.process(piece)
    }
}
