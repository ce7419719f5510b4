import Analysis
import Foundation
import SpecvizCore

/// Speed of the spectrum analysis per hop (thread CPU time, so other work on a shared
/// machine does not count), for `specviz bench`.
enum SpectrumBenchmark {
    /// Microseconds of thread CPU per hop of `config` at 44.1 kHz on white noise, and
    /// the real-time factor (audio seconds per CPU second).
    public static func run(_ config: AnalysisConfig, seconds: Double = 30) -> (microsecondsPerHop: Double, realTime: Double) {
        let analyzer = SpectrumAnalyzer(sampleRate: 44100, config: config)
        var frame = SpectrumFrame(bands: analyzer.layout.count)
        var seed: UInt32 = 12345
        let hop = (0..<analyzer.hopSize).map { _ -> Float in
            seed = seed &* 1664525 &+ 1013904223
            return Float(seed >> 8) / Float(1 << 24) - 0.5
        }
        let hops = max(8, Int(seconds * 44100) / analyzer.hopSize)
        hop.withUnsafeBufferPointer { buf in for _ in 0..<4 { analyzer.process(buf, into: &frame) } }
        let t0 = threadCPUSeconds()
        hop.withUnsafeBufferPointer { buf in for _ in 0..<hops { analyzer.process(buf, into: &frame) } }
        let per = (threadCPUSeconds() - t0) / Double(hops)
        return (per * 1e6, Double(analyzer.hopSize) / 44100 / per)
    }

    /// The lines `specviz bench` prints: the seed's analysis, the command line's default,
    /// and the largest FFT.
    public static func lines() -> [String] {
        var largest = AnalysisConfig()
        largest.fftSize = 65536
        let cases: [(String, AnalysisConfig)] = [
            ("seed analysis (tilt seed)", .seed(musicMode: true)),
            ("default analysis (no tilt)", AnalysisConfig()),
            ("FFT 65536, hop 2048", largest),
        ]
        let fft = RealFFT(size: 2048)
        let x = [Float](repeating: 0.25, count: 2048)
        var re = [Float](repeating: 0, count: 1025), im = re
        let t0 = threadCPUSeconds()
        for _ in 0..<20000 { fft.forward(x, re: &re, im: &im) }
        let fftLine = "spectrum: real FFT 2048 alone          \(format((threadCPUSeconds() - t0) / 20000 * 1e6)) µs CPU"
        return [fftLine]
            + cases.map { name, c in
                let r = run(c)
                let pad = String(repeating: " ", count: max(0, 30 - name.count))
                return "spectrum: \(name)\(pad) \(format(r.microsecondsPerHop)) µs CPU per \(c.hopSize)-sample hop (\(Int(r.realTime))× real time)"
            }
    }

    private static func format(_ v: Double) -> String {
        let c = Int((v * 100).rounded())
        let s = "\(c / 100)." + (c % 100 < 10 ? "0" : "") + "\(c % 100)"
        return String(repeating: " ", count: max(0, 8 - s.count)) + s
    }
}
