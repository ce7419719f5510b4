import Foundation
import MediaIO
import Specviz
import SpecvizCore

/// A clock that only moves when told: `sleep(until:)` jumps there, and each `now()` may
/// add `costPerCall` seconds (a slow machine).
final class FakeClock: Clock {
    var time: Double
    var costPerCall: Double
    init(start: Double = 0, costPerCall: Double = 0) {
        time = start
        self.costPerCall = costPerCall
    }
    func now() -> Double {
        time += costPerCall
        return time
    }
    func sleep(until t: Double) { time = max(time, t) }
}

/// Interleaved samples in memory, read like a decoder.
final class InterleavedBuffer: InterleavedAudioSource {
    let sampleRate: Int
    let channelCount: Int
    let samples: [Float]
    private var position = 0
    init(samples: [Float], sampleRate: Int, channels: Int) {
        self.samples = samples
        self.sampleRate = sampleRate
        channelCount = channels
    }
    func readInterleaved(into buffer: UnsafeMutableBufferPointer<Float>) throws -> Int {
        let n = min(buffer.count, samples.count - position) / channelCount * channelCount
        for i in 0..<n { buffer[i] = samples[position + i] }
        position += n
        return n / channelCount
    }
}

/// A framebuffer file that also keeps a copy of every frame as read back from the file.
final class RecordingFramebuffer: LiveDisplay {
    let fb: FramebufferSink
    var frames: [PixelBuffer] = []
    init(path: String, width: Int, height: Int, bpp: Int = 32) throws {
        fb = try FramebufferSink(path: path, width: width, height: height, bitsPerPixel: bpp)
    }
    var preferredSize: (width: Int, height: Int)? { fb.preferredSize }
    func write(_ frame: PixelBuffer, index: Int) throws {
        try fb.write(frame, index: index)
        frames.append(fb.readBack())
    }
    func finish() throws { try fb.finish() }
    func cancel() {}
}

enum LiveFixtures {
    static let rate = 44100

    /// A stereo test signal: a rising sweep 100 Hz → 6 kHz with 8 Hz tremolo on the left,
    /// half of it on the right, so that every frame differs.
    static func stereo(seconds: Double) -> [Float] {
        let n = Int(seconds * Double(rate))
        var out = [Float](repeating: 0, count: 2 * n)
        var phase = 0.0
        for i in 0..<n {
            let t = Double(i) / Double(rate)
            let f = 100 * pow(60, t / seconds)
            phase += 2 * Double.pi * f / Double(rate)
            let v = Float(sin(phase) * (0.55 + 0.45 * sin(2 * Double.pi * 8 * t)))
            out[2 * i] = v
            out[2 * i + 1] = 0.5 * v
        }
        return out
    }

    /// The mono mix exactly as the live pump computes it.
    static func mono(_ stereo: [Float]) -> [Float] {
        (0..<stereo.count / 2).map { i in
            var acc: Float = 0
            acc += stereo[2 * i]
            acc += stereo[2 * i + 1]
            return acc * (1 / Float(2))
        }
    }

    static func settings(width: Int = 160, height: Int = 90) -> RenderSettings {
        var s = RenderSettings()
        s.width = width
        s.height = height
        s.labels = false
        s.threads = 1
        return s
    }

    /// Largest per-channel difference and the share of pixels differing by more than `tolerance`.
    static func compare(_ a: PixelBuffer, _ b: PixelBuffer, tolerance: Int = 1) -> (maxDiff: Int, share: Double) {
        precondition(a.width == b.width && a.height == b.height)
        var worst = 0, differing = 0
        for i in 0..<a.pixels.count {
            var d = 0
            for s in stride(from: 0, to: 24, by: 8) {
                d = max(d, abs(Int((a.pixels[i] >> UInt32(s)) & 0xFF) - Int((b.pixels[i] >> UInt32(s)) & 0xFF)))
            }
            worst = max(worst, d)
            if d > tolerance { differing += 1 }
        }
        return (worst, Double(differing) / Double(a.pixels.count))
    }

    static func temporaryPath(_ name: String) -> String {
        NSTemporaryDirectory() + "specviz-live-\(getpid())-\(name)"
    }
}
