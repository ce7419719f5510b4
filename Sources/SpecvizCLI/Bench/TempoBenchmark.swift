import Analysis
import Foundation
import SpecvizCore

/// Speed of the tempo tracker for `specviz bench`.
enum TempoBenchmark {
    /// Runs `TempoTracker` over `seconds` (default 60) of a synthetic 44.1 kHz drum pattern (kick, snare-like
    /// noise and off-beat hats at 123 BPM, plus a quiet chord) fed in 4096-sample chunks,
    /// the way a file or a live callback would. Median of 5 runs after a warm-up, in thread
    /// CPU time (the machine is shared).
    ///
    /// - Returns: `microsecondsPerHop`, the mean cost of one 1024-sample hop including
    ///   the ~0.5 s tempo estimates amortised over the hops; `realTimeFactor`, seconds of
    ///   audio analysed per second of CPU (≥ 1000 is the target, issue 9).
    ///
    /// - Parameter reviews: with the offline reviews of the predicted beats' phase
    ///   (`TempoTracker.init(reviewsPhase:)`, a live view's tracker), timed in the CPU time of
    ///   every thread (the reviews run on their own).
    public static func benchmark(seconds: Double = 60, reviews: Bool = false) -> (microsecondsPerHop: Double, realTimeFactor: Double) {
        let sampleRate = 44_100
        let signal = drumLoop(sampleRate: sampleRate, seconds: seconds)
        var runs: [Double] = []
        var hops = 0
        signal.withUnsafeBufferPointer { all in
            for run in 0..<6 {
                let tracker = TempoTracker(sampleRate: sampleRate, reviewsPhase: reviews)
                let cpu = reviews ? processCPUSeconds : threadCPUSeconds
                let start = cpu()
                var i = 0
                while i < all.count {
                    let n = min(4096, all.count - i)
                    tracker.process(UnsafeBufferPointer(rebasing: all[i..<(i + n)]))
                    i += n
                }
                if reviews { tracker.reset() } // waits for the last review
                let elapsed = cpu() - start
                hops = all.count / tracker.hop
                if run > 0 { runs.append(elapsed) } // run 0 warms caches up
            }
        }
        runs.sort()
        let median = runs[runs.count / 2]
        return (median / Double(max(hops, 1)) * 1e6, seconds / median)
    }

    /// Runs the offline `BeatAnalyzer` (causal tracker + finer envelope while streaming,
    /// then `finish`: beats, level, segments, metre) over `seconds` of the same drum loop.
    /// Median of 3 runs after a warm-up; returns seconds of audio per second of wall time
    /// (the causal tracker and the offline envelopes run on two threads) and per second of
    /// CPU (all threads).
    public static func beatAnalysisRealTimeFactor(seconds: Double = 60) -> (wall: Double, cpu: Double) {
        let sampleRate = 44_100
        let signal = drumLoop(sampleRate: sampleRate, seconds: seconds)
        var runs: [Double] = [], cpu: [Double] = []
        signal.withUnsafeBufferPointer { all in
            for run in 0..<4 {
                let analyzer = BeatAnalyzer(sampleRate: sampleRate)
                let start = monotonicSeconds(), startCPU = processCPUSeconds()
                var i = 0
                while i < all.count {
                    let n = min(8192, all.count - i) // the decoder's chunk
                    analyzer.process(UnsafeBufferPointer(rebasing: all[i..<(i + n)]))
                    i += n
                }
                _ = analyzer.finish()
                if run > 0 {
                    runs.append(monotonicSeconds() - start)
                    cpu.append(processCPUSeconds() - startCPU)
                }
            }
        }
        runs.sort()
        cpu.sort()
        return (seconds / runs[runs.count / 2], seconds / cpu[cpu.count / 2])
    }

    /// 123 BPM: kick on beats 1 and 3, noise snare on 2 and 4, hats on eighths, and an
    /// A-minor triad underneath (deterministic noise).
    static func drumLoop(sampleRate: Int, seconds: Double) -> [Float] {
        let n = Int(seconds * Double(sampleRate))
        let sr = Double(sampleRate)
        let beat = 60.0 / 123
        var out = [Float](repeating: 0, count: n)
        var seed: UInt32 = 1
        for i in 0..<n {
            let t = Double(i) / sr
            let position = t.truncatingRemainder(dividingBy: 2 * beat)
            let eighth = t.truncatingRemainder(dividingBy: beat / 2)
            seed = seed &* 1_664_525 &+ 1_013_904_223
            let noise = Double(seed >> 8) / Double(1 << 23) - 1
            var v = 0.2 * (sin(2 * Double.pi * 220 * t) + sin(2 * Double.pi * 261.63 * t) + sin(2 * Double.pi * 329.63 * t)) / 3
            if position < 0.2 { v += 0.7 * sin(2 * Double.pi * 55 * position) * exp(-position / 0.08) }
            let snare = (position - beat)
            if snare >= 0 && snare < 0.15 { v += 0.4 * noise * exp(-snare / 0.04) }
            if eighth < 0.05 { v += 0.15 * noise * exp(-eighth / 0.01) }
            out[i] = Float(v)
        }
        return out
    }

}
