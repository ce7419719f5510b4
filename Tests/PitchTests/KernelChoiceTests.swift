import Analysis
import CKernels
import SpecvizTestSupport
import XCTest

/// The analysis kernels (CKernels) give the same numbers from the baseline and the AVX2
/// build: the FFT, and the pitch tracker end to end (every kernel it calls: lag functions,
/// resonators, decimation, the DFT bin, prefix sums).
final class KernelChoiceTests: XCTestCase {
    override func tearDown() { spv_set_kernel(-1) }

    private func bits(_ x: [Float]) -> [UInt32] { x.map(\.bitPattern) }

    func testFFTIsTheSameFromBothKernels() {
        for n in [4, 8, 16, 32, 2048, 4096, 65536] {
            var rng = SeededRandom(seed: UInt64(n))
            let x = (0..<n).map { _ in Float(rng.uniform() - 0.5) }
            let fft = RealFFT(size: n)
            var outputs: [[UInt32]] = []
            for k in [0, -1] {
                spv_set_kernel(Int32(k))
                var re = [Float](repeating: 0, count: n / 2 + 1), im = re
                fft.forward(x, re: &re, im: &im)
                outputs.append(bits(re) + bits(im))
            }
            XCTAssertEqual(outputs[0], outputs[1], "size \(n)")
        }
    }

    func testPitchTrackerIsTheSameFromBothKernels() {
        let sr = 48000
        // A low note (the low-pass and both estimators), then noise (the fingerprint rescue).
        let note = ToneGenerators.harmonic(f0: 82.4, amplitudes: [1, 0.6, 0.4, 0.3], sampleRate: sr, duration: 1, amplitude: 0.3)
        let noise = ToneGenerators.pinkNoise(sampleRate: sr, duration: 1, rms: 0.05)
        let x = note + ToneGenerators.addNoise(ToneGenerators.harmonic(f0: 440, amplitudes: [1, 0.5], sampleRate: sr, duration: 1), noise, snr: 3)
        var runs: [[String]] = []
        for k in [0, -1] {
            spv_set_kernel(Int32(k))
            runs.append(track(x, sampleRate: sr).map { "\($0.raw?.frequency.bitPattern ?? 0) \($0.raw?.confidence.bitPattern ?? 0)" })
        }
        XCTAssertEqual(runs[0].count, runs[1].count)
        XCTAssertGreaterThan(runs[0].filter { !$0.hasPrefix("0 ") }.count, 60, "too few detections to compare")
        XCTAssertEqual(runs[0], runs[1])
    }
}
