import Analysis
import MediaIO
import SpecvizCore

/// The decoder as the analysis's mono source that also meters loudness on the way: every
/// interleaved frame goes through the BS.1770 meter once, and the analysis gets the same
/// mono mix (mean of the channels) `AudioDecoder.readMono` gives, so the levels do not
/// change when `--loudness` is on. The input is still read once.
final class LoudnessTap: AudioSource {
    let decoder: AudioDecoder
    let meter: LoudnessMeter
    private static let chunk = 4096
    private let scratch: OwnedBuffer<Float>

    init(decoder: AudioDecoder) {
        self.decoder = decoder
        meter = LoudnessMeter(sampleRate: decoder.sampleRate, channelCount: decoder.channelCount)
        scratch = OwnedBuffer(zeroed: Self.chunk * decoder.channelCount)
    }

    var sampleRate: Int { decoder.sampleRate }
    var channelCount: Int { decoder.channelCount }
    var duration: Double? { decoder.duration }

    func readMono(into buffer: UnsafeMutableBufferPointer<Float>) throws -> Int {
        let channels = channelCount, src = scratch.base
        var written = 0
        while written < buffer.count {
            let want = min(Self.chunk, buffer.count - written)
            let n = try decoder.readInterleaved(into: UnsafeMutableBufferPointer(start: src, count: want * channels))
            if n == 0 { break }
            meter.process(src, frames: n)
            mixToMono(src, channels: channels, frames: n, into: buffer.baseAddress! + written, choice: decoder.channelChoice)
            written += n
        }
        return written
    }
}
