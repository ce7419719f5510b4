import Analysis
import SpecvizTestSupport
import XCTest

/// Issue 19: bass notes under 80 Hz in rumble showed readings that swung by ±40 cents. A
/// 47 Hz note spans 2.1 periods of the 2048-sample window, and noise in the same band moves
/// the period estimate by tens of cents from hop to hop; the display's smoothing follows the
/// big steps half way. Where that scatter is large, the note's first partial over a window
/// four times as long (phase advance over 16 hops) replaces the period estimate.
final class LowNoteInRumbleTests: XCTestCase {
    /// A bass-like tone (strong fundamental, slow decay) over noise below ~120 Hz at 6 dB: over
    /// the note's body (0.8–2.2 s; later the noise overtakes it) the shown pitch stays within
    /// 6 cents on 95 % of the hops, 10 at 31 Hz (before: 17, 20 and 27 cents).
    func testLowBassInRumbleReadsSteadily() {
        let sr = 44100
        for (f0, seed, bound) in [(46.7, UInt64(5), 6.0), (41.2, 6, 6), (30.9, 7, 10)] {
            var note = ToneGenerators.harmonic(
                f0: f0, amplitudes: [1, 0.6, 0.4, 0.25, 0.15, 0.1], sampleRate: sr, duration: 3.0, amplitude: 0.4)
            for i in note.indices { note[i] *= Float(exp(-Double(i) / Double(sr) / 3)) }
            let noise = RumbleOctaveTests.rumble(sampleRate: sr, duration: 3.0, rms: ToneGenerators.rms(note) / 2, seed: seed)
            let hops = track(ToneGenerators.mix(note, noise), sampleRate: sr)
            let errors = hops.filter { (0.8...2.2).contains($0.time) }.compactMap { $0.display.map { abs(centsBetween($0.frequency, f0)) } }.sorted()
            XCTAssertGreaterThan(errors.count, 110, "\(f0) Hz: shown on too few hops")
            guard errors.count > 20 else { continue }
            let p95 = errors[errors.count * 95 / 100]
            XCTAssertLessThan(p95, bound, "\(f0) Hz in rumble: 95th percentile \(p95) cents")
        }
    }

    /// A clean low note keeps the period estimate (it scatters by far less than 10 cents) and
    /// reads within a cent.
    func testCleanLowNoteStaysExact() {
        let sr = 48000, f0 = 41.2
        let note = ToneGenerators.harmonic(f0: f0, amplitudes: [1, 0.6, 0.4, 0.25], sampleRate: sr, duration: 2.5, amplitude: 0.4)
        assertDisplays(track(note, sampleRate: sr), frequency: f0, settle: 0.6, tolerance: 1, "clean 41.2 Hz")
    }

    /// A low stiff string (piano or bass, B = 1.5e-4): its partials k sit at k·f0·√(1 + B·k²),
    /// and the period estimate, a compromise between all of them, read these notes 3.6 and 5.7
    /// cents sharp of their first partial (the public set's clean low piano, bass and guitar
    /// notes: 2–3 cents). Half the second partial over the long window, 1.5·B above the first
    /// (0.2–0.4 ¢), now refines it: the display stays within 1 cent of the first partial.
    func testLowStiffStringReadsItsFirstPartial() {
        let sr = 44100
        for (f0, b) in [(65.4, 1.5e-4), (55.0, 1.0e-4)] {
            var note = ToneGenerators.harmonic(
                f0: f0, amplitudes: [0.5, 1, 0.8, 0.7, 0.6, 0.5, 0.45, 0.4, 0.35, 0.3, 0.25, 0.2], sampleRate: sr,
                duration: 3.0, amplitude: 0.4, inharmonicity: b)
            for i in note.indices { note[i] *= Float(exp(-Double(i) / Double(sr) / 2)) }
            let first = f0 * (1 + b).squareRoot()
            let errors = track(note, sampleRate: sr).filter { (1.0...2.5).contains($0.time) }
                .compactMap { $0.display.map { centsBetween($0.frequency, first) } }
            XCTAssertGreaterThan(errors.count, 100, "\(f0) Hz: shown on too few hops")
            let worst = errors.map(abs).max() ?? .infinity
            XCTAssertLessThan(worst, 1, "\(f0) Hz, B = \(b): the display is \(worst) cents from the first partial")
        }
    }

    /// A struck low string whose second partial dies within a second while the third holds
    /// (the public set's piano C2), in rumble: once the second partial is gone the period
    /// estimate, left to the stretched upper partials over the noise, read it sharp (here
    /// 95th percentile 5.6 cents, median 4.4; that piano 7–10). A third of the third partial
    /// (above the rumble band, about 4·B above the first: 1 ¢ here) now takes over: 1.7 and 1.2.
    func testStruckStringInRumbleReadsItsThirdPartialOnceTheSecondHasFaded() {
        let sr = 48000, f0 = 65.4, b = 1.5e-4, seconds = 3.0
        // Partial k: amplitude, decay time (s).
        let partials: [(Double, Double)] = [
            (0.35, 2.5), (1.0, 0.25), (0.9, 2.5), (0.6, 2), (0.55, 2), (0.5, 1.5), (0.45, 1.5), (0.4, 1.2), (0.35, 1),
            (0.3, 1), (0.25, 0.8), (0.2, 0.8),
        ]
        var note = [Float](repeating: 0, count: Int(seconds * Double(sr)))
        for (i, (a, tau)) in partials.enumerated() {
            let k = Double(i + 1), w = 2 * Double.pi * k * f0 * (1 + b * k * k).squareRoot() / Double(sr)
            for n in note.indices { note[n] += Float(0.3 * a * exp(-Double(n) / Double(sr) / tau) * sin(w * Double(n))) }
        }
        let noise = RumbleOctaveTests.rumble(sampleRate: sr, duration: seconds, rms: ToneGenerators.rms(note), seed: 9)
        let first = f0 * (1 + b).squareRoot()
        let errors = track(ToneGenerators.mix(note, noise), sampleRate: sr).filter { (1.2...2.5).contains($0.time) }
            .compactMap { $0.display.map { abs(centsBetween($0.frequency, first)) } }.sorted()
        XCTAssertGreaterThan(errors.count, 100, "shown on too few hops")
        guard errors.count > 20 else { return }
        let p95 = errors[errors.count * 95 / 100]
        XCTAssertLessThan(p95, 3, "95th percentile \(p95) cents from the first partial")
    }
}
