// The live loop's devices, beside `AudioSource` and `FrameSink`: the loop (Specviz) needs
// only these, and MediaIO's ALSA, framebuffer and terminal types conform to them there.

/// Where live sound is played (ALSA playback); the loop only needs these two things.
public protocol LiveAudioOutput: AnyObject {
    /// Queues interleaved frames, blocking until they are queued.
    func write(_ interleaved: UnsafeBufferPointer<Float>) throws
    /// Frames queued but not yet heard (`snd_pcm_delay`).
    var delay: Int { get }
}

/// An interleaved float stream (a file decoder; also the sound track a video encoder muxes).
public protocol InterleavedAudioSource: AnyObject {
    var sampleRate: Int { get }
    var channelCount: Int { get }
    /// Reads up to `buffer.count / channelCount` frames; returns frames, 0 at the end.
    func readInterleaved(into buffer: UnsafeMutableBufferPointer<Float>) throws -> Int
}

/// A live input that returns what has been captured without blocking (ALSA capture).
public protocol LiveAudioInput: AnyObject {
    var sampleRate: Int { get }
    /// Reads up to `buffer.count` mono samples already captured; never blocks.
    func readAvailableMono(into buffer: UnsafeMutableBufferPointer<Float>) throws -> Int
}

/// A display the live loop draws into (framebuffer, terminal). `preferredSize` may change
/// between frames (a terminal window resized); the loop then renders at the new size.
public protocol LiveDisplay: FrameSink {
    var preferredSize: (width: Int, height: Int)? { get }
}
