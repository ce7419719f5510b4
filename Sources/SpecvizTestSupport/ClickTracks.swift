#if canImport(Glibc)
import Glibc
#endif

/// Synthetic rhythm signals for tempo tests: clicks, drum patterns and beat-less
/// material, all deterministic (a fixed-seed LCG for the noise).
public enum ClickTracks {
    /// A drum voice: a pitched kick (sine sweep 120 → 50 Hz, 150 ms decay) or a hi-hat
    /// (white noise, 40 ms decay).
    public enum Voice: Sendable { case kick, hat, click }

    /// One hit of `voice` (samples, peak ≈ `gain`).
    public static func hit(_ voice: Voice, sampleRate: Int, gain: Float = 0.8) -> [Float] {
        let sr = Double(sampleRate)
        var rng = LCG(seed: 12345)
        switch voice {
        case .kick:
            let n = Int(0.25 * sr)
            var phase = 0.0
            return (0..<n).map { i in
                let t = Double(i) / sr
                let f = 50 + 70 * exp(-t / 0.03)
                phase += 2 * Double.pi * f / sr
                return gain * Float(sin(phase) * exp(-t / 0.15))
            }
        case .hat:
            let n = Int(0.08 * sr)
            return (0..<n).map { i in gain * 0.5 * rng.nextSigned() * Float(exp(-Double(i) / sr / 0.02)) }
        case .click:
            let n = Int(0.02 * sr)
            return (0..<n).map { i in gain * rng.nextSigned() * Float(exp(-Double(i) / sr / 0.004)) }
        }
    }

    /// A pattern repeated for `seconds`: `hits` lists (beat position within the bar,
    /// voice); `beatsPerBar` beats per bar at `bpm`. `leadIn` seconds of silence first.
    public static func pattern(
        bpm: Double, beatsPerBar: Double, hits: [(Double, Voice)],
        seconds: Double, sampleRate: Int, leadIn: Double = 0
    ) -> [Float] {
        let total = Int(seconds * Double(sampleRate))
        var out = [Float](repeating: 0, count: total)
        let beat = 60 / bpm
        let samples: [Voice: [Float]] = [
            .kick: hit(.kick, sampleRate: sampleRate),
            .hat: hit(.hat, sampleRate: sampleRate),
            .click: hit(.click, sampleRate: sampleRate),
        ]
        var bar = 0
        while true {
            let barStart = leadIn + Double(bar) * beatsPerBar * beat
            if barStart >= seconds { break }
            for (position, voice) in hits {
                let start = Int(((barStart + position * beat) * Double(sampleRate)).rounded())
                guard start < total, let s = samples[voice] else { continue }
                for (k, v) in s.enumerated() where start + k < total { out[start + k] += v }
            }
            bar += 1
        }
        return out
    }

    /// A plain click on every beat.
    public static func clicks(bpm: Double, seconds: Double, sampleRate: Int, leadIn: Double = 0) -> [Float] {
        pattern(
            bpm: bpm, beatsPerBar: 1, hits: [(0, .click)], seconds: seconds,
            sampleRate: sampleRate, leadIn: leadIn)
    }

    /// Kick on every beat, hi-hat on every off-beat eighth (house / four-on-the-floor).
    public static func fourOnTheFloor(bpm: Double, seconds: Double, sampleRate: Int) -> [Float] {
        pattern(
            bpm: bpm, beatsPerBar: 4,
            hits: [
                (0, .kick), (1, .kick), (2, .kick), (3, .kick),
                (0.5, .hat), (1.5, .hat), (2.5, .hat), (3.5, .hat),
            ],
            seconds: seconds, sampleRate: sampleRate)
    }

    /// The syncopated pattern of seed 002 step 20 ("Missing", 123 BPM): kicks on beats
    /// 1, 2.5 and 4 of each bar, a hi-hat on every eighth note.
    public static func syncopated(bpm: Double = 123, seconds: Double, sampleRate: Int) -> [Float] {
        pattern(
            bpm: bpm, beatsPerBar: 4,
            hits: [(0, .kick), (1.5, .kick), (3, .kick)] + (0..<8).map { (Double($0) * 0.5, Voice.hat) },
            seconds: seconds, sampleRate: sampleRate)
    }

