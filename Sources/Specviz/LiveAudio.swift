import SpecvizCore

/// Moves live audio forward with the clock and says which media time is being heard.
///
/// Two kinds: a file played through an output (`playing`), whose mono mix also feeds the
/// analysis, and a capture (`capturing`). Every sample that reaches the analysis goes
/// through `fifo`, the `AudioSource` of the loop's `AnalysisFeed`; samples enter it no
/// later than they are played or captured, so the causal feed never runs dry.
///
/// Heard time (seconds of media) = min(elapsed, (written − delay) / rate) for playback:
/// `snd_pcm_delay` says how much of what was written is still queued, and sound cannot be
/// heard faster than real time (the `null` device reports no delay). For capture it is
/// captured / rate. Does not allocate after construction.
public final class LiveAudioPump {
    public let sampleRate: Int
    public let fifo: MonoFifo
    /// Seconds of audio kept queued ahead of the clock for playback.
    public let lead: Double
    /// True once a file has been read to its end.
    public private(set) var ended = false
    /// Frames given to the output / mono samples captured.
    public private(set) var framesWritten = 0

    private let file: InterleavedAudioSource?
    private let output: LiveAudioOutput?
    private let input: LiveAudioInput?
    private var chunk: [Float]
    private var mono: [Float]
    private let chunkFrames = 1024

    /// A file played through `output` (ALSA playback), `lead` seconds ahead of the clock.
    public init(playing file: InterleavedAudioSource, through output: LiveAudioOutput, lead: Double = 0.1) {
        self.file = file
        self.output = output
        input = nil
        sampleRate = file.sampleRate
        self.lead = lead
        chunk = [Float](repeating: 0, count: chunkFrames * file.channelCount)
        mono = [Float](repeating: 0, count: chunkFrames)
        fifo = MonoFifo(capacity: Int(Double(file.sampleRate) * (lead + 2)) + 8192, sampleRate: file.sampleRate)
    }

    /// A live capture (microphone).
    public init(capturing input: LiveAudioInput) {
        file = nil
        output = nil
        self.input = input
        sampleRate = input.sampleRate
        lead = 0
        chunk = []
        mono = [Float](repeating: 0, count: chunkFrames)
        fifo = MonoFifo(capacity: input.sampleRate * 4 + 8192, sampleRate: input.sampleRate)
    }

    /// Plays (or captures) up to `elapsed` seconds of media time (plus `lead` for playback)
    /// and returns the media time being heard now.
    public func pump(elapsed: Double) throws -> Double {
        let rate = Double(sampleRate)
        if let file, let output {
            let target = Int(saturating: ((elapsed + lead) * rate).rounded(.down))
            while !ended && framesWritten < target {
                let want = min(chunkFrames, target - framesWritten, fifo.space)
                if want <= 0 { break }
                let ch = file.channelCount
                let n = try chunk.withUnsafeMutableBufferPointer { try file.readInterleaved(into: UnsafeMutableBufferPointer(rebasing: $0[0..<want * ch])) }
                if n == 0 { ended = true; break }
                try chunk.withUnsafeBufferPointer { c in
                    try output.write(UnsafeBufferPointer(rebasing: c[0..<n * ch]))
                    mono.withUnsafeMutableBufferPointer { m in
                        let scale = 1 / Float(ch)
                        for i in 0..<n {
                            var acc: Float = 0
                            for k in 0..<ch { acc += c[i * ch + k] }
                            m[i] = acc * scale
                        }
                        fifo.push(UnsafeBufferPointer(rebasing: m[0..<n]))
                    }
                }
                framesWritten += n
            }
            return min(elapsed, Double(max(framesWritten - output.delay, 0)) / rate)
        }
        if let input {
            // Never ahead of the clock (the null device would deliver without limit).
            let target = Int(saturating: (elapsed * rate).rounded(.down))
            while framesWritten < target {
                let want = min(chunkFrames, target - framesWritten, fifo.space)
                if want <= 0 { break }
                let n = try mono.withUnsafeMutableBufferPointer { try input.readAvailableMono(into: UnsafeMutableBufferPointer(rebasing: $0[0..<want])) }
                if n == 0 { break }
                mono.withUnsafeBufferPointer { fifo.push(UnsafeBufferPointer(rebasing: $0[0..<n])) }
                framesWritten += n
            }
            return Double(framesWritten) / rate
        }
        return elapsed
    }

    /// Media time (s) of all audio read from the file so far.
    public var timeWritten: Double { Double(framesWritten) / Double(sampleRate) }
}

/// A ring buffer of mono samples: written by the pump, read by the `AnalysisFeed`.
/// `readMono` returns only what is buffered (the feed is only advanced to times whose
/// samples are in). Single-threaded; does not allocate after construction.
public final class MonoFifo: AudioSource {
    public let sampleRate: Int
    public let channelCount = 1
    public let duration: Double? = nil
    private var ring: [Float]
    private var readIndex = 0
    private var count = 0

    public init(capacity: Int, sampleRate: Int) {
        ring = [Float](repeating: 0, count: capacity)
        self.sampleRate = sampleRate
    }

    /// Free space (samples).
    public var space: Int { ring.count - count }
    /// Samples buffered.
    public var available: Int { count }

    /// Appends samples (at most `space`; the rest is dropped).
    public func push(_ samples: UnsafeBufferPointer<Float>) {
        let n = min(samples.count, space)
        ring.withUnsafeMutableBufferPointer { r in
            var w = (readIndex + count) % r.count
            for i in 0..<n {
                r[w] = samples[i]
                w += 1
                if w == r.count { w = 0 }
            }
        }
        count += n
    }

    public func readMono(into buffer: UnsafeMutableBufferPointer<Float>) throws -> Int {
        let n = min(buffer.count, count)
        ring.withUnsafeBufferPointer { r in
            for i in 0..<n {
                buffer[i] = r[readIndex]
                readIndex += 1
                if readIndex == r.count { readIndex = 0 }
            }
        }
        count -= n
        return n
    }
}
