#if canImport(Glibc)
import Glibc
#endif

extension TuningPreset {
    /// The note the player is trying to reach (seed 004, sections 3.6 and 10): the preset
    /// note nearest in pitch (log frequency) to `frequency` (Hz), or the nearest equal-tempered
    /// semitone for the chromatic preset. `reference` is the pitch of A4 in Hz.
    ///
    /// Example: in `guitar-standard`, 110 Hz targets A2 (E2 at 82.4 Hz is 500 cents away).
    /// Does not allocate.
    public func target(for frequency: Double, reference: Double = 440) -> Note {
        let m = Note.midiValue(frequency: frequency, reference: reference)
        if notes.isEmpty { return Note(midi: Int(m.rounded())) }
        var best = notes[0]
        var bestDistance = Double.infinity
        for n in notes {
            let d = abs(Double(n.midi) - m)
            if d < bestDistance { best = n; bestDistance = d }
        }
        return best
    }

    /// Cents from the target note of `frequency` (positive = sharp), with that target.
    public func offset(of frequency: Double, reference: Double = 440) -> (target: Note, cents: Double) {
        let t = target(for: frequency, reference: reference)
        return (t, Note.cents(frequency, from: t.frequency(reference: reference)))
    }
}

extension TuningSystem {
    /// The sounding target of `frequency` (Hz) and the cents from its tempered pitch: the
    /// nearest tempered note for the chromatic preset, else the preset note nearest in
    /// pitch. The one target function shared by `tune`, the tuner views and `tone`.
    public func target(for frequency: Double, preset: TuningPreset, reference: Double = 440) -> (target: Note, cents: Double) {
        if preset.notes.isEmpty {
            let n = nearest(to: frequency, reference: reference)
            return (n.note, n.cents)
        }
        let t = preset.target(for: frequency, reference: reference)
        return (t, Note.cents(frequency, from: self.frequency(of: t, reference: reference)))
    }
}
