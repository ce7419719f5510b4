import Tuning
import XCTest

@testable import Synth

/// Seed 004 §8 / issue 8 checks: the limiter's ceiling, click-free starts/ends/steals,
/// and the speaker voicing's response.
final class OutputStageTests: XCTestCase {
    private let rate = 48_000.0
    private func hz(_ m: Int) -> Double { SignalProbe.hertz(midi: m) }

    /// Scores that stress the output: a hard low chord, fast retriggers, and more notes
    /// than slots (steals).
    private var stressScores: [(String, ToneScore)] {
        var retrigger: [ToneScore.Event] = []
        for k in 0..<12 { // same note on/off every 60 ms, releases overlapping
            retrigger.append(.init(time: Double(k) * 0.06, frequency: hz(40), isOn: true))
            retrigger.append(.init(time: Double(k) * 0.06 + 0.03, frequency: hz(40), isOn: false))
        }
        var steals: [ToneScore.Event] = []
        for k in 0..<40 { // a new note every 20 ms, each held 30 ms: 12 tails would be alive
            let f = hz(40 + (k * 7) % 36)
            steals.append(.init(time: Double(k) * 0.02, frequency: f, isOn: true))
            steals.append(.init(time: Double(k) * 0.02 + 0.03, frequency: f, isOn: false))
        }
        return [
            ("chord E2 A2 D3", .chord([hz(40), hz(45), hz(50)], duration: 1.0)),
            ("chord 6 strings", .chord([40, 45, 50, 55, 59, 64].map(hz), duration: 1.0, strum: 0.02)),
            ("chord E1 E1+1c", .chord([hz(28), hz(28) * 1.0006, hz(40)], duration: 1.0)),
            ("retrigger", ToneScore(events: retrigger)),
            ("steals", ToneScore(events: steals)),
        ]
    }

    func testLimiterNeverExceedsCeiling() {
        for (name, score) in stressScores {
            for speaker in [false, true] {
                var steals = 0
                var overshoot: Float = 0
                let x = SignalProbe.render(score, sampleRate: rate, speaker: speaker) {
                    steals = $0.stealCount
                    overshoot = $0.limiter.largestUnclampedRatio
                }
                let peak = SignalProbe.peak(x)
                print(String(format: "peak %@%@: %.4f (steals %d, unclamped/ceiling %.5f)", name, speaker ? " +speaker" : "", peak, steals, overshoot))
                XCTAssertLessThan(overshoot, 1.0001, name)
                XCTAssertLessThanOrEqual(peak, 0.95, name)
                if name == "steals" { XCTAssertGreaterThan(steals, 0, "the steal score must actually steal") }
            }
        }
    }

    /// The limiter alone, fed 3× too hot a signal with sudden bursts: output stays under
    /// 0.95 yet still reaches close to it (it limits, it does not mute).
    func testLimiterOnHotInput() {
        let limiter = LookAheadLimiter(sampleRate: rate)
        var x = (0..<48_000).map { i -> Float in
            let burst: Float = (i / 4_000) % 2 == 0 ? 3 : 0.3
            return burst * Float(sin(2 * Double.pi * 220 * Double(i) / 48_000))
        }
        x.withUnsafeMutableBufferPointer { limiter.process($0) }
        let peak = SignalProbe.peak(x)
        print(String(format: "limiter hot input (3.0 bursts): peak %.5f", peak))
        XCTAssertLessThanOrEqual(peak, 0.95)
        XCTAssertGreaterThan(peak, 0.9)
        print(String(format: "limiter overshoot before the safety clamp: %.2e", limiter.largestUnclampedRatio - 1))
        XCTAssertLessThan(limiter.largestUnclampedRatio, 1.0001, "the look-ahead gain does the limiting, not the clamp")
        // 80 ms release: 30 ms after a burst ends the gain is still well below 1.
        XCTAssertGreaterThan(SignalProbe.peak(Array(x[40_000..<48_000])), 0.25)
    }

    /// A click is a sample-to-sample step larger than the sustained waveform ever makes.
    /// Single notes (low, middle, high): the steps during the attack and the release
    /// never exceed the steady state's largest step.
    func testNoClicksAtStartAndEnd() {
        for m in [28, 40, 64, 88] {
            let x = SignalProbe.render(.chord([hz(m)], duration: 1.0), sampleRate: rate)
            let steady = SignalProbe.maxJump(x, Int(0.3 * rate)..<Int(0.95 * rate))
            let start = SignalProbe.maxJump(x, 0..<Int(0.1 * rate))
            let end = SignalProbe.maxJump(x, Int(1.0 * rate)..<x.count)
            print(String(format: "clicks %@: start %.3f, end %.3f of steady step %.5f", Note(midi: m).name(), start / steady, end / steady, steady))
            XCTAssertLessThanOrEqual(start, steady * 1.001)
            XCTAssertLessThanOrEqual(end, steady * 1.001)
            XCTAssertEqual(x.last!, 0, accuracy: 1e-4, "the tone ends in silence")
        }
    }

