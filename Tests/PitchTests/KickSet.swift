import Analysis
import Foundation
import XCTest

/// A generated set of in-tune bass lines under kicks (issue 39 item 6: "no confident wrong
/// reading"). Every bass note is exactly in tune (A4 = 440 Hz), so any reading the tuner
/// shows confidently (not unsure, not `---`) that lies more than `wrongCents` from every note
/// of the mix is a confident wrong reading.
enum KickSet {
    static let sampleRate = 44100
    /// Cents from the nearest note of the mix beyond which a confident reading is wrong.
    static let wrongCents = 5.0

    static func hz(_ midi: Int) -> Double { 440 * pow(2, Double(midi - 69) / 12) }

    /// How the bass note sounds.
    enum Timbre: CaseIterable {
        /// A sine with three weaker partials, held at a constant level.
        case partials
        /// A sawtooth of eight partials, slowly decaying.
        case saw
        /// A plucked string: ten partials, the upper ones dying faster.
        case pluck

        func sample(_ f: Double, _ t: Double) -> Double {
            let w = 2 * Double.pi * f * t
            switch self {
            case .partials:
                return sin(w) + 0.5 * sin(2 * w) + 0.3 * sin(3 * w) + 0.2 * sin(4 * w)
            case .saw:
                var y = 0.0
                for k in 1...8 { y += sin(Double(k) * w) / Double(k) }
                return exp(-t / 1.5) * y
            case .pluck:
                var y = 0.0
                for k in 1...10 { y += exp(-t * (1.5 + 0.8 * Double(k))) * sin(Double(k) * w) / Double(k) }
                return y
            }
        }
    }

    /// A kick: a sine falling from `top` to `bottom` Hz with a click at its start, decaying
    /// with `decay` seconds; peak `gain` dB relative to the bass's peak.
    struct Kick {
        var time: Double
        var gain: Double
        var bottom = 48.0, top = 160.0, decay = 0.15
    }

    /// A note of the bass line: MIDI number, start and length (s).
    struct Note {
        var midi: Int
        var start: Double
        var length: Double
    }

    struct Mix {
        var name: String
        var notes: [Note]
        var kicks: [Kick]
        var timbre: Timbre
        var pad: [Int] = []
        var length: Double

        /// Every pitch of the mix (Hz): the bass notes and the pad's.
        var pitches: [Double] { (notes.map(\.midi) + pad).map(KickSet.hz) }

        func render() -> [Float] {
            let sr = Double(KickSet.sampleRate)
            var x = [Double](repeating: 0, count: Int(length * sr))
            let bassPeak = 0.3
            for n in notes {
                let f = KickSet.hz(n.midi)
                let i0 = Int(n.start * sr), count = Int(n.length * sr)
                for i in 0..<count where i0 + i < x.count {
                    let t = Double(i) / sr
                    // 4 ms attack, 15 ms release.
                    let env = min(t / 0.004, 1) * min((n.length - t) / 0.015, 1)
                    x[i0 + i] += bassPeak * 0.6 * env * timbre.sample(f, t)
                }
            }
            for k in kicks {
                let amp = bassPeak * pow(10, k.gain / 20)
                let i0 = Int(k.time * sr)
                var noise: UInt32 = 12345
                for i in 0..<Int(min(4 * k.decay, 0.6) * sr) where i0 + i < x.count {
                    let t = Double(i) / sr
                    let sweep = 0.03
                    let phase = k.bottom * t + (k.top - k.bottom) * sweep * (1 - exp(-t / sweep))
                    noise = noise &* 1_664_525 &+ 1_013_904_223
                    let click = (Double(noise >> 8) / Double(1 << 24) - 0.5) * exp(-t / 0.002)
                    x[i0 + i] += amp * (sin(2 * Double.pi * phase) * exp(-t / k.decay) + 0.8 * click)
                }
            }
            for m in pad {
                let f = KickSet.hz(m)
                for i in x.indices {
                    let t = Double(i) / sr
                    var y = 0.0
                    for k in 1...5 { y += sin(2 * Double.pi * Double(k) * f * t) / Double(k) }
                    x[i] += 0.03 * min(t / 0.3, 1) * y
                }
            }
            return x.map { Float($0) }
        }
    }

    /// Per-hop counts of what the tuner showed.
    struct Tally: CustomStringConvertible {
        var hops = 0
        /// Hops inside a bass note (from 0.1 s after its start to its end).
        var noteHops = 0
        /// Of those, the hops showing a confident reading.
        var confidentInNotes = 0
        /// Confident readings anywhere, and those more than `wrongCents` from every pitch.
        var confident = 0
        var wrong = 0
        var examples: [String] = []

