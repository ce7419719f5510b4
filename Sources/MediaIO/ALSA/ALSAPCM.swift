import CALSA
import SpecvizCore

/// What playback and capture share: opening a PCM in interleaved float mode with
/// alsa-lib's rate/format conversion allowed, and its error texts.
enum ALSAPCM {
    /// Opens `device` and sets interleaved float, `channels`, `sampleRate` Hz (soft
    /// resampling on) and a buffer of `latency` seconds. The handle is closed on failure.
    static func open(
        device: String, stream: snd_pcm_stream_t, mode: Int32, channels: Int, sampleRate: Int,
        latency: Double
    ) throws -> OpaquePointer {
        spv_alsa_silence()
        let kind = stream == SND_PCM_STREAM_CAPTURE ? "capture" : "playback"
        var handle: OpaquePointer? = nil
        let r = snd_pcm_open(&handle, device, stream, mode)
        guard r >= 0, let handle else {
            throw MediaError(
                "cannot open ALSA \(kind) device '\(device)': \(text(r)) (try --device null, or another ALSA PCM name)", function: "snd_pcm_open",
                code: Int32(r), path: device)
        }
        let s = snd_pcm_set_params(
            handle, SND_PCM_FORMAT_FLOAT_LE, SND_PCM_ACCESS_RW_INTERLEAVED,
            UInt32(channels), UInt32(sampleRate), 1, UInt32(max(latency, 0.01) * 1e6))
        if s < 0 {
            snd_pcm_close(handle)
            throw MediaError(
                "ALSA device '\(device)': snd_pcm_set_params(\(channels) ch, \(sampleRate) Hz, float) failed: \(text(s))", function: "snd_pcm_set_params",
                code: Int32(s), path: device)
        }
        return handle
    }

    /// alsa-lib's text for an error code.
    static func text(_ code: Int32) -> String { String(cString: snd_strerror(code)) }
}
