import Foundation
import SpecvizCore

/// Interleaved sound for the audio track of a video (`AudioTrackEncoder`): the core's
/// `InterleavedAudioSource`.
public typealias AudioTrackSource = InterleavedAudioSource

/// One decoder read once by two consumers at their own pace, on their own threads: the
/// analysis (a mono `AudioSource`) and the video's audio track (interleaved, from a start
/// time). Whoever is ahead reads the decoder; the frames the other has not read yet wait
/// in a buffer, so it holds only the gap between the two (a few video frames in a render),
/// and nothing before the track's start is kept for it. Standard input works, because the
/// input is read once (issue 14).
public final class AudioTee {
    public let decoder: AudioDecoder
    private let lock = NSLock()
    /// Interleaved frames [bufferStart, readEnd) from `buffer[head...]`.
    private var buffer: [Float] = []
    private var head = 0
    private var bufferStart = 0
    private var readEnd = 0
    private var ended = false
    /// Next frame each consumer reads (0: analysis, 1: track, 2: the right channel's
    /// analysis in a stereo render); nil when it has stopped (or was never made).
    private var positions: [Int?] = [0, nil, nil]
    private var chunk: [Float]

    public init(decoder: AudioDecoder) {
        self.decoder = decoder
        chunk = [Float](repeating: 0, count: 4096 * decoder.channelCount)
    }

    /// The analysis side: a mono mix (or the decoder's `channelChoice`) from the first frame.
    public private(set) lazy var analysis = AnalysisSide(tee: self, consumer: 0, choice: nil)

    /// A second analysis side hearing the right channel (a stereo render draws both). Make
    /// it before reading; at most one.
    public func rightAnalysis() -> AnalysisSide {
        lock.lock()
        positions[2] = 0
        lock.unlock()
        return AnalysisSide(tee: self, consumer: 2, choice: .right)
    }

    /// The track side, starting at `start` seconds. Make at most one.
    public func track(from start: Double) -> TrackSide {
        let frame = start > 0 && start.isFinite ? Int(min(start * Double(decoder.sampleRate), 1e15)) : 0
        lock.lock()
        positions[1] = frame
        lock.unlock()
        return TrackSide(tee: self)
    }

    /// Frames held for the slower consumer (for tests of the bound).
    public var bufferedFrames: Int {
        lock.lock(); defer { lock.unlock() }
        return readEnd - bufferStart
    }

    /// Copies up to `frames` interleaved frames for consumer `c` into `out` (via `emit`).
    fileprivate func read(_ c: Int, frames: Int, emit: (UnsafeBufferPointer<Float>, Int) -> Void) throws -> Int {
        lock.lock(); defer { lock.unlock() }
        guard let position = positions[c] else { return 0 }
        let channels = decoder.channelCount
        while readEnd <= position && !ended {
            let n = try chunk.withUnsafeMutableBufferPointer { try decoder.readInterleaved(into: $0) }
            if n == 0 { ended = true; break }
            if bufferStart == readEnd {
                // Empty: skip what no consumer will read (the track's frames before its start).
                buffer.removeAll(keepingCapacity: true)
                head = 0
                let low = lowestPosition ?? readEnd
                let skip = max(0, min(low - readEnd, n))
                bufferStart = readEnd + skip
                buffer.append(contentsOf: chunk[(skip * channels)..<(n * channels)])
            } else {
                buffer.append(contentsOf: chunk[0..<(n * channels)])
            }
            readEnd += n
        }
        guard position < readEnd, position >= bufferStart else { return 0 }
        let n = min(frames, readEnd - position)
        buffer.withUnsafeBufferPointer { b in
            emit(UnsafeBufferPointer(rebasing: b[(head + (position - bufferStart) * channels)...].prefix(n * channels)), n)
        }
        positions[c] = position + n
        trim()
        return n
    }

    /// The least position a consumer still reads from (nil: none reads), without building
    /// an array (every read of every chunk asks).
    private var lowestPosition: Int? {
        var low: Int? = nil
        for case let p? in positions { low = min(low ?? p, p) }
        return low
    }

    /// Drops frames every active consumer has read.
    private func trim() {
        let channels = decoder.channelCount
        let low = min(lowestPosition ?? readEnd, readEnd)
        guard low > bufferStart else { return }
        head += (low - bufferStart) * channels
        bufferStart = low
        if head > 65536 && head * 2 > buffer.count {
            buffer.removeFirst(head)
            head = 0
        }
    }

    /// Consumer `c` reads no more: stop keeping frames for it.
    fileprivate func stop(_ c: Int) {
        lock.lock(); defer { lock.unlock() }
        positions[c] = nil
        trim()
    }

    /// The analysis side: `AudioSource` (mono mix), same rate, channels and duration as the decoder.
    public final class AnalysisSide: AudioSource, CustomStringConvertible {
        unowned let tee: AudioTee
        let consumer: Int
        let choice: ChannelChoice?
        init(tee: AudioTee, consumer: Int, choice: ChannelChoice?) {
            self.tee = tee
            self.consumer = consumer
            self.choice = choice
        }
        public var sampleRate: Int { tee.decoder.sampleRate }
        public var channelCount: Int { tee.decoder.channelCount }
        public var duration: Double? { tee.decoder.duration }
        public var description: String { tee.decoder.description }
        public func readMono(into buffer: UnsafeMutableBufferPointer<Float>) throws -> Int {
            let channels = channelCount, choice = self.choice ?? tee.decoder.channelChoice
            return try tee.read(consumer, frames: buffer.count) { src, n in
                mixToMono(src.baseAddress!, channels: channels, frames: n, into: buffer.baseAddress!, choice: choice)
            }
        }
        /// No more reads: the tee stops keeping sound for the analysis.
        public func stop() { tee.stop(consumer) }
    }

    /// The track side: interleaved frames from the start given to `track(from:)`.
    public final class TrackSide: AudioTrackSource {
        unowned let tee: AudioTee
        init(tee: AudioTee) { self.tee = tee }
        public var sampleRate: Int { tee.decoder.sampleRate }
        public var channelCount: Int { tee.decoder.channelCount }
        public func readInterleaved(into buffer: UnsafeMutableBufferPointer<Float>) throws -> Int {
            let channels = channelCount
            return try tee.read(1, frames: buffer.count / channels) { src, n in
                for i in 0..<(n * channels) { buffer[i] = src[i] }
            }
        }
        public func stop() { tee.stop(1) }
    }
}
