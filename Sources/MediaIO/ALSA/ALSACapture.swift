import CALSA
import SpecvizCore

#if canImport(Glibc)
import Glibc
#endif

/// Live capture from an ALSA PCM (`snd_pcm_*`), read as a mono mix of float samples.
///
/// The device is opened non-blocking in interleaved float mode with alsa-lib's rate and
/// format conversion allowed (`snd_pcm_set_params`, ~50 ms of buffer), so any card works
/// at the rate asked for. `readAvailableMono` never blocks: it returns what has been
/// captured since the last call (the live loop calls it once per video frame).
/// An overrun (`-EPIPE`) or suspend (`-ESTRPIPE`) is recovered with `snd_pcm_recover`
/// and counted; capture continues. The `null` device opens without a sound card and
/// delivers silence at once, as much as asked for (that is how tests run).
public final class ALSACapture: AudioSource {
    /// The ALSA PCM name, e.g. `default`, `hw:0,0`, `null`.
    public let device: String
    /// Samples per second (Hz) delivered.
    public let sampleRate: Int
    /// Channels captured (the mono mix averages them).
    public let channelCount: Int
    /// Live input has no known duration.
    public let duration: Double? = nil
    /// Overruns recovered so far.
    public private(set) var overruns = 0

    private var pcm: OpaquePointer?
    private var interleaved: [Float]
    private let chunkFrames = 1024

    /// Opens `device` for capture of `channels` interleaved float channels at `sampleRate` Hz.
    /// - Parameter latency: requested buffer length (s).
    public init(device: String = "default", sampleRate: Int = 48000, channels: Int = 1, latency: Double = 0.05) throws {
        guard sampleRate >= 8000 && sampleRate <= 192_000, (1...8).contains(channels) else {
            throw MediaError("ALSA device '\(device)': cannot capture \(channels) channels at \(sampleRate) Hz", path: device)
        }
        self.device = device
        self.sampleRate = sampleRate
        self.channelCount = channels
        interleaved = [Float](repeating: 0, count: chunkFrames * channels)
        let handle = try ALSAPCM.open(
            device: device, stream: SND_PCM_STREAM_CAPTURE, mode: Int32(SND_PCM_NONBLOCK),
            channels: channels, sampleRate: sampleRate, latency: latency)
        pcm = handle
        let st = snd_pcm_start(handle)
        if st < 0 && st != -EBADFD {
            close()
            throw MediaError("ALSA device '\(device)': snd_pcm_start failed: \(ALSAPCM.text(st))", function: "snd_pcm_start", code: Int32(st), path: device)
        }
    }

    deinit { close() }

    /// Reads the mono mix of whatever has been captured, up to `buffer.count` samples,
    /// without blocking. Returns the number of samples written (0 when nothing is ready).
    /// Recovers from overruns. Does not allocate.
    public func readAvailableMono(into buffer: UnsafeMutableBufferPointer<Float>) throws -> Int {
        guard let handle = pcm else { throw MediaError("ALSA device '\(device)': read after close", path: device) }
        let channels = channelCount
        var written = 0
        while written < buffer.count {
            let want = min(chunkFrames, buffer.count - written)
            let n = interleaved.withUnsafeMutableBufferPointer { chunk in
                snd_pcm_readi(handle, chunk.baseAddress, snd_pcm_uframes_t(want))
            }
            if n > 0 {
                let frames = Int(n)
                interleaved.withUnsafeBufferPointer { src in
                    mixToMono(src.baseAddress!, channels: channels, frames: frames, into: buffer.baseAddress! + written)
                }
                written += frames
                continue
            }
            if n == 0 { break }
            let code = Int32(n)
            if code == -EAGAIN { break }
            if code == -EPIPE || code == -ESTRPIPE || code == -EINTR {
                if code == -EPIPE { overruns += 1 }
                let rr = snd_pcm_recover(handle, code, 1)
                if rr < 0 {
                    throw MediaError(
                        "ALSA device '\(device)': snd_pcm_recover failed: \(ALSAPCM.text(rr))", function: "snd_pcm_recover", code: Int32(rr), path: device)
                }
                _ = snd_pcm_start(handle)
                continue
            }
            throw MediaError("ALSA device '\(device)': snd_pcm_readi failed: \(ALSAPCM.text(code))", function: "snd_pcm_readi", code: Int32(code), path: device)
        }
        return written
    }

    /// `AudioSource` conformance: blocks (polling the device) until at least one sample
    /// is ready, then returns what is available. Never returns 0 while open.
    public func readMono(into buffer: UnsafeMutableBufferPointer<Float>) throws -> Int {
        while true {
            let n = try readAvailableMono(into: buffer)
            if n > 0 || buffer.count == 0 { return n }
            if let handle = pcm { _ = snd_pcm_wait(handle, 50) }
        }
    }

    /// Stops capture and releases the device. Safe to call twice.
    public func close() {
        if let handle = pcm {
            snd_pcm_drop(handle)
            snd_pcm_close(handle)
            pcm = nil
        }
    }
}
