#if canImport(Glibc)
import Glibc
#endif

/// A note of the 12-tone equal-tempered scale, by MIDI number (A4 = 69, C4 = 60).
public struct Note: Hashable, Comparable, Sendable, CustomStringConvertible {
    public var midi: Int

    public init(midi: Int) { self.midi = midi }

    public static let sharpNames = ["C", "C#", "D", "D#", "E", "F", "F#", "G", "G#", "A", "A#", "B"]
    public static let flatNames = ["C", "Db", "D", "Eb", "E", "F", "Gb", "G", "Ab", "A", "Bb", "B"]

    /// Pitch class 0…11 (0 = C).
    public var pitchClass: Int { ((midi % 12) + 12) % 12 }
    /// Scientific-pitch octave (C4 = middle C).
    public var octave: Int { Int((Double(midi) / 12).rounded(.down)) - 1 }

    /// Name with octave, e.g. `A4`, `C#3` (or `Db3` with `flats`).
    public func name(flats: Bool = false) -> String {
        (flats ? Note.flatNames : Note.sharpNames)[pitchClass] + String(octave)
    }

    /// Name without octave, e.g. `C#`.
    public func pitchClassName(flats: Bool = false) -> String {
        (flats ? Note.flatNames : Note.sharpNames)[pitchClass]
    }

    public var description: String { name() }

    /// Frequency in Hz for the reference pitch of A4 (Hz).
    public func frequency(reference: Double = 440) -> Double {
        reference * pow(2, Double(midi - 69) / 12)
    }

    /// Fractional MIDI number of a frequency (Hz) for a reference A4 (Hz).
    public static func midiValue(frequency: Double, reference: Double = 440) -> Double {
        69 + 12 * log2(frequency / reference)
    }

    /// The nearest note to a frequency, and the offset from it in cents (−50…+50).
    public static func nearest(to frequency: Double, reference: Double = 440) -> (note: Note, cents: Double) {
        let m = midiValue(frequency: frequency, reference: reference)
        let r = m.rounded()
        return (Note(midi: Int(r)), (m - r) * 100)
    }

    /// Cents from `target` (Hz) to `frequency` (Hz): positive is sharp.
    public static func cents(_ frequency: Double, from target: Double) -> Double {
        1200 * log2(frequency / target)
    }

    /// Parses `A4`, `C#3`, `Db3`, `e2`, `Bb-1`, also `♯`/`♭`. Returns nil when it is not a note name.
    public init?(name: String) {
        var s = Substring(name.trimmingCharacters())
        guard let first = s.first, let base = "CDEFGAB".firstIndex(of: Character(first.uppercased())) else { return nil }
        let semis = [0, 2, 4, 5, 7, 9, 11]["CDEFGAB".distance(from: "CDEFGAB".startIndex, to: base)]
        s = s.dropFirst()
        var acc = 0
        while let c = s.first, "#♯b♭".contains(c) {
            acc += (c == "#" || c == "♯") ? 1 : -1
            s = s.dropFirst()
        }
        guard let octave = Int(s), (-1...9).contains(octave) else { return nil }
        self.midi = (octave + 1) * 12 + semis + acc
    }

    public static func < (a: Note, b: Note) -> Bool { a.midi < b.midi }
}

extension String {
    /// Without leading and trailing whitespace (the module's one trim; no Foundation).
    func trimmingCharacters() -> String {
        var s = Substring(self)
        while s.first?.isWhitespace == true { s = s.dropFirst() }
        while s.last?.isWhitespace == true { s = s.dropLast() }
        return String(s)
    }
}

/// The pitch of A4 that notes are measured against (Hz). Presets 415 … 444, or any 400–480.
public struct ReferencePitch: Equatable, Sendable {
    public static let presets: [Double] = [415, 416, 430.54, 432, 440, 441, 442, 443, 444]
    public static let range: ClosedRange<Double> = 400...480
    public let hertz: Double

    /// Accepts any value in 400…480 Hz, rounded to 0.1 Hz, or one of the presets exactly.
    public init?(_ hertz: Double) {
        if ReferencePitch.presets.contains(hertz) { self.hertz = hertz; return }
        guard ReferencePitch.range.contains(hertz) else { return nil }
        self.hertz = (hertz * 10).rounded() / 10
    }

    public static let standard = ReferencePitch(440)!
}
