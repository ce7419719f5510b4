import Analysis
import Foundation
import Specviz
import SpecvizCore
import Synth

/// The benchmarks of the pitch, tempo and tone modules, printed by `specviz bench`.
enum ExtraBenchmarks {
    static func lines() -> [String] {
        let pitch = PitchBenchmark.benchmarkMicrosecondsPerHop()
        let tempo = TempoBenchmark.benchmark(seconds: 60)
        let reviewed = TempoBenchmark.benchmark(seconds: 60, reviews: true)
        let beats = TempoBenchmark.beatAnalysisRealTimeFactor(seconds: 60)
        let synth = SynthBenchmark.benchmark()
        let scope = scopeTriggerMicroseconds()
        return [
            String(
                format: "pitch detector (YIN+Pearson+fingerprint)  %7.2f µs per 512-sample hop (%.0f× real time at 44.1 kHz)",
                pitch, 512.0 / 44100 * 1e6 / pitch),
            String(
                format: "tempo tracker (onsets+comb estimate)     %7.2f µs per 1024-sample hop (%.0f× real time)",
                tempo.microsecondsPerHop, tempo.realTimeFactor),
            String(
                format: "tempo tracker + phase reviews (live view) %7.2f µs per 1024-sample hop (%.0f× real time, CPU of all threads)",
                reviewed.microsecondsPerHop, reviewed.realTimeFactor),
            String(
                format: "beat analysis (offline: beats, level, metre) %.0f× real time (wall clock, two threads; %.0f× per CPU second)", beats.wall, beats.cpu),
            String(
                format: "tone synthesiser (3 voices+AGC+limiter)  %7.2f µs per 512-sample block at 48 kHz (%.0f× real time)", synth, 512.0 / 48000 * 1e6 / synth
            ),
            String(
                format: "scope trigger (110 Hz saw + noise)       %7.2f µs per capture (one video frame) + %.2f µs per 735 samples in",
                scope.capture, scope.process),
        ]
    }

    /// The oscilloscope trigger: time to take 735 samples (one 60 fps frame at 44.1 kHz) and
    /// to capture one trace, on a 110 Hz saw with a little noise (several crossings per window).
    static func scopeTriggerMicroseconds() -> (capture: Double, process: Double) {
        let signal: [Float] = (0..<(735 * 64)).map { i in
            Float((Double(i) * 110 / 44100).truncatingRemainder(dividingBy: 1)) - 0.5 + Float.random(in: -0.02...0.02)
        }
        let frames = 6000
        // Thread CPU time of `frames` frames, with and without the capture.
        func run(capturing: Bool) -> Double {
            let trigger = ScopeTrigger(sampleRate: 44100)
            return signal.withUnsafeBufferPointer { buf in
                let t0 = threadCPUSeconds()
                for k in 0..<frames {
                    trigger.process(UnsafeBufferPointer(rebasing: buf[((k % 64) * 735)..<((k % 64) * 735 + 735)]))
                    if capturing { trigger.capture() }
                }
                return threadCPUSeconds() - t0
            }
        }
        let inOnly = run(capturing: false), both = run(capturing: true)
        let n = Double(frames)
        return (max(0, both - inOnly) / n * 1e6, inOnly / n * 1e6)
    }
}
