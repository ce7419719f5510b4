/// The package's one mono mix: the mean of each interleaved frame's channels (a copy for
/// one channel). Decoders, capture and taps use it, so every path hands the analysis the
/// same floats for the same input.
@inlinable
public func mixToMono(_ src: UnsafePointer<Float>, channels: Int, frames: Int, into dst: UnsafeMutablePointer<Float>) {
    if channels == 1 {
        dst.update(from: src, count: frames)
        return
    }
    let scale = 1 / Float(channels)
    for i in 0..<frames {
        var acc: Float = 0
        for c in 0..<channels { acc += src[i * channels + c] }
        dst[i] = acc * scale
    }
}
