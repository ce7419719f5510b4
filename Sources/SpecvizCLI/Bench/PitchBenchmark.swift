import Analysis
import Foundation
import SpecvizCore
import Tuning

/// Detector cost measurement for `specviz bench`.
enum PitchBenchmark {
    /// Mean thread-CPU microseconds per 512-sample hop of the full tuner (ring buffer,
    /// hybrid detector, latch), at 48 kHz, over a 4 s program that exercises every path:
    /// a steady harmonic note (latched, low-pass filtered YIN), a low bass note (both
    /// estimators must agree, harmonic gate), pink noise alone (fingerprint rescue probes)
    /// and a missing-fundamental tone. Best of three runs after a warm-up, timed on the
    /// thread's CPU clock so a loaded machine does not inflate it. Measure in release builds. Allocates only while building the test signal.
    public static func benchmarkMicrosecondsPerHop() -> Double {
        let sr = 48000
        let signal = makeProgram(sampleRate: sr)
        let tracker = PitchTracker(sampleRate: sr)
        var best = Double.infinity
        signal.withUnsafeBufferPointer { buf in
            tracker.process(UnsafeBufferPointer(rebasing: buf[0..<sr])) // warm-up
            for _ in 0..<3 {
                tracker.reset()
                let t0 = threadCPUSeconds()
                tracker.process(buf)
                let dt = threadCPUSeconds() - t0
                best = min(best, dt / Double(max(tracker.hopCount, 1)))
            }
        }
        return best * 1e6
    }

    /// The 4-second benchmark program (see `benchmarkMicrosecondsPerHop`).
    static func makeProgram(sampleRate sr: Int) -> [Float] {
        var out = [Float]()
        out.reserveCapacity(4 * sr)
        func tone(_ f0: Double, _ amps: [Double]) {
            var phases = [Double](repeating: 0, count: amps.count)
            for _ in 0..<sr {
                var s = 0.0
                for k in 0..<amps.count {
                    phases[k] += 2 * Double.pi * f0 * Double(k + 1) / Double(sr)
                    s += amps[k] * sin(phases[k] + Double(k))
                }
                out.append(Float(0.2 * s))
            }
        }
        tone(196.0, [1, 0.6, 0.4, 0.3, 0.2, 0.1]) // G3, steady
        tone(41.2, [0.5, 1, 0.7, 0.5, 0.3, 0.2]) // E1, bass
        var seed: UInt64 = 0x1234_5678 // pink-ish noise (leaky integrated white)
        var lp = 0.0
        for _ in 0..<sr {
            seed = seed &* 6364136223846793005 &+ 1442695040888963407
            let w = Double(Int64(bitPattern: seed >> 1) % 1_000_000) / 1_000_000
            lp = 0.97 * lp + 0.03 * w
            out.append(Float(0.05 * (lp * 4 + 0.3 * w)))
        }
        tone(110.0, [0, 1, 0.8, 0.6, 0.4, 0.3]) // A2 without its fundamental
        return out
    }

}