    /// Steals and retriggers: no step larger than the largest step of any of the notes
    /// involved when sustained alone (0.1% allowed for float rounding).
    func testNoClicksAtStealsAndRetriggers() {
        for (name, score) in stressScores where name == "steals" || name == "retrigger" {
            let freqs = Set(score.events.map(\.frequency))
            var reference: Float = 0
            for f in freqs {
                let x = SignalProbe.render(.chord([f], duration: 0.5), sampleRate: rate)
                reference = max(reference, SignalProbe.maxJump(x, Int(0.2 * rate)..<Int(0.45 * rate)))
            }
            let x = SignalProbe.render(score, sampleRate: rate)
            let worst = SignalProbe.maxJump(x, 0..<x.count)
            print(String(format: "clicks %@: worst step %.3f of the sustained notes' largest step", name, worst / reference))
            XCTAssertLessThanOrEqual(worst, reference * 1.001, name)
        }
    }

    /// The metric above does catch a click: a hard cut of a sustained E2 at a zero-free point.
    func testClickMetricDetectsAHardCut() {
        var x = SignalProbe.render(.chord([hz(40)], duration: 1.0), sampleRate: rate)
        let steady = SignalProbe.maxJump(x, Int(0.3 * rate)..<Int(0.9 * rate))
        var cut = Int(0.5 * rate)
        while abs(x[cut]) < 0.2 { cut += 1 }
        for i in cut..<x.count { x[i] = 0 }
        XCTAssertGreaterThan(SignalProbe.maxJump(x, 0..<x.count), 2 * steady)
    }

    /// LR4 high-pass at 140 Hz: −6 dB at 140 Hz, ≥ 20 dB down at and below 78 Hz (and
    /// −13.7 dB at 100 Hz, as the 4th-order slope dictates), 1 kHz untouched (±0.05 dB).
    func testSpeakerVoicingResponse() {
        func gainDB(_ f: Double) -> Double {
            var hp = SpeakerVoicing(sampleRate: rate)
            var x = (0..<Int(rate)).map { Float(sin(2 * Double.pi * f * Double($0) / rate)) }
            x.withUnsafeMutableBufferPointer { hp.process($0) }
            let tail = x[Int(0.5 * rate)...]
            return 20 * log10(SignalProbe.rms(tail) / (0.5.squareRoot()))
        }
        for f in [30.0, 41.2, 60, 78, 82.4, 100, 140, 280, 1000] {
            let g = gainDB(f)
            print(String(format: "speaker voicing %6.1f Hz: %+.2f dB (analytic %+.2f)", f, g, SpeakerVoicing.analyticResponse(frequency: f)))
            XCTAssertEqual(g, SpeakerVoicing.analyticResponse(frequency: f), accuracy: 0.15)
            if f <= 78 { XCTAssertLessThanOrEqual(g, -20) }
        }
        XCTAssertEqual(gainDB(1000), 0, accuracy: 0.05)
        XCTAssertEqual(gainDB(140), -6.02, accuracy: 0.1)
    }

    /// Through the engine: an E1 (41.2 Hz) loses ≥ 20 dB of its fundamental with `--speaker`,
    /// while its harmonics above 1 kHz are unchanged.
    func testSpeakerVoicingInTheEngine() {
        let f0 = hz(28)
        let plain = SignalProbe.render(.chord([f0], duration: 2), sampleRate: rate)
        let voiced = SignalProbe.render(.chord([f0], duration: 2), sampleRate: rate, speaker: true)
        let size = 65_536, start = Int(0.4 * rate)
        let p = SignalProbe.powerSpectrum(plain[start..<start + size], size: size)
        let v = SignalProbe.powerSpectrum(voiced[start..<start + size], size: size)
        func level(_ s: [Double], _ f: Double) -> Double {
            let b = Int((f / (rate / Double(size))).rounded())
            return 10 * log10(s[(b - 3)...(b + 3)].max()!)
        }
        let fundamentalDrop = level(p, f0) - level(v, f0)
        let h25 = 25 * f0 // 1030 Hz
        let highChange = level(v, h25) - level(p, h25)
        print(String(format: "speaker voicing on E1: fundamental -%.1f dB, 25th harmonic (%.0f Hz) %+.2f dB", fundamentalDrop, h25, highChange))
        XCTAssertGreaterThanOrEqual(fundamentalDrop, 20)
        XCTAssertEqual(highChange, 0, accuracy: 0.1)
    }
}
