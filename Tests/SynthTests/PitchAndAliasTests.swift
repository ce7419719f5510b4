import XCTest

@testable import Synth

/// Seed 004 §7 / issue 8 checks: exact pitch and band-limiting of the voice.
final class PitchAndAliasTests: XCTestCase {
    /// Fundamental of a sustained tone, measured on 1 s of steady state by golden-section
    /// search of the Blackman–Harris-windowed DTFT peak (resolution ~1e-6 Hz).
    private func measuredFundamental(_ hertz: Double, sampleRate: Double = 48_000) -> Double {
        let x = SignalProbe.render(.chord([hertz], duration: 1.4), sampleRate: sampleRate)
        let start = Int(0.3 * sampleRate)
        return SignalProbe.peakFrequency(x[start..<start + Int(sampleRate)], near: hertz, span: 1.5, sampleRate: sampleRate)
    }

    func testFundamentalWithinATenthOfACent() {
        // E2 (lowest guitar string), A4 at 442 Hz reference, an arbitrary 440.5 Hz, E6, at 48 and 44.1 kHz.
        let cases: [(Double, Double)] = [
            (SignalProbe.hertz(midi: 40), 48_000), (SignalProbe.hertz(midi: 69, reference: 442), 48_000),
            (440.5, 44_100), (SignalProbe.hertz(midi: 88), 48_000), (SignalProbe.hertz(midi: 28), 44_100),
        ]
        for (f, rate) in cases {
            let cents = 1200 * log2(measuredFundamental(f, sampleRate: rate) / f)
            print(String(format: "pitch: %.4f Hz @ %.0f Hz -> error %+.5f cent", f, rate, cents))
            XCTAssertLessThan(abs(cents), 0.1, "\(f) Hz")
        }
    }

    /// E6 (1318.5 Hz): every spectral line that is not a harmonic of f0 stays ≥ 60 dB below
    /// the fundamental; the summed non-harmonic power too.
    func testAliasingOfAHighNoteIsBelowMinus60dB() {
        for rate in [48_000.0, 44_100.0] {
            let f0 = SignalProbe.hertz(midi: 88)
            let x = SignalProbe.render(.chord([f0], duration: 2.0), sampleRate: rate)
            let size = 65_536
            let start = Int(0.3 * rate)
            let p = SignalProbe.powerSpectrum(x[start..<start + size], size: size)
            let binHz = rate / Double(size)
            let fundamentalBin = Int((f0 / binHz).rounded())
            let fundamental = p[(fundamentalBin - 3)...(fundamentalBin + 3)].max()!
            var worst = 0.0, worstHz = 0.0, total = 0.0
            for (k, v) in p.enumerated() {
                let hz = Double(k) * binHz
                let harmonic = (hz / f0).rounded()
                // Blackman–Harris main lobe is ±4 bins; allow ±6 around each harmonic (and DC).
                if abs(hz - harmonic * f0) <= 6 * binHz { continue }
                total += v
                if v > worst { worst = v; worstHz = hz }
            }
            let worstDB = 10 * log10(worst / fundamental)
            let totalDB = 10 * log10(total / fundamental)
            print(String(format: "alias E6 @ %.0f Hz: worst line %.1f dB at %.0f Hz, all non-harmonic %.1f dB", rate, worstDB, worstHz, totalDB))
            XCTAssertLessThan(worstDB, -60)
            XCTAssertLessThan(totalDB, -60)
        }
    }

    func testCutoffRule() {
        XCTAssertEqual(SynthVoice.cutoff(for: 41.2, sampleRate: 48_000), 220)
        XCTAssertEqual(SynthVoice.cutoff(for: 440, sampleRate: 48_000), 880)
        XCTAssertEqual(SynthVoice.cutoff(for: 4000, sampleRate: 48_000), 5000)
        XCTAssertEqual(SynthVoice.cutoff(for: 4000, sampleRate: 8_000), 1800) // 0.45 × Nyquist
    }
}