        var description: String {
            "wrong \(wrong)/\(confident) confident, coverage \(confidentInNotes)/\(noteHops)"
                + (examples.isEmpty ? "" : " e.g. " + examples.prefix(6).joined(separator: "; "))
        }

        static func + (a: Tally, b: Tally) -> Tally {
            var t = a
            t.hops += b.hops; t.noteHops += b.noteHops; t.confidentInNotes += b.confidentInNotes
            t.confident += b.confident; t.wrong += b.wrong; t.examples += b.examples
            return t
        }
    }

    /// Runs a tracker over `mix` and counts its confident readings.
    static func measure(_ mix: Mix) -> Tally {
        let hops = track(mix.render(), sampleRate: sampleRate)
        let pitches = mix.pitches
        var tally = Tally()
        // The tracker's readings describe the window ending at the hop; its centre is
        // 1024 samples earlier.
        let lag = 1024.0 / Double(sampleRate)
        // Examples: the first hop of each run of wrong readings.
        var run = 0
        for h in hops {
            tally.hops += 1
            let t = h.time - lag
            let inNote = mix.notes.contains { t >= $0.start + 0.1 && t < $0.start + $0.length }
            if inNote { tally.noteHops += 1 }
            guard let r = h.display, !r.unsure else { run = 0; continue }
            tally.confident += 1
            if inNote { tally.confidentInNotes += 1 }
            let off = pitches.map { centsBetween(r.frequency, $0) }.min { abs($0) < abs($1) }!
            guard abs(off) > wrongCents else { run = 0; continue }
            tally.wrong += 1
            run += 1
            if run == 1 {
                tally.examples.append(
                    "\(mix.name) \(r.note.name()) \(String(format: "%+.1f", off))¢ at \(String(format: "%.2f", t)) s")
            }
        }
        return tally
    }

    /// The bass notes of the set: E1 to C3.
    static let line = [28, 31, 33, 36, 38, 41, 43, 45, 48]
    /// Kick levels relative to the bass (dB).
    static let gains = [-12.0, -6, 0, 6]

    /// Sustained notes (1.2 s) with a kick at the onset and two landing mid-note; the
    /// kick's level, tail pitch and decay vary from note to note.
    static func sustained(_ timbre: Timbre, notes: [Int], kicks: Bool = true) -> Mix {
        var ns: [Note] = [], ks: [Kick] = []
        for (i, m) in notes.enumerated() {
            let start = 0.1 + Double(i) * 1.3
            ns.append(Note(midi: m, start: start, length: 1.2))
            guard kicks else { continue }
            let offsets = [0.0, 0.25 + 0.05 * Double(i % 3), 0.65 + 0.07 * Double(i % 4)]
            for (j, o) in offsets.enumerated() {
                ks.append(
                    Kick(
                        time: start + o, gain: gains[(i + j) % gains.count], bottom: 42 + 4 * Double((i + j) % 4),
                        decay: [0.1, 0.18, 0.3][(i + 2 * j) % 3]))
            }
        }
        return Mix(name: "sustained \(timbre)", notes: ns, kicks: ks, timbre: timbre, length: 0.2 + 1.3 * Double(notes.count))
    }

    /// Detached eighth notes (0.22 s every 0.25 s) with a kick on every beat, landing at a
    /// note's onset or 60 or 120 ms into it.
    static func detached(_ timbre: Timbre, notes: [Int], kicks: Bool = true, pad: [Int] = []) -> Mix {
        var mix = short(timbre, notes: notes, length: 0.22, offsets: kicks ? [0, 0.06, 0.12] : [], gains: gains, pad: pad)
        mix.name = "detached \(timbre)"
        return mix
    }

    /// Short notes of `length` s (every `length` + 30 ms, four per pitch) with a kick on
    /// every other note, landing `offsets` s into it in turn, at `gains` in turn; the kick's
    /// decay alternates between 0.12 and 0.2 s.
    static func short(
        _ timbre: Timbre, notes: [Int], length: Double, offsets: [Double], gains: [Double], pad: [Int] = []
    ) -> Mix {
        var ns: [Note] = [], ks: [Kick] = []
        var t = 0.1
        for (i, m) in notes.enumerated() {
            for e in 0..<4 {
                ns.append(Note(midi: m, start: t, length: length))
                if !offsets.isEmpty, e % 2 == 0 {
                    let offset = offsets[(i + e / 2) % offsets.count]
                    ks.append(Kick(time: t + offset, gain: gains[(i + e) % gains.count], decay: [0.12, 0.2][e / 2]))
                }
                t += length + 0.03
            }
        }
        return Mix(name: "short \(timbre) \(Int(length * 1000)) ms", notes: ns, kicks: ks, timbre: timbre, pad: pad, length: t + 0.2)
    }
}
