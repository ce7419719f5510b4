import Analysis
import Foundation
import Synth

/// The benchmarks of the pitch, tempo and tone modules, printed by `specviz bench`.
enum ExtraBenchmarks {
    static func lines() -> [String] {
        let pitch = PitchBenchmark.benchmarkMicrosecondsPerHop()
        let tempo = TempoBenchmark.benchmark(seconds: 60)
        let beats = TempoBenchmark.beatAnalysisRealTimeFactor(seconds: 60)
        let synth = SynthBenchmark.benchmark()
        return [
            String(format: "pitch detector (YIN+Pearson+fingerprint)  %7.2f µs per 512-sample hop (%.0f× real time at 44.1 kHz)",
                   pitch, 512.0 / 44100 * 1e6 / pitch),
            String(format: "tempo tracker (onsets+comb estimate)     %7.2f µs per 1024-sample hop (%.0f× real time)",
                   tempo.microsecondsPerHop, tempo.realTimeFactor),
            String(format: "beat analysis (offline: beats, level, metre) %.0f× real time", beats),
            String(format: "tone synthesiser (3 voices+AGC+limiter)  %7.2f µs per 512-sample block at 48 kHz (%.0f× real time)", synth, 512.0 / 48000 * 1e6 / synth),
        ]
    }
}
