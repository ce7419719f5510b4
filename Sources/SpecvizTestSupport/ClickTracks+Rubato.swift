#if canImport(Glibc)
import Glibc
#endif

// Drumless material for the pulse decision (issue 37 item 2): a played line whose tempo
// moves, and a held chord whose voices beat against each other.
extension ClickTracks {
    /// A piano-like broken-chord line (a plucked note on every beat, a softer one half way
    /// to the next) whose tempo rises linearly from `fromBPM` to `toBPM` over `seconds`:
    /// an accelerando, the extreme of rubato (the tempo never holds). Four chords, one a
    /// bar. Returns the samples (peak 0.5) and the beat times (s).
    public static func accelerando(
        fromBPM: Double, toBPM: Double, seconds: Double, sampleRate: Int
    ) -> (samples: [Float], beats: [Double]) {
        var beats: [Double] = []
        var t = 0.0
        while t < seconds {
            beats.append(t)
            t += 60 / (fromBPM + (toBPM - fromBPM) * t / seconds)
        }
        let chords: [[Double]] = [[261.63, 392.0], [220.0, 329.63], [174.61, 261.63], [196.0, 293.66]]
        var out = [Float](repeating: 0, count: Int(seconds * Double(sampleRate)))
        for (k, beat) in beats.enumerated() {
            let next = k + 1 < beats.count ? beats[k + 1] : beat + 0.5
            let chord = chords[(k / 4) % chords.count]
            pluck(&out, at: beat, frequency: chord[0], gain: 0.3, sampleRate: sampleRate)
            pluck(&out, at: (beat + next) / 2, frequency: chord[1], gain: 0.18, sampleRate: sampleRate)
        }
        let peak = out.reduce(0) { max($0, abs($1)) }
        if peak > 0 { for i in out.indices { out[i] *= 0.5 / peak } }
        return (out, beats)
    }

    /// Adds a plucked note (3 ms attack, 0.25 s decay, 5 harmonics) starting at `time` s.
    private static func pluck(_ out: inout [Float], at time: Double, frequency: Double, gain: Double, sampleRate: Int) {
        let sr = Double(sampleRate)
        let start = Int((time * sr).rounded())
        let n = min(out.count - start, Int(0.6 * sr))
        guard start >= 0, n > 0 else { return }
        for i in 0..<n {
            let s = Double(i) / sr
            var v = 0.0
            for h in 1...5 { v += sin(2 * Double.pi * Double(h) * frequency * s) / pow(Double(h), 1.5) }
            out[start + i] += Float(gain * min(1, s / 0.003) * exp(-s / 0.25) * v)
        }
    }

    /// A held C-major triad (C3, E3, G3; 5 harmonics of 1/k each) whose every voice is
    /// doubled by a copy `detune` Hz higher: full-depth beating, the k-th partials at k
    /// times that rate. No note starts after the first instant; there is no beat.
    /// `equalPartials` gives every harmonic the fundamental's level; the sum is clipped to
    /// ±1 (a `gain` of 0.1 with equal partials clips hard at every beating maximum, as a
    /// 16-bit file would).
    public static func beatingChord(
        detune: Double, seconds: Double, sampleRate: Int, gain: Double = 0.05, equalPartials: Bool = false
    ) -> [Float] {
        let sr = Double(sampleRate)
        let notes = [130.81, 164.81, 196.0]
        var out = [Float](repeating: 0, count: Int(seconds * sr))
        for i in out.indices {
            let t = Double(i) / sr
            var v = 0.0
            for f in notes {
                for k in 1...5 {
                    let h = Double(k)
                    let level = equalPartials ? 1 : 1 / h
                    v += (sin(2 * Double.pi * h * f * t) + sin(2 * Double.pi * h * (f + detune) * t)) * level
                }
            }
            out[i] = Float(max(-1, min(1, gain * v)))
        }
        return out
    }

