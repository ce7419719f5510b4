import XCTest

@testable import Analysis

/// `LowBandEnergy`: the energy below 200 Hz in quarter frames, eight samples at a time.
final class LowBandEnergyTests: XCTestCase {
    /// A 55 Hz bass passes, a 2 kHz tone is ~40 dB down (2nd order, a decade above the cutoff:
    /// (200 / 2000)⁴ in energy), and eight samples at a time give the energies of one sample at
    /// a time within rounding, frame after frame (the state carries over).
    func testEightAtATimeMatchesOneAtATimeAndPassesTheLowBand() {
        let rate = 44100, hop = 1024
        var fast = LowBandEnergy(sampleRate: rate), slow = LowBandEnergy(sampleRate: rate)
        var generator = SystemRandomNumberGenerator()
        var bassEnergy: Float = 0, toneEnergy: Float = 0
        for frame in 0..<40 {
            let x: [Float] = (0..<hop).map { i in
                let t = Double(frame * hop + i) / Double(rate)
                let bass = Float(sin(2 * .pi * 55 * t)), tone = Float(sin(2 * .pi * 2000 * t))
                let noise = Float.random(in: -0.1...0.1, using: &generator)
                return frame < 20 ? bass + noise : tone
            }
            var a = [Float](repeating: 0, count: 4), b = a
            x.withUnsafeBufferPointer { p in
                fast.push(p.baseAddress!, count: hop, parts: 4, into: &a)
                slow.pushSerial(p.baseAddress!, count: hop, parts: 4, into: &b)
            }
            // Within 1e-4 of the energy, or of 1 where it is smaller (a unit sine's quarter holds 128).
            for q in 0..<4 { XCTAssertEqual(a[q], b[q], accuracy: 1e-4 * max(b[q], 1), "frame \(frame) quarter \(q)") }
            if frame == 10 { bassEnergy = a.reduce(0, +) }
            if frame == 39 { toneEnergy = a.reduce(0, +) }
        }
        // A unit sine's energy over 1024 samples is 512.
        XCTAssertEqual(bassEnergy, 512, accuracy: 30)
        XCTAssertLessThan(toneEnergy, 512 * 3e-4)
    }
}
