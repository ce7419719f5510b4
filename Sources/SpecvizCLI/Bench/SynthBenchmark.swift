import Foundation
import SpecvizCore
import Synth

/// Speed of the synthesiser for `specviz bench`.
enum SynthBenchmark {
    /// Microseconds to render one 512-sample block at 48 kHz with 3 held voices (E2, A2, D3)
    /// through the full output chain (AGC, speaker voicing on, limiter). Median of 9 runs of
    /// 200 blocks each, after a warm-up. Timed with the calling thread's CPU clock
    /// (CLOCK_THREAD_CPUTIME_ID), so other processes on a busy machine do not inflate it.
    public static func benchmark() -> Double {
        let engine = ToneEngine(sampleRate: 48_000, speakerVoicing: true)
        for midi in [40, 45, 50] { engine.noteOn(frequency: 440 * pow(2, Double(midi - 69) / 12)) }
        var block = [Float](repeating: 0, count: 512)
        var runs: [Double] = []
        block.withUnsafeMutableBufferPointer { buf in
            for _ in 0..<50 { engine.render(into: buf) }
            for _ in 0..<9 {
                let start = threadCPUSeconds()
                for _ in 0..<200 { engine.render(into: buf) }
                runs.append((threadCPUSeconds() - start) / 200 * 1e6)
            }
        }
        runs.sort()
        return runs[runs.count / 2]
    }

}
