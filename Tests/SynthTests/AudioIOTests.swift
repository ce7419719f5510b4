import MediaIO
import XCTest

@testable import Synth

/// The synthesiser's way out: AudioFileWriter round trips through AudioDecoder, and
/// ALSAPlayback on the `null` device.
final class AudioIOTests: XCTestCase {
    private func tempPath(_ name: String) -> String {
        let dir = NSTemporaryDirectory() + "synth-tests-\(getpid())"
        try? FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        return dir + "/" + name
    }

    private func decodeAll(_ path: String) throws -> (samples: [Float], decoder: AudioDecoder) {
        let d = try AudioDecoder(path: path)
        var out: [Float] = []
        var buf = [Float](repeating: 0, count: 4096)
        while true {
            let n = try buf.withUnsafeMutableBufferPointer { try d.readMono(into: $0) }
            if n == 0 { break }
            out.append(contentsOf: buf[0..<n])
        }
        return (out, d)
    }

    /// A rendered A4 written as 16-bit WAV reads back sample for sample (within 16-bit
    /// quantisation, 1/32768), at the same rate and length, and keeps its pitch.
    func testWAVRoundTrip() throws {
        let rate = 44_100
        let x = SignalProbe.render(.chord([440], duration: 0.8), sampleRate: Double(rate))
        let path = tempPath("a4.wav")
        let w = try AudioFileWriter(path: path, sampleRate: rate, channels: 1)
        try x.withUnsafeBufferPointer { try w.write($0) }
        XCTAssertFalse(FileManager.default.fileExists(atPath: path), "nothing at the final path before finish()")
        try w.finish()
        let (y, d) = try decodeAll(path)
        XCTAssertEqual(d.sampleRate, rate)
        XCTAssertEqual(d.channelCount, 1)
        XCTAssertEqual(d.codecName, "pcm_s16le")
        XCTAssertEqual(y.count, x.count)
        var worst: Float = 0
        for i in 0..<min(x.count, y.count) { worst = max(worst, abs(x[i] - y[i])) }
        XCTAssertLessThanOrEqual(worst, 1.0 / 32768 + 1e-6)
        let start = Int(0.2 * Double(rate))
        let f = SignalProbe.peakFrequency(y[start..<start + rate / 2], near: 440, span: 2, sampleRate: Double(rate))
        XCTAssertEqual(1200 * log2(f / 440), 0, accuracy: 0.1)
    }

    /// Float WAV is bit-exact; stereo interleaving is kept (decoded mono = mean of channels).
    func testFloatStereoWAV() throws {
        let path = tempPath("stereo.wav")
        let w = try AudioFileWriter(path: path, sampleRate: 48_000, channels: 2, wavFloat: true)
        var inter = [Float]()
        for i in 0..<4800 { inter.append(0.5); inter.append(Float(i % 100) / 400) }
        try inter.withUnsafeBufferPointer { try w.write($0) }
        try w.finish()
        let (y, d) = try decodeAll(path)
        XCTAssertEqual(d.codecName, "pcm_f32le")
        XCTAssertEqual(d.channelCount, 2)
        XCTAssertEqual(y.count, 4800)
        for i in [0, 37, 4799] { XCTAssertEqual(y[i], (0.5 + Float(i % 100) / 400) / 2, accuracy: 1e-7) }
    }

    /// Lossy and lossless codecs chosen by extension decode back to the right length (±1 codec
    /// frame of padding) and rate.
    func testOtherFormatsByExtension() throws {
        let x = SignalProbe.render(.chord([330], duration: 0.5), sampleRate: 48_000)
        for ext in ["flac", "mp3", "ogg", "opus", "m4a"] {
            let path = tempPath("e4.\(ext)")
            let w = try AudioFileWriter(path: path, sampleRate: 48_000, channels: 1)
            try x.withUnsafeBufferPointer { try w.write($0) }
            try w.finish()
            let (y, d) = try decodeAll(path)
            XCTAssertEqual(d.sampleRate, 48_000, ext)
            XCTAssertEqual(Double(y.count), Double(x.count), accuracy: 2_200, ext)
        }
    }

    func testUnknownExtensionAndCancelLeaveNothing() throws {
        XCTAssertThrowsError(try AudioFileWriter(path: tempPath("x.notaformat"), sampleRate: 48_000, channels: 1)) {
            XCTAssertTrue("\($0)".contains("unknown output format"), "\($0)")
        }
        XCTAssertThrowsError(try AudioFileWriter(path: "/nonexistent-dir/x.wav", sampleRate: 48_000, channels: 1))
        let path = tempPath("cancelled.wav")
        let w = try AudioFileWriter(path: path, sampleRate: 48_000, channels: 1)
        let x = [Float](repeating: 0.1, count: 1000)
        try x.withUnsafeBufferPointer { try w.write($0) }
        w.cancel()
        let dir = (path as NSString).deletingLastPathComponent
        let left = try FileManager.default.contentsOfDirectory(atPath: dir).filter { $0.contains("cancelled") }
        XCTAssertEqual(left, [])
    }

    func testALSANullDevicePlaysAndMissingDeviceIsOneClearError() throws {
        let p = try ALSAPlayback(device: "null", sampleRate: 48_000, channels: 2)
        let x = SignalProbe.render(.chord([440], duration: 0.2), sampleRate: 48_000)
        var stereo = [Float]()
        for s in x { stereo.append(s); stereo.append(s) }
        try stereo.withUnsafeBufferPointer { try p.write($0) }
        XCTAssertGreaterThanOrEqual(p.delay, 0)
        try p.drain()
        p.close()
        p.close()
        XCTAssertThrowsError(try ALSAPlayback(device: "no-such-device-xyz", sampleRate: 48_000, channels: 2)) {
            XCTAssertTrue("\($0)".contains("cannot open ALSA playback device 'no-such-device-xyz'"), "\($0)")
        }
    }
}
