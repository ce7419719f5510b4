import Analysis
import Foundation
import XCTest

/// Issue 39 item 7: the raw estimate of a sung low note follows its vibrato. Two ways it
/// did not: a crest at the mains (150 Hz) was taken for hum and read nothing, and the hop
/// to hop swing of a vibrato was taken for a scattering period estimate, which the long
/// window's partial (an average over 0.19 s) then replaced, flattening the swing by half.
final class SungVibratoTests: XCTestCase {
    static let sampleRate = 44100

    /// A held note: its centre (Hz), and a vibrato of ±`depth` cents at `rate` Hz from 0.25 s on.
    struct Note {
        var centre: Double, depth: Double, rate: Double

        /// The f0 (Hz) at time `t`.
        func f0(at t: Double) -> Double {
            let ramp = min(1, max(0, (t - 0.25) / 0.1))
            return centre * pow(2, depth * ramp * sin(2 * Double.pi * rate * t) / 1200)
        }
    }

    /// A voice-like tone of 1.2 s: eight harmonics under a fixed formant-like envelope, its
    /// phase accumulated from the exact f0, with a 30 ms attack.
    static func render(_ note: Note) -> [Float] {
        let sr = Double(sampleRate)
        let weights: [Double] = [0.6, 1, 0.8, 0.45, 0.5, 0.3, 0.15, 0.1]
        var phase = 0.0
        return (0..<Int(1.2 * sr)).map { i in
            let t = Double(i) / sr
            phase += note.f0(at: t) / sr
            var y = 0.0
            for (h, w) in weights.enumerated() { y += w * sin(2 * Double.pi * Double(h + 1) * phase) }
            return Float(0.12 * min(1, t / 0.03) * y)
        }
    }

    /// From 0.4 s (the vibrato at full depth, the note latched) on, every hop's raw estimate
    /// against the f0 at the hop's stamp: hops without one, and the worst error (cents).
    static func follow(_ note: Note) -> (missing: Int, worst: Double) {
        let tracker = PitchTracker(sampleRate: sampleRate)
        var missing = 0, worst = 0.0
        render(note).withUnsafeBufferPointer { buf in
            tracker.process(buf) { t in
                guard t.measuredTime >= 0.4, t.measuredTime <= 1.15 else { return }
                guard let e = t.raw?.frequency else { missing += 1; return }
                let truth = note.f0(at: t.measuredTime)
                worst = max(worst, abs(1200 * log2(e / truth)))
            }
        }
        return (missing, worst)
    }

    /// A D3 with a ±40 cent vibrato: its crests (150.2 Hz) sit on the 150 Hz mains.
    func testVibratoCrestAtTheMainsIsRead() {
        let (missing, worst) = Self.follow(Note(centre: 146.83, depth: 40, rate: 5.5))
        XCTAssertEqual(missing, 0, "hops without a reading at the crests")
        XCTAssertLessThan(worst, 25, "worst error (cents)")
    }

    /// An A2 with a ±60 cent vibrato at 5 Hz, clear of the mains: the estimate swings with
    /// it (flattened, it was up to 70 cents off at the vibrato's turns).
    func testLowVibratoIsNotFlattened() {
        let (missing, worst) = Self.follow(Note(centre: 110, depth: 60, rate: 5))
        XCTAssertEqual(missing, 0, "hops without a reading")
        XCTAssertLessThan(worst, 25, "worst error (cents)")
    }
}