    /// Drum & bass: a kick on 1 and the "and" of 3, a loud snare (a click) on 2 and 4, quiet
    /// hi-hats on the eighths. Folded to half its tempo, its grid holds the snares and the
    /// kicks fall half-way between its beats.
    public static func drumAndBass(bpm: Double, seconds: Double, sampleRate: Int) -> [Float] {
        let drums = pattern(
            bpm: bpm, beatsPerBar: 4, hits: [(0, .kick), (2.5, .kick), (1, .click), (3, .click)],
            seconds: seconds, sampleRate: sampleRate)
        let hats = pattern(
            bpm: bpm, beatsPerBar: 4, hits: (0..<8).map { (Double($0) * 0.5, Voice.hat) },
            seconds: seconds, sampleRate: sampleRate)
        var out = drums
        for i in out.indices { out[i] += 0.1 * hats[i] }
        return out
    }

    /// Pitched notes without drums: each entry (beat position in the bar, frequencies,
    /// gain) sounds every bar as a plucked/piano-like tone (3 harmonics, 5 ms attack,
    /// 0.35 s decay). `leadIn` seconds of silence first.
    public static func notes(
        bpm: Double, beatsPerBar: Double, notes: [(Double, [Double], Float)],
        seconds: Double, sampleRate: Int, leadIn: Double = 0
    ) -> [Float] {
        let sr = Double(sampleRate)
        let total = Int(seconds * sr)
        var out = [Float](repeating: 0, count: total)
        let beat = 60 / bpm
        let length = Int(1.2 * sr)
        var bar = 0
        while true {
            let barStart = leadIn + Double(bar) * beatsPerBar * beat
            if barStart >= seconds { break }
            for (position, frequencies, gain) in notes {
                let start = Int(((barStart + position * beat) * sr).rounded())
                guard start < total else { continue }
                for i in 0..<min(length, total - start) {
                    let t = Double(i) / sr
                    let envelope = min(1, t / 0.005) * exp(-t / 0.35)
                    var v = 0.0
                    for f in frequencies {
                        for h in 1...3 { v += sin(2 * Double.pi * f * Double(h) * t) / Double(h) }
                    }
                    out[start + i] += gain * Float(envelope * v / Double(frequencies.count))
                }
            }
            bar += 1
        }
        return out
    }

    /// A 3/4 waltz without drums: a bass note on beat 1, a chord on beats 2 and 3
    /// ("oom-pah-pah"), the bass alternating between two roots bar by bar; `bass` and `chords`
    /// are their gains.
    public static func drumlessWaltz(
        bpm: Double, seconds: Double, sampleRate: Int, bass: Float = 0.6, chords: Float = 0.3
    ) -> [Float] {
        let barA = notes(
            bpm: bpm, beatsPerBar: 6,
            notes: [
                (0, [98], bass), (1, [392, 494, 587], chords), (2, [392, 494, 587], chords),
                (3, [147], bass), (4, [370, 440, 523], chords), (5, [370, 440, 523], chords),
            ],
            seconds: seconds, sampleRate: sampleRate)
        return barA
    }

    /// A bossa nova groove: bass on 1 and 3 with pick-ups on the "and" of 2 and 4, the
    /// 3-2 bossa clave on a rim click over two bars, a soft shaker on every eighth.
    public static func bossa(bpm: Double, seconds: Double, sampleRate: Int) -> [Float] {
        let shaker = pattern(
            bpm: bpm, beatsPerBar: 8, hits: (0..<16).map { (Double($0) * 0.5, Voice.hat) },
            seconds: seconds, sampleRate: sampleRate)
        // Clave (in eighths of a two-bar cycle): 0, 3, 6, 10, 12.
        let clave = pattern(
            bpm: bpm, beatsPerBar: 8, hits: [0, 3, 6, 10, 12].map { (Double($0) * 0.5, Voice.click) },
            seconds: seconds, sampleRate: sampleRate)
        let bass = notes(
            bpm: bpm, beatsPerBar: 4, notes: [(0, [82.4], 0.7), (1.5, [82.4], 0.5), (2, [123.5], 0.7), (3.5, [123.5], 0.5)],
            seconds: seconds, sampleRate: sampleRate)
        var out = bass
        for i in out.indices { out[i] += 0.3 * shaker[i] + 0.5 * clave[i] }
        return out
    }

