/// Plays a `ToneScore` through a `ToneEngine`, sample-accurately, as a pull stream of mono
/// blocks: each event takes effect on the sample nearest its time. Ends once the last event
/// is past and the release tails and output chain have gone silent.
///
/// The score's events are copied at construction; `render` does not allocate.
public final class ToneRenderer {
    public let engine: ToneEngine
    /// Sample rate (Hz).
    public var sampleRate: Double { engine.sampleRate }
    private let eventFrames: [Int]
    private let events: [ToneScore.Event]
    private var nextEvent = 0
    private var position = 0
    /// A hard cap on the stream length (frames) so a malformed score cannot run forever.
    private let maxFrames: Int

    /// - Parameters: score, sampleRate (Hz), speakerVoicing (LR4 high-pass at 140 Hz).
    public init(score: ToneScore, sampleRate: Double, speakerVoicing: Bool = false) {
        engine = ToneEngine(sampleRate: sampleRate, speakerVoicing: speakerVoicing)
        engine.level = score.level
        events = score.events
        eventFrames = score.events.map { Int(($0.time * sampleRate).rounded()) }
        maxFrames = Int((score.length + 2) * sampleRate)
    }

    /// Frames rendered so far.
    public var framesRendered: Int { position }

    /// Expected total length (frames): last event plus the 250 ms release and the output
    /// chain's flush. `render` stops at or before this.
    public var expectedFrames: Int {
        (eventFrames.last ?? 0) + Int(SynthVoice.releaseSeconds * sampleRate) + LookAheadLimiter.lookAhead
            + Decimator.taps + Int(0.01 * sampleRate) + ToneEngine.blockSize
    }

    /// Renders up to `buffer.count` mono samples. Returns how many; 0 at the end.
    public func render(into buffer: UnsafeMutableBufferPointer<Float>) -> Int {
        var written = 0
        while written < buffer.count {
            while nextEvent < events.count && eventFrames[nextEvent] <= position {
                let e = events[nextEvent]
                if e.isOn { engine.noteOn(frequency: e.frequency) } else { engine.noteOff(frequency: e.frequency) }
                nextEvent += 1
            }
            if nextEvent >= events.count && (engine.isSilent || position >= maxFrames) { break }
            var n = buffer.count - written
            if nextEvent < events.count { n = min(n, eventFrames[nextEvent] - position) }
            n = min(n, ToneEngine.blockSize)
            engine.render(into: UnsafeMutableBufferPointer(rebasing: buffer[written..<written + n]))
            written += n
            position += n
        }
        return written
    }
}
