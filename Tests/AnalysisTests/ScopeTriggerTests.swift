import Analysis
import XCTest

/// The oscilloscope's trigger (issue 17): a periodic sound stands still, silence is flat.
final class ScopeTriggerTests: XCTestCase {
    /// A band-limited sawtooth (partials up to 20 kHz, peak ≈ 0.6) rising from −0.6 to 0.6
    /// each period, 44.1 kHz: 110 Hz has a period of 400.909… samples, so only sub-sample
    /// triggering keeps it still. Sampled from a 65,536-point table of one period.
    static func saw(_ hz: Double, seconds: Double, sampleRate: Int = 44100) -> [Float] {
        let size = 65536, partials = Int(20000 / hz)
        var table = [Double](repeating: 0, count: size + 1)
        for k in 1...partials {
            let sign = k % 2 == 1 ? 1.0 : -1.0
            for j in 0...size { table[j] += sign * sin(2 * Double.pi * Double(k * j) / Double(size)) / Double(k) }
        }
        // Σ (−1)^(k+1) sin(kx)/k = x/2 on (−π, π): a rising ramp; shift by half a period.
        return (0..<Int(seconds * Double(sampleRate))).map { i in
            let ph = (Double(i) * hz / Double(sampleRate) + 0.5).truncatingRemainder(dividingBy: 1) * Double(size)
            let j = Int(ph), f = ph - Double(j)
            return Float(0.6 * 2 / Double.pi * (table[j] + (table[j + 1] - table[j]) * f))
        }
    }

    /// Feeds `samples` in the analysis feed's 2048-sample hops and captures once per 30 fps
    /// video frame with the audio heard by then; returns (trigger position, trace) per frame.
    static func frames(_ samples: [Float], fps: Int = 30) -> [(Double, [Float], Bool)] {
        let trigger = ScopeTrigger(sampleRate: 44100)
        var out: [(Double, [Float], Bool)] = []
        var read = 0
        let frameCount = samples.count * fps / 44100
        for k in 0..<frameCount {
            let t = Double(k) / Double(fps)
            while read + 2048 <= samples.count && Double(read + 2048) / 44100 <= t {
                samples[read..<(read + 2048)].withUnsafeBufferPointer { trigger.process($0) }
                read += 2048
            }
            trigger.capture()
            out.append((trigger.triggerPosition, trigger.trace, trigger.triggered))
        }
        return out
    }

    func testSawtoothAt110HzStandsStillFor10Seconds() {
        let period = 44100.0 / 110
        let frames = ScopeTriggerTests.frames(ScopeTriggerTests.saw(110, seconds: 10))
        XCTAssertEqual(frames.count, 300)
        let settled = frames.dropFirst(5) // the first 0.17 s have less than two windows of audio
        let phase0 = settled.first!.0.truncatingRemainder(dividingBy: period)
        var worstPhase = 0.0, worstTrace: Float = 0
        let trace0 = settled.first!.1
        for (pos, trace, triggered) in settled {
            XCTAssertTrue(triggered)
            var d = pos.truncatingRemainder(dividingBy: period) - phase0
            d -= period * (d / period).rounded() // circular phase distance (samples)
            worstPhase = max(worstPhase, abs(d))
            for k in 0..<trace.count { worstTrace = max(worstTrace, abs(trace[k] - trace0[k])) }
        }
        // No drift: the trigger sits at the same phase of the saw (within 0.05 sample) for 10 s,
        // and the drawn trace is the same everywhere except at the saw's sharp drop (linear
        // interpolation across the jump moves with the sub-sample phase of the window's points).
        print("scope 110 Hz saw: trigger phase within \(worstPhase) samples over \(settled.count) frames")
        XCTAssertLessThan(worstPhase, 0.05, "trigger phase wanders by \(worstPhase) samples")
        var far = 0
        for (_, trace, _) in settled {
            for k in 0..<trace.count where abs(trace[k] - trace0[k]) > 0.02 { far += 1 }
        }
        XCTAssertLessThan(Double(far) / Double(settled.count * trace0.count), 0.01, "worst \(worstTrace)")
        // The trace is centred on a rising zero crossing: negative before, positive after.
        let mid = trace0.count / 2
        XCTAssertLessThan(trace0[mid - 20], trace0[mid + 20])
        XCTAssertEqual(trace0[mid], 0, accuracy: 0.1)
    }

    func testSilenceIsFlatAndUntriggered() {
        let frames = ScopeTriggerTests.frames([Float](repeating: 0, count: 44100 * 2))
        for (_, trace, triggered) in frames {
            XCTAssertFalse(triggered)
            XCTAssertEqual(trace.map(abs).max(), 0)
        }
    }

    func testFreeRunsWithoutCrossings() {
        // DC only: no rising crossing after the DC blocker settles → free-running at the centre.
        let frames = ScopeTriggerTests.frames([Float](repeating: 0.5, count: 44100 * 2))
        XCTAssertFalse(frames.last!.2)
        XCTAssertEqual(frames.last!.1[0], 0.5, accuracy: 1e-6)
    }
}