    /// A slow ballad: kick on 1 and 3, a soft snare-like noise on 2 and 4, quiet hats on
    /// the eighths, and a chord on every beat.
    public static func ballad(bpm: Double, seconds: Double, sampleRate: Int) -> [Float] {
        let drums = pattern(
            bpm: bpm, beatsPerBar: 4,
            hits: [(0, .kick), (2, .kick), (1, .click), (3, .click)],
            seconds: seconds, sampleRate: sampleRate)
        let hats = pattern(
            bpm: bpm, beatsPerBar: 4, hits: (0..<8).map { (Double($0) * 0.5, Voice.hat) },
            seconds: seconds, sampleRate: sampleRate)
        let chords = notes(
            bpm: bpm, beatsPerBar: 4, notes: (0..<4).map { (Double($0), [262, 330, 392], Float(0.25)) },
            seconds: seconds, sampleRate: sampleRate)
        var out = drums
        for i in out.indices { out[i] += 0.25 * hats[i] + chords[i] }
        return out
    }

    /// A reggae one-drop: kick and rim (a click) on beat 3 only, a soft hi-hat on every eighth,
    /// the bass on every beat, the guitar skank (a high chord stab) on 2 and 4 and an organ
    /// bubble on every "and". Everything falls on the eighths and nothing between them: shown
    /// at twice `bpm`, its beats are the eighths, the low band on alternate ones.
    public static func oneDrop(bpm: Double, seconds: Double, sampleRate: Int) -> [Float] {
        let drums = pattern(bpm: bpm, beatsPerBar: 4, hits: [(2, .kick), (2, .click)], seconds: seconds, sampleRate: sampleRate)
        let hats = pattern(
            bpm: bpm, beatsPerBar: 4, hits: (0..<8).map { (Double($0) * 0.5, Voice.hat) },
            seconds: seconds, sampleRate: sampleRate)
        let bass = notes(
            bpm: bpm, beatsPerBar: 4, notes: [(0, [55], 0.3), (1, [82.4], 0.3), (2, [55], 0.3), (3, [82.4], 0.3)],
            seconds: seconds, sampleRate: sampleRate)
        let skank = notes(
            bpm: bpm, beatsPerBar: 4, notes: [(1, [523, 659, 784], 0.3), (3, [523, 659, 784], 0.3)],
            seconds: seconds, sampleRate: sampleRate)
        let organ = notes(
            bpm: bpm, beatsPerBar: 4, notes: [0.5, 1.5, 2.5, 3.5].map { ($0, [262, 330, 392], Float(0.4)) },
            seconds: seconds, sampleRate: sampleRate)
        var out = drums
        for i in out.indices { out[i] += 0.2 * hats[i] + bass[i] + skank[i] + organ[i] }
        return out
    }