    /// A legato chord line without drums, as strings bow it: a new three-note chord on every
    /// beat (six chords in turn, six harmonics of 1/k each), each swelling in over `attack`
    /// seconds (a raised cosine) while the previous one fades out over the same time, so the
    /// level never dips and no partial starts abruptly. The notes change on a grid; no
    /// onset marks it. `rubato`: each beat's period is 60/bpm × (1 + rubato × sin(2πk/16)), a
    /// tempo that breathes over four bars. Returns the samples (peak 0.5) and the beat times (s).
    public static func bowedLine(
        bpm: Double, seconds: Double, sampleRate: Int, attack: Double = 0.2, rubato: Double = 0
    ) -> (samples: [Float], beats: [Double]) {
        let sr = Double(sampleRate)
        var beats = Array(stride(from: 0.0, to: seconds, by: 60 / bpm))
        if rubato != 0 {
            beats = []
            var time = 0.0
            while time < seconds {
                beats.append(time)
                time += 60 / bpm * (1 + rubato * sin(2 * Double.pi * Double(beats.count - 1) / 16))
            }
        }
        let chords: [[Double]] = [
            [261.63, 329.63, 392.0], [220.0, 261.63, 329.63], [174.61, 220.0, 261.63],
            [196.0, 246.94, 293.66], [164.81, 196.0, 246.94], [174.61, 220.0, 293.66],
        ]
        var out = [Float](repeating: 0, count: Int(seconds * sr))
        for (k, beat) in beats.enumerated() {
            let length = k + 1 < beats.count ? beats[k + 1] - beat : 60 / bpm
            let start = Int((beat * sr).rounded())
            let end = min(out.count, Int(((beat + length + attack) * sr).rounded()))
            guard start < end else { continue }
            let chord = chords[k % chords.count]
            for i in start..<end {
                let s = Double(i) / sr - beat
                var env = 0.5 - 0.5 * cos(Double.pi * min(1, s / attack))
                if s > length { env *= max(0, 1 - (s - length) / attack) }
                var v = 0.0
                for f in chord {
                    for h in 1...6 { v += sin(2 * Double.pi * Double(h) * f * s) / Double(h) }
                }
                out[i] += Float(env * v)
            }
        }
        let peak = out.reduce(0) { max($0, abs($1)) }
        if peak > 0 { for i in out.indices { out[i] *= 0.5 / peak } }
        return (out, beats)
    }

    /// Quiet plucks on every beat under a loud held chord, as a harp or pizzicato under an
    /// orchestra's strings: three voices (G3, B3, D4) with a 5 Hz vibrato of ±10 Hz and a
    /// slow, irregular swell (0.37 and 0.61 Hz) at 0.25 each, and a pluck (880 Hz ring-
    /// modulated by 1320 Hz, decaying at 12/s) 22 dB below them. The chord's vibrato and
    /// swell rule the linear spectral flux; the plucks' attacks show only once each bin is
    /// compressed. `pluck`: the plucks' amplitude (0: the chord alone). Returns the samples
    /// and the beat (pluck) times (s).
    public static func plucksUnderStrings(
        bpm: Double, seconds: Double, sampleRate: Int, pluck: Double = 0.02
    ) -> (samples: [Float], beats: [Double]) {
        let sr = Double(sampleRate), period = 60 / bpm
        let beats = Array(stride(from: 0.0, to: seconds, by: period))
        let voices: [(hz: Double, vibrato: Double, gain: Double)] = [(196, 5.5, 1), (247, 5.1, 0.7), (294, 4.7, 0.6)]
        var out = [Float](repeating: 0, count: Int(seconds * sr))
        for i in out.indices {
            let t = Double(i) / sr
            let swell = 1 + 0.3 * sin(2 * Double.pi * 0.37 * t) + 0.2 * sin(2 * Double.pi * 0.61 * t)
            var chord = 0.0
            for v in voices { chord += v.gain * sin(2 * Double.pi * v.hz * t + 2 * sin(2 * Double.pi * v.vibrato * t)) }
            let s = t.truncatingRemainder(dividingBy: period)
            let plucked = pluck * exp(-12 * s) * sin(2 * Double.pi * 880 * t) * (1 + sin(2 * Double.pi * 1320 * t))
            out[i] = Float(0.25 * swell * chord + plucked)
        }
        return (out, beats)
    }
}
