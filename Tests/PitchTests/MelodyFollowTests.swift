import Analysis
import Foundation
import XCTest

/// Issue 39 item 7: a sung line. Every estimate is stamped with the centre of the audio it
/// measured (no time shift against the f0), and the display follows the melody (a new
/// note, a portamento, a vibrato) while a held note stays steady.
final class MelodyFollowTests: XCTestCase {
    static let sampleRate = 44100

    /// One note: start and length (s), MIDI note, glide into the next, vibrato depth (cents).
    struct SungNote {
        var start: Double, length: Double, midi: Double, legato: Bool, vibrato: Double
    }

    /// A tenor's phrase: detached notes, a portamento of 80 ms, a held note with a 5.5 Hz
    /// vibrato of ±45 cents, a leap of a fifth.
    static let phrase = [
        SungNote(start: 0.10, length: 0.35, midi: 57, legato: false, vibrato: 0),
        SungNote(start: 0.55, length: 0.40, midi: 59, legato: true, vibrato: 0),
        SungNote(start: 0.95, length: 0.90, midi: 62, legato: false, vibrato: 45),
        SungNote(start: 1.95, length: 0.30, midi: 55, legato: true, vibrato: 0),
        SungNote(start: 2.25, length: 0.45, midi: 62, legato: false, vibrato: 30),
    ]

    /// The f0 (Hz, 0 = silent) and amplitude of `phrase` at time `t`.
    static func f0(at t: Double) -> (hz: Double, amp: Double) {
        for (k, n) in phrase.enumerated() where t >= n.start && t < n.start + n.length {
            let x = t - n.start
            var cents = 100 * n.midi
            if n.vibrato > 0 { cents += n.vibrato * min(1, max(0, (x - 0.15) / 0.2)) * sin(2 * Double.pi * 5.5 * x) }
            let glide = 0.08
            if n.legato, k + 1 < phrase.count, x > n.length - glide {
                let w = 0.5 - 0.5 * cos(Double.pi * (x - (n.length - glide)) / glide)
                cents = cents * (1 - w) + 100 * phrase[k + 1].midi * w
            }
            let glided = k > 0 && phrase[k - 1].legato
            var amp = glided ? 1 : min(1, x / 0.04)
            if !n.legato { amp *= min(1, (n.length - x) / 0.05) }
            return (440 * pow(2, (cents / 100 - 69) / 12), amp)
        }
        return (0, 0)
    }

    /// A voice-like tone: eight harmonics under a fixed formant-like envelope, its phase
    /// accumulated from the exact f0.
    static func render() -> [Float] {
        let sr = Double(sampleRate)
        let weights: [Double] = [0.6, 1, 0.8, 0.45, 0.5, 0.3, 0.15, 0.1]
        var phase = 0.0
        return (0..<Int(2.8 * sr)).map { i in
            let (f, a) = f0(at: Double(i) / sr)
            phase += f / sr
            var y = 0.0
            for (h, w) in weights.enumerated() { y += w * sin(2 * Double.pi * Double(h + 1) * phase) }
            return Float(0.12 * a * y)
        }
    }

    /// Share of the voiced hops (the f0 defined 5 ms either side and the note at least 10 %
    /// of its level) whose value, taken `shift` hops later, is within 50 cents of the f0 at
    /// the hop's stamp.
    static func agreement(_ hops: [(time: Double, raw: Double?, shown: Double?)], display: Bool, shift: Int) -> Double {
        var hits = 0, voiced = 0
        for (i, h) in hops.enumerated() {
            let (f, a) = f0(at: h.time)
            guard f > 0, a >= 0.1, f0(at: h.time - 0.005).hz > 0, f0(at: h.time + 0.005).hz > 0 else { continue }
            voiced += 1
            let j = i + shift
            guard j >= 0 && j < hops.count, let v = display ? hops[j].shown : hops[j].raw else { continue }
            if abs(1200 * log2(v / f)) < 50 { hits += 1 }
        }
        return Double(hits) / Double(max(voiced, 1))
    }

    func testRawIsStampedAtItsWindowsCentreAndTheDisplayFollows() {
        let x = Self.render()
        let tracker = PitchTracker(sampleRate: Self.sampleRate)
        var hops: [(time: Double, raw: Double?, shown: Double?)] = []
        x.withUnsafeBufferPointer { buf in
            tracker.process(buf) { t in hops.append((t.measuredTime, t.raw?.frequency, t.display?.frequency)) }
        }
        let raw = Self.agreement(hops, display: false, shift: 0)
        let shown = Self.agreement(hops, display: true, shift: 0)
        XCTAssertGreaterThanOrEqual(raw, 0.97, "raw estimates on the f0")
        XCTAssertGreaterThanOrEqual(shown, 0.92, "the display follows the melody")
        // No time shift: moving the rows by a hop or two either way agrees no better.
        for s in [-2, -1, 1, 2] {
            XCTAssertLessThanOrEqual(Self.agreement(hops, display: false, shift: s), raw + 0.005, "raw better \(s) hops later")
        }
        // The held, vibrato-free part of the first note stays steady.
        let held = hops.filter { $0.time > 0.25 && $0.time < 0.38 }.compactMap(\.shown)
        XCTAssertFalse(held.isEmpty)
        for f in held { XCTAssertEqual(1200 * log2(f / 220), 0, accuracy: 2, "held A3") }
    }
}
