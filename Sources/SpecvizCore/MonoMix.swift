/// Which of an input's channels the analysis hears (`--channels`).
public enum ChannelChoice: String, CaseIterable, Sendable {
    /// The mean of all channels.
    case mix
    /// The first channel.
    case left
    /// The second channel (the first of a mono input).
    case right

    /// The channel index to take from `channels`, or nil for the mean.
    @inlinable
    public func index(channels: Int) -> Int? {
        switch self {
        case .mix: return channels == 1 ? 0 : nil
        case .left: return 0
        case .right: return min(1, channels - 1)
        }
    }
}

/// The package's one mono mix: one channel of each interleaved frame, or the mean of its
/// channels (a copy for one channel). Decoders, the tee, capture and taps use it, so every
/// path hands the analysis the same floats for the same input.
@inlinable
public func mixToMono(
    _ src: UnsafePointer<Float>, channels: Int, frames: Int, into dst: UnsafeMutablePointer<Float>,
    choice: ChannelChoice = .mix
) {
    if channels == 1 {
        dst.update(from: src, count: frames)
        return
    }
    if let c = choice.index(channels: channels) {
        for i in 0..<frames { dst[i] = src[i * channels + c] }
        return
    }
    let scale = 1 / Float(channels)
    if channels == 2 { // the common case, in a loop the compiler vectorises (same sums)
        for i in 0..<frames { dst[i] = (0 + src[2 * i] + src[2 * i + 1]) * scale }
        return
    }
    for i in 0..<frames {
        var acc: Float = 0
        for c in 0..<channels { acc += src[i * channels + c] }
        dst[i] = acc * scale
    }
}
