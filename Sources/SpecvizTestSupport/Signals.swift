#if canImport(Glibc)
import Glibc
#endif

/// Deterministic test signals for the spectrum and render tests.
public enum Signals {
    /// Hands `samples` to `body` in consecutive chunks of `size` (the last one shorter), as a
    /// decoder delivers them to a streaming analyser.
    public static func inChunks(_ samples: [Float], of size: Int = 4096, _ body: (UnsafeBufferPointer<Float>) -> Void) {
        samples.withUnsafeBufferPointer { all in
            var i = 0
            while i < all.count {
                let n = min(size, all.count - i)
                body(UnsafeBufferPointer(rebasing: all[i..<(i + n)]))
                i += n
            }
        }
    }

    /// A sum of sines (Hz, amplitude) of `seconds` at `sampleRate`.
    public static func sines(_ partials: [(Double, Float)], seconds: Double, sampleRate: Int = 44100) -> [Float] {
        let n = Int(seconds * Double(sampleRate))
        return (0..<n).map { i in
            let t = Double(i) / Double(sampleRate)
            var v: Float = 0
            for (f, a) in partials { v += a * Float(sin(2 * Double.pi * f * t)) }
            return v
        }
    }

    /// White noise from a seeded generator (uniform in −amplitude…amplitude).
    public static func whiteNoise(seconds: Double, amplitude: Float = 0.5, seed: UInt64 = 1, sampleRate: Int = 44100) -> [Float] {
        var state = seed &* 6364136223846793005 &+ 1442695040888963407
        return (0..<Int(seconds * Double(sampleRate))).map { _ in
            state = state &* 6364136223846793005 &+ 1442695040888963407
            let u = Float(state >> 40) / Float(1 << 24)
            return (u * 2 - 1) * amplitude
        }
    }

    /// Writes a stereo 16-bit PCM WAV file with different left and right channels.
    public static func writeWAV(left: [Float], right: [Float], sampleRate: Int = 44100, to path: String) throws {
        try writeWAV(interleaved: zip(left, right).flatMap { [$0, $1] }, sampleRate: sampleRate, channels: 2, to: path)
    }

    /// Writes mono float samples as a 16-bit PCM WAV file (test fixtures); with `channels`
    /// > 1 every channel carries the same samples.
    public static func writeWAV(_ samples: [Float], sampleRate: Int = 44100, channels: Int = 1, to path: String) throws {
        try writeWAV(interleaved: samples.flatMap { repeatElement($0, count: channels) }, sampleRate: sampleRate, channels: channels, to: path)
    }

    /// Writes interleaved samples (`channels` per frame) as a 16-bit PCM WAV file.
    public static func writeWAV(interleaved samples: [Float], sampleRate: Int, channels: Int, to path: String) throws {
        var bytes: [UInt8] = []
        func u32(_ v: UInt32) { withUnsafeBytes(of: v.littleEndian) { bytes.append(contentsOf: $0) } }
        func u16(_ v: UInt16) { withUnsafeBytes(of: v.littleEndian) { bytes.append(contentsOf: $0) } }
        let dataSize = samples.count * 2
        bytes.append(contentsOf: Array("RIFF".utf8)); u32(UInt32(36 + dataSize))
        bytes.append(contentsOf: Array("WAVEfmt ".utf8)); u32(16); u16(1); u16(UInt16(channels))
        u32(UInt32(sampleRate)); u32(UInt32(sampleRate * 2 * channels)); u16(UInt16(2 * channels)); u16(16)
        bytes.append(contentsOf: Array("data".utf8)); u32(UInt32(dataSize))
        for s in samples {
            u16(UInt16(bitPattern: Int16(max(-1, min(1, s)) * 32767)))
        }
        guard let f = fopen(path, "wb") else { throw TestSignalError("cannot write \(path)") }
        fwrite(bytes, 1, bytes.count, f)
        fclose(f)
    }

    /// Writes mono samples as a 32-bit float WAV, exactly (NaN and infinities included).
    public static func writeFloatWAV(_ samples: [Float], sampleRate: Int = 44100, to path: String) throws {
        var bytes: [UInt8] = []
        func u32(_ v: UInt32) { withUnsafeBytes(of: v.littleEndian) { bytes.append(contentsOf: $0) } }
        func u16(_ v: UInt16) { withUnsafeBytes(of: v.littleEndian) { bytes.append(contentsOf: $0) } }
        let dataSize = samples.count * 4
        bytes.append(contentsOf: Array("RIFF".utf8)); u32(UInt32(36 + dataSize))
        bytes.append(contentsOf: Array("WAVEfmt ".utf8)); u32(16); u16(3); u16(1)
        u32(UInt32(sampleRate)); u32(UInt32(sampleRate * 4)); u16(4); u16(32)
        bytes.append(contentsOf: Array("data".utf8)); u32(UInt32(dataSize))
        for s in samples { u32(s.bitPattern) }
        guard let f = fopen(path, "wb") else { throw TestSignalError("cannot write \(path)") }
        fwrite(bytes, 1, bytes.count, f)
        fclose(f)
    }
}

public struct TestSignalError: Error, CustomStringConvertible {
    public var description: String
    public init(_ d: String) { description = d }
}