    /// Funk whose kicks and bass fall as often between the beats as on them (issue 37: funk
    /// was on the off-beat for a whole track): kicks on 1, the "and" of 2 and the "and" of 3,
    /// a bass and a clavinet stab on every off-beat eighth, a snare (a click) on 2 and 4 and a
    /// hi-hat on every beat.
    public static func syncopatedFunk(bpm: Double, seconds: Double, sampleRate: Int) -> [Float] {
        let kicks = pattern(bpm: bpm, beatsPerBar: 4, hits: [(0, .kick), (1.5, .kick), (2.5, .kick)], seconds: seconds, sampleRate: sampleRate)
        let top = pattern(
            bpm: bpm, beatsPerBar: 4, hits: [(1, .click), (3, .click)] + (0..<4).map { (Double($0), Voice.hat) },
            seconds: seconds, sampleRate: sampleRate)
        let offBeats = (0..<4).map { (Double($0) + 0.5, [55.0, 440, 554, 659], Float(0.5)) }
        let stabs = notes(bpm: bpm, beatsPerBar: 4, notes: offBeats, seconds: seconds, sampleRate: sampleRate)
        var x = kicks
        for i in x.indices { x[i] += 0.6 * top[i] + 0.3 * stabs[i] }
        return x
    }

    /// Two-step (UK garage, and drum & bass at its faster tempi): kicks on 1, the "and" of 2 and
    /// the "and" of 3, so two of every three fall between the beats; a clap (a click) on 2 and 4;
    /// hats on the "and"s and on 3; a bass note (55 Hz) under the first two kicks. The low band
    /// is stronger half-way between the beats; only the claps' backbeat marks the beat.
    public static func twoStep(bpm: Double, seconds: Double, sampleRate: Int) -> [Float] {
        let kicks = pattern(bpm: bpm, beatsPerBar: 4, hits: [(0, .kick), (1.5, .kick), (2.5, .kick)], seconds: seconds, sampleRate: sampleRate)
        let claps = pattern(bpm: bpm, beatsPerBar: 4, hits: [(1, .click), (3, .click)], seconds: seconds, sampleRate: sampleRate)
        let hats = pattern(
            bpm: bpm, beatsPerBar: 4, hits: [0.5, 1.5, 2, 2.5, 3.5].map { ($0, Voice.hat) }, seconds: seconds, sampleRate: sampleRate)
        let bass = notes(bpm: bpm, beatsPerBar: 4, notes: [(0, [55], 0.5), (1.5, [55], 0.5)], seconds: seconds, sampleRate: sampleRate)
        var x = kicks
        for i in x.indices { x[i] += 0.6 * claps[i] + 0.3 * hats[i] + bass[i] }
        return x
    }

    /// House with the hi-hats mixed far above the kick and a held bass on every off-beat
    /// (issue 37's held-out loss): a kick on every beat, a clap (a click) on 2 and 4, and
    /// half-way between the beats a hi-hat ~12 dB over the kick (RMS) and a synth-bass note (55 Hz,
    /// four harmonics, 10 ms attack, held for 0.4 beat) that carries more energy below
    /// 200 Hz than the kick. Everything but the kick and the clap falls on the off-beats.
    public static func loudHatHouse(bpm: Double, seconds: Double, sampleRate: Int) -> [Float] {
        let claps = pattern(
            bpm: bpm, beatsPerBar: 4, hits: [(1, .click), (3, .click)], seconds: seconds, sampleRate: sampleRate)
        // A cymbal has next to nothing below 200 Hz: the noise high-passed (first difference).
        var hats = pattern(
            bpm: bpm, beatsPerBar: 1, hits: [(0.5, .hat)], seconds: seconds, sampleRate: sampleRate)
        for i in stride(from: hats.count - 1, to: 0, by: -1) { hats[i] -= hats[i - 1] }
        let sr = Double(sampleRate), beat = 60 / bpm
        let held = 0.4 * beat
        var out = [Float](repeating: 0, count: hats.count)
        // A drum machine's kick: a sine whose pitch drops from ~200 to 50 Hz in a few tens of
        // milliseconds, 80 ms decay.
        var kick = [Float](repeating: 0, count: Int(0.3 * sr))
        var phase = 0.0
        for i in kick.indices {
            let t = Double(i) / sr
            phase += 2 * Double.pi * (50 + 150 * exp(-t / 0.015)) / sr
            kick[i] = Float(sin(phase) * exp(-t / 0.08))
        }
        var start = 0.0
        while start < seconds {
            let first = Int((start * sr).rounded())
            for i in kick.indices where first + i < out.count { out[first + i] += 0.4 * kick[i] }
            start += beat
        }
        start = 0.5 * beat
        while start < seconds {
            let first = Int((start * sr).rounded())
            for i in 0..<Int((held + 0.03) * sr) where first + i < out.count {
                let t = Double(i) / sr
                let envelope = min(1, t / 0.01) * (t < held ? 1 : exp(-(t - held) / 0.01))
                var v = 0.0
                for h in 1...4 { v += sin(2 * Double.pi * 55 * Double(h) * t) / Double(h) }
                out[first + i] += Float(0.6 * envelope * v)
            }
            start += beat
        }
        var peak: Float = 0
        for i in out.indices {
            out[i] += 0.75 * claps[i] + 3.5 * hats[i]
            peak = max(peak, abs(out[i]))
        }
        if peak > 0 { for i in out.indices { out[i] *= 0.8 / peak } }
        return out
    }

