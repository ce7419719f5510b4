/// A stream of audio, read as a mono mix at the stream's own rate.
/// File decoders, live capture and test generators implement it.
public protocol AudioSource: AnyObject {
    /// Samples per second (Hz).
    var sampleRate: Int { get }
    /// Channels of the original stream (the mono mix averages them).
    var channelCount: Int { get }
    /// Total duration in seconds, when known in advance.
    var duration: Double? { get }
    /// Reads up to `buffer.count` mono samples (the mean of all channels).
    /// Returns how many were written; 0 means the end of the stream.
    func readMono(into buffer: UnsafeMutableBufferPointer<Float>) throws -> Int
}

/// An in-memory mono source (tests, synthesised tones).
public final class BufferAudioSource: AudioSource {
    public let sampleRate: Int
    public let channelCount = 1
    public let samples: [Float]
    private var position = 0

    public init(samples: [Float], sampleRate: Int) {
        self.samples = samples
        self.sampleRate = sampleRate
    }

    public var duration: Double? { Double(samples.count) / Double(sampleRate) }

    public func readMono(into buffer: UnsafeMutableBufferPointer<Float>) throws -> Int {
        let n = min(buffer.count, samples.count - position)
        guard n > 0 else { return 0 }
        samples.withUnsafeBufferPointer { src in
            _ = UnsafeMutableBufferPointer(rebasing: buffer[0..<n])
                .initialize(from: src[position..<position + n])
        }
        position += n
        return n
    }
}
