import CKernels
import SpecvizTestSupport
import XCTest

@testable import Analysis

/// `tune` prepares each hop's raw-window analysis on the decoding thread (`HopPreparer`),
/// with the rumble-free retry and the rescue's probes where the raw window foretells them;
/// the tracker must read exactly what it reads without it. And the zero-phase low-pass,
/// which runs its biquad four samples at a time, must give the one-step recursion's floats.
final class PreparedHopTests: XCTestCase {
    private func signal(sampleRate sr: Int) -> [Float] {
        // A low note (latched: the low-pass path), a high one, noise (the rescue), a note
        // deep in pink noise (the rumble-free retry), silence.
        let low = ToneGenerators.harmonic(f0: 82.4, amplitudes: [1, 0.6, 0.4, 0.3], sampleRate: sr, duration: 1, amplitude: 0.3)
        let high = ToneGenerators.harmonic(f0: 659.3, amplitudes: [1, 0.5], sampleRate: sr, duration: 0.6, amplitude: 0.2)
        let noise = ToneGenerators.pinkNoise(sampleRate: sr, duration: 0.5, rms: 0.05)
        let cello = ToneGenerators.harmonic(f0: 130.8, amplitudes: [1, 0.7, 0.5, 0.4, 0.3], sampleRate: sr, duration: 1, amplitude: 0.2)
        let noisy = ToneGenerators.addNoise(cello, ToneGenerators.pinkNoise(sampleRate: sr, duration: 1, rms: 0.1, seed: 5), snr: 0)
        return low + high + noise + noisy + [Float](repeating: 0, count: sr / 4)
    }

    private func key(_ t: PitchTracker) -> String {
        "\(t.time) \(t.raw?.frequency.bitPattern ?? 0) \(t.raw?.confidence.bitPattern ?? 0) \(t.display?.frequency.bitPattern ?? 0)"
    }

    /// Runs a tracker over `x` in chunks of `chunk`, with or without prepared hops (every
    /// other chunk foreseen when `alternate`); counts the foreseen retries and rescues.
    private func run(
        _ x: [Float], sampleRate: Int, chunk: Int, prepare: Bool, alternate: Bool = false,
        foreseen: UnsafeMutablePointer<(retries: Int, rescues: Int)>? = nil
    ) -> [String] {
        let tracker = PitchTracker(sampleRate: sampleRate)
        let preparer = HopPreparer(for: tracker)
        let hops = PreparedHops()
        var out: [String] = []
        var chunks = 0
        x.withUnsafeBufferPointer { buf in
            var i = 0
            while i < buf.count {
                let n = min(chunk, buf.count - i)
                let part = UnsafeBufferPointer(rebasing: buf[i..<(i + n)])
                if prepare {
                    chunks += 1
                    preparer.prepare(part, into: hops, foresight: alternate && chunks % 2 == 1 ? Int.max : 0)
                    for w in hops.windows.prefix(hops.count) {
                        if w.retry != nil { foreseen?.pointee.retries += 1 }
                        if w.probes != nil { foreseen?.pointee.rescues += 1 }
                    }
                }
                tracker.process(part, prepared: prepare ? hops : nil) { out.append(self.key($0)) }
                i += n
            }
        }
        return out
    }

    func testPreparedHopsGiveTheSameReadings() {
        let sr = 44100
        let x = signal(sampleRate: sr)
        let plain = run(x, sampleRate: sr, chunk: 1000, prepare: false)
        XCTAssertGreaterThan(plain.count, 200)
        XCTAssertTrue(plain.contains { !$0.hasSuffix(" 0 0 0") }, "the tracker found pitches")
        for chunk in [1000, 4096, 333] {
            var foreseen = (retries: 0, rescues: 0)
            XCTAssertEqual(run(x, sampleRate: sr, chunk: chunk, prepare: true, foreseen: &foreseen), plain, "chunks of \(chunk)")
            XCTAssertGreaterThan(foreseen.retries, 10, "retries foreseen, chunks of \(chunk)")
            XCTAssertGreaterThan(foreseen.rescues, 5, "rescues foreseen, chunks of \(chunk)")
            XCTAssertEqual(run(x, sampleRate: sr, chunk: chunk, prepare: true, alternate: true), plain, "every other chunk foreseen")
        }
    }

    func testAPreparedWindowOfAnotherHopIsNotUsed() {
        let sr = 44100
        let x = signal(sampleRate: sr)
        let tracker = PitchTracker(sampleRate: sr)
        let preparer = HopPreparer(for: tracker)
        let hops = PreparedHops()
        // The preparer heard 700 samples more: its windows end at other positions than the
        // tracker's hops, so the tracker refuses every one and reads as it would alone.
        var plain: [String] = [], prepared: [String] = []
        let reference = PitchTracker(sampleRate: sr)
        x.withUnsafeBufferPointer { buf in
            preparer.prepare(UnsafeBufferPointer(rebasing: buf[0..<700]), into: hops)
            var i = 0
            while i < buf.count {
                let n = min(1024, buf.count - i)
                let part = UnsafeBufferPointer(rebasing: buf[i..<(i + n)])
                preparer.prepare(part, into: hops)
                tracker.process(part, prepared: hops) { prepared.append(self.key($0)) }
                reference.process(part) { plain.append(self.key($0)) }
                i += n
            }
        }
        XCTAssertEqual(prepared, plain)
    }

    func testFourSampleBiquadGivesTheOneStepFloats() {
        var rng = SeededRandom(seed: 7)
        // 2047: the last three samples of each pass take the one-step recursion.
        for (n, cutoff) in [(2048, 336.0), (2048, 1000), (2048, 4000), (2047, 1000)] {
            let x = (0..<n).map { i in Float(0.6 * sin(Double(i) * 0.03) + 0.3 * (rng.uniform() - 0.5) + 0.05) }
            var lp = ZeroPhaseLowPass()
            lp.setCutoff(cutoff, sampleRate: 44100)
            var fast = [Float](repeating: 0, count: n)
            x.withUnsafeBufferPointer { src in fast.withUnsafeMutableBufferPointer { lp.apply(src.baseAddress!, $0.baseAddress!, count: n) } }
            // The one-step recursion, forward then backward, from the DC steady state.
            let w0 = 2 * Double.pi * cutoff / 44100, alpha = sin(w0) / (2 * 0.5.squareRoot()), c = cos(w0), a0 = 1 + alpha
            let b0 = (1 - c) / 2 / a0, b1 = (1 - c) / a0, b2 = b0, a1 = -2 * c / a0, a2 = (1 - alpha) / a0
            func pass(_ v: [Float]) -> [Float] {
                let g = (b0 + b1 + b2) / (1 + a1 + a2)
                var x1 = Double(v[0]), x2 = x1, y1 = x1 * g, y2 = y1
                return v.map { s in
                    let xv = Double(s)
                    let y = b0 * xv + b1 * x1 + b2 * x2 - a2 * y2 - a1 * y1
                    x2 = x1; x1 = xv; y2 = y1; y1 = y
                    return Float(y)
                }
            }
            let slow = Array(pass(Array(pass(x).reversed())).reversed())
            var worst: Float = 0
            for i in 0..<n { worst = max(worst, abs(fast[i] - slow[i])) }
            XCTAssertLessThanOrEqual(worst, 1e-6, "cutoff \(cutoff)")
            XCTAssertGreaterThan(slow.map(abs).max() ?? 0, 0.3, "the filter passes the low sine")
        }
    }
}
