import Analysis
import Foundation
import XCTest

/// Issue 39 item 7: the display follows a sung line down to a quieter note. A note sung a
/// fifth under the shown one, legato (no gap, no rise in level) and well under the phrase's
/// loudest note, looked to the tail gate like the shown note fading into a lower reading, and
/// the display held the old note for the whole of the new one. None of the old note's own
/// partials is left under the new one: it is a note, not a tail.
final class SungLineTests: XCTestCase {
    static let sampleRate = 44100

    /// Voice-like notes (eight harmonics, phase from the exact f0): each (f0 Hz, amplitude,
    /// seconds), crossfaded over 50 ms into the next (legato: the level does not dip).
    static func render(_ notes: [(f0: Double, amplitude: Double, seconds: Double)]) -> [Float] {
        let sr = Double(sampleRate), fade = 0.05
        let weights: [Double] = [0.6, 1, 0.8, 0.45, 0.5, 0.3, 0.15, 0.1]
        var out = [Float](repeating: 0, count: Int(notes.reduce(0) { $0 + $1.seconds } * sr))
        var start = 0.0
        for (k, note) in notes.enumerated() {
            var phase = 0.0
            let first = Int(start * sr), count = Int((note.seconds + (k + 1 < notes.count ? fade : 0)) * sr)
            for i in 0..<min(count, out.count - first) {
                let t = Double(i) / sr
                phase += note.f0 / sr
                let rise = k == 0 ? min(1, t / 0.03) : min(1, t / fade)
                let fall = k + 1 < notes.count ? min(1, max(0, (note.seconds + fade - t) / fade)) : 1
                var y = 0.0
                for (h, w) in weights.enumerated() { y += w * sin(2 * Double.pi * Double(h + 1) * phase) }
                out[first + i] += Float(note.amplitude * rise * fall * y)
            }
            start += note.seconds
        }
        return out
    }

    /// The note names shown on the hops whose audio lies in `from...to` (s).
    static func shown(_ signal: [Float], from: Double, to: Double) -> [String?] {
        let tracker = PitchTracker(sampleRate: sampleRate)
        var names: [String?] = []
        signal.withUnsafeBufferPointer { buf in
            tracker.process(buf) { t in
                guard t.measuredTime >= from, t.measuredTime <= to else { return }
                names.append(t.display?.note.name())
            }
        }
        return names
    }

    /// C5 loud, then D4 8.5 dB down, then G3 as quiet as the D4: each is shown.
    func testQuieterNoteAFifthDownIsShown() {
        let line = Self.render([(523.25, 0.12, 0.5), (293.66, 0.045, 0.6), (196.0, 0.045, 0.6)])
        let d4 = Self.shown(line, from: 0.75, to: 1.05)
        XCTAssertGreaterThan(d4.filter { $0 == "D4" }.count, d4.count * 9 / 10, "the D4 is shown: \(d4)")
        let g3 = Self.shown(line, from: 1.25, to: 1.65)
        XCTAssertGreaterThan(g3.filter { $0 == "G3" }.count, g3.count * 9 / 10, "the G3 is shown: \(g3)")
    }
}
