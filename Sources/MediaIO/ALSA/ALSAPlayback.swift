import CALSA
import SpecvizCore

#if canImport(Glibc)
import Glibc
#endif

/// Blocking playback of interleaved float samples through an ALSA PCM (`snd_pcm_*`).
///
/// The device is opened in interleaved float mode with alsa-lib's own rate/format
/// conversion allowed (`snd_pcm_set_params`, soft-resample on) and ~100 ms of buffer.
/// `write` blocks until the samples are queued; an underrun (`-EPIPE`) or suspend
/// (`-ESTRPIPE`) is recovered with `snd_pcm_recover` and the write continues. The `null`
/// device opens without a sound card and accepts everything (that is how tests run).
/// Errors are `MediaError`s naming the device and the function.
public final class ALSAPlayback {
    /// The ALSA PCM name, e.g. `default`, `hw:0,0`, `null`.
    public let device: String
    /// Sample rate (Hz) and channels the caller writes.
    public let sampleRate: Int
    public let channels: Int
    /// Underruns recovered so far.
    public private(set) var underruns = 0

    private var pcm: OpaquePointer?

    /// Opens `device` for playback of `channels` interleaved float channels at `sampleRate` Hz.
    /// - Parameter latency: requested buffer length (s).
    public init(device: String = "default", sampleRate: Int, channels: Int, latency: Double = 0.1) throws {
        guard sampleRate >= 1000, (1...8).contains(channels) else {
            throw MediaError("ALSA device '\(device)': cannot play \(channels) channels at \(sampleRate) Hz", path: device)
        }
        self.device = device
        self.sampleRate = sampleRate
        self.channels = channels
        pcm = try ALSAPCM.open(
            device: device, stream: SND_PCM_STREAM_PLAYBACK, mode: 0, channels: channels,
            sampleRate: sampleRate, latency: latency)
    }

    deinit { close() }

    /// Writes interleaved frames (`channels` floats each), blocking until all are queued.
    /// Recovers from underruns. Does not allocate.
    public func write(_ interleaved: UnsafeBufferPointer<Float>) throws {
        guard let handle = pcm else { throw MediaError("ALSA device '\(device)': write after close", path: device) }
        guard var base = interleaved.baseAddress else { return }
        var frames = interleaved.count / channels
        while frames > 0 {
            let n = snd_pcm_writei(handle, base, snd_pcm_uframes_t(frames))
            if n >= 0 {
                frames -= Int(n)
                base += Int(n) * channels
                continue
            }
            let code = Int32(n)
            if code == -EAGAIN {
                snd_pcm_wait(handle, 100)
                continue
            }
            if code == -EPIPE || code == -ESTRPIPE || code == -EINTR {
                if code == -EPIPE { underruns += 1 }
                let rr = snd_pcm_recover(handle, code, 1)
                if rr < 0 {
                    throw MediaError(
                        "ALSA device '\(device)': snd_pcm_recover failed: \(ALSAPCM.text(rr))", function: "snd_pcm_recover", code: Int32(rr), path: device)
                }
                continue
            }
            throw MediaError(
                "ALSA device '\(device)': snd_pcm_writei failed: \(ALSAPCM.text(code))", function: "snd_pcm_writei", code: Int32(code), path: device)
        }
    }

    /// Frames queued but not yet heard (snd_pcm_delay); 0 when unknown or closed.
    public var delay: Int {
        guard let handle = pcm else { return 0 }
        var d: snd_pcm_sframes_t = 0
        return snd_pcm_delay(handle, &d) < 0 ? 0 : max(Int(d), 0)
    }

    /// Blocks until everything queued has been played.
    public func drain() throws {
        guard let handle = pcm else { return }
        let r = snd_pcm_drain(handle)
        if r < 0 && r != -EPIPE {
            throw MediaError("ALSA device '\(device)': snd_pcm_drain failed: \(ALSAPCM.text(r))", function: "snd_pcm_drain", code: Int32(r), path: device)
        }
    }

    /// Stops at once (drops what is queued) and releases the device. Safe to call twice.
    public func close() {
        if let handle = pcm {
            snd_pcm_drop(handle)
            snd_pcm_close(handle)
            pcm = nil
        }
    }
}
