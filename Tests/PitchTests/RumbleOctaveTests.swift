import Analysis
import SpecvizTestSupport
import Tuning
import XCTest

/// Issue 19: sustained clarinet and flute notes in low rumble locked an octave low.
final class RumbleOctaveTests: XCTestCase {
    /// Noise below ~120 Hz (two one-pole low-passes on white noise) at `rms`.
    static func rumble(sampleRate: Int, duration: Double, rms: Double, seed: UInt64 = 5) -> [Float] {
        var x = ToneGenerators.whiteNoise(sampleRate: sampleRate, duration: duration, rms: 1, seed: seed)
        var lp = 0.0, lp2 = 0.0
        let a = 1 - exp(-2 * Double.pi * 60 / Double(sampleRate))
        for i in x.indices { lp += a * (Double(x[i]) - lp); lp2 += a * (lp - lp2); x[i] = Float(lp2) }
        let r = ToneGenerators.rms(x)
        return x.map { $0 * Float(rms / r) }
    }

    /// End to end: sustained wind-like tones at 6 dB over rumble show only their own note
    /// (a guard; these synthetic tones did not lock low before the fix either).
    func testSustainedWindsInRumbleLockOnTheirNote() {
        let sr = 48000
        let cases: [(String, Double, [Double])] = [
            ("clarinet", 274.8, [1, 0.08, 0.7, 0.06, 0.5, 0.05, 0.3, 0.03]),
            ("flute", 257.5, [1, 0.5, 0.15, 0.08, 0.04]),
            ("flute breathy", 257.5, [1, 0.3, 0.1, 0.05]),
        ]
        for (name, f0, amps) in cases {
            let note = ToneGenerators.harmonic(f0: f0, amplitudes: amps, sampleRate: sr, duration: 2.0, amplitude: 0.3)
            let noise = RumbleOctaveTests.rumble(sampleRate: sr, duration: 2.0, rms: ToneGenerators.rms(note) / 2)
            let x = [Float](repeating: 0, count: sr / 4) + ToneGenerators.mix(note, noise)
            let hops = track(x, sampleRate: sr)
            let expected = Int(Note.midiValue(frequency: f0).rounded())
            let shown = hops.compactMap { $0.display?.note.midi }
            XCTAssertFalse(shown.isEmpty, "\(name): nothing shown")
            XCTAssertEqual(Set(shown), [expected], "\(name) \(f0) Hz in rumble: shown \(Set(shown))")
        }
    }

    /// The mechanism: rumble raises YIN's CMND at every lag, so no dip falls under the 0.15
    /// threshold and the global minimum (the relaxed rule) can sit on 2T or 3T. The search
    /// must apply the same rumble-free reverse check to that minimum as to a first dip.
    func testRelaxedMinimumGetsTheReverseCheck() {
        let sr = 48000, n = 2048
        let analysis = LagAnalysis(size: n, maxLag: 1718)
        let minLag = 24, maxLag = 1715
        var relaxed = 0, subharmonic = 0
        for (f0, amps) in [(274.8, [1, 0.08, 0.7, 0.06, 0.5, 0.05, 0.3]), (257.5, [1, 0.5, 0.15, 0.08])] {
            let note = ToneGenerators.harmonic(f0: f0, amplitudes: amps, sampleRate: sr, duration: 1.0, amplitude: 0.3)
            for (seed, snr) in [(UInt64(5), 0.5), (6, 0.5), (7, 0.7), (8, 0.6), (9, 0.7)] {
                let noise = RumbleOctaveTests.rumble(sampleRate: sr, duration: 1.0, rms: snr * ToneGenerators.rms(note), seed: seed)
                let x = ToneGenerators.mix(note, noise)
                var hp = StreamingHighPass()
                hp.setCutoff(150, sampleRate: Double(sr))
                let clean = x.map { hp.process($0) }
                for start in stride(from: 8192, to: x.count - n, by: 2048) {
                    x.withUnsafeBufferPointer { xb in
                        clean.withUnsafeBufferPointer { cb in
                            analysis.analyse(xb.baseAddress! + start)
                            // Only windows where the relaxed rule decides (no dip under the threshold).
                            var dip = false
                            for t in minLag...maxLag where analysis.cmnd[t] < YinSearch.threshold { dip = true; break }
                            guard !dip,
                                let e = YinSearch.search(
                                    analysis, minLag: minLag, maxLag: maxLag,
                                    octaveCheck: cb.baseAddress! + start)
                            else { return }
                            relaxed += 1
                            // Any other note (the relaxed minimum falls on 2T, 3T, … 6T).
                            if abs(12 * log2(e.frequency(sampleRate: Double(sr)) / f0)) > 0.5 { subharmonic += 1 }
                        }
                    }
                }
            }
        }
        XCTAssertGreaterThan(relaxed, 5, "the signal no longer exercises the relaxed rule")
        XCTAssertEqual(subharmonic, 0, "\(subharmonic) of \(relaxed) relaxed-rule windows read another note")
    }
}