    /// A sustained chord with no beat: A3, C♯4, E4, each played by two voices detuned
    /// by ±4 cents with a gentle 5.5 Hz vibrato (±0.15 %), 4 harmonics, 0.5 s attack —
    /// a string-ensemble or organ-like pad, as in the corpus's beat-less tracks.
    public static func sustainedChord(seconds: Double, sampleRate: Int, gain: Float = 0.3) -> [Float] {
        let sr = Double(sampleRate)
        let notes = [220.0, 277.18, 329.63]
        let detune = [pow(2, -4.0 / 1200), pow(2, 4.0 / 1200)]
        var phases = [Double](repeating: 0, count: notes.count * detune.count)
        var out = [Float](repeating: 0, count: Int(seconds * sr))
        for i in out.indices {
            let t = Double(i) / sr
            var v = 0.0
            for (n, f) in notes.enumerated() {
                for (d, ratio) in detune.enumerated() {
                    let k = n * detune.count + d
                    let vibrato = 1 + 0.0015 * sin(2 * Double.pi * 5.5 * t + Double(k))
                    phases[k] += 2 * Double.pi * f * ratio * vibrato / sr
                    for h in 1...4 { v += sin(Double(h) * phases[k]) / Double(h * h) }
                }
            }
            out[i] = gain * Float(v / 8 * min(1, t / 0.5))
        }
        return out
    }

    /// An organ-like held chord (A3, C♯4, E4; 6 harmonics each) whose level swells and
    /// fades at `rate` Hz (tremolo of the given depth, 0…1): the same partials rise and
    /// fall at a tempo-like rate, with no new note and no attack. With `restruck` the chord
    /// is instead played again every 1/`rate` s (5 ms attack, 0.25 s decay): new attacks at
    /// the same rate.
    public static func modulatedChord(
        seconds: Double, sampleRate: Int, rate: Double, depth: Double = 0.8, restruck: Bool = false
    ) -> [Float] {
        let sr = Double(sampleRate)
        let notes = [220.0, 277.18, 329.63]
        let period = 1 / rate
        var out = [Float](repeating: 0, count: Int(seconds * sr))
        for i in out.indices {
            let t = Double(i) / sr
            var v = 0.0
            for f in notes {
                for h in 1...6 { v += sin(2 * Double.pi * f * Double(h) * t + Double(h)) / Double(h) }
            }
            let level: Double
            if restruck {
                let s = t.truncatingRemainder(dividingBy: period)
                level = min(1, s / 0.005) * exp(-s / 0.25)
            } else {
                level = min(1, t / 0.5) * (1 - depth * (0.5 - 0.5 * cos(2 * Double.pi * rate * t)))
            }
            out[i] = Float(0.1 * level * v)
        }
        return out
    }

    /// Deterministic uniform noise (numerical recipes LCG).
    struct LCG {
        var state: UInt32
        init(seed: UInt32) { state = seed }
        mutating func nextSigned() -> Float {
            state = state &* 1_664_525 &+ 1_013_904_223
            return Float(state >> 8) / Float(1 << 23) - 1
        }
    }
}
