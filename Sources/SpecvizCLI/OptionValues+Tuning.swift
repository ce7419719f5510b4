import ArgumentParser
import Foundation
import Tuning

// The tuning-system options' values (issue 19, parsed once since issue 38): the same parse
// for `--transpose`, `--temperament`, `--tonic`, `--stretch`, `--offsets` and their config
// keys.

/// `--transpose`: written = sounding + `semitones` (Bb, Eb, F, A, G, D, C or −24…24).
struct Transposition: OptionValue, Equatable {
    static let noun = "transposition"
    var semitones: Int
    init(parsing text: String) throws {
        guard let n = TuningSystem.transposition(text) else {
            throw ValidationError("--transpose '\(text)': use Bb, Eb, F, A, G, D, C or semitones −24…24")
        }
        semitones = n
    }
}

/// `--tonic`: the temperament's tonic as a pitch class (C = 0).
struct Tonic: OptionValue, Equatable {
    static let noun = "tonic"
    var pitchClass: Int
    init(parsing text: String) throws {
        guard let pc = TuningSystem.tonic(text) else { throw ValidationError("--tonic '\(text)': not a note name (C, F#, Eb …)") }
        pitchClass = pc
    }
}

extension TuningSystem.Stretch: OptionValue {
    static let noun = "stretch"
    init(parsing text: String) throws {
        guard let st = TuningSystem.Stretch(parsing: text) else {
            throw ValidationError("--stretch '\(text)': use piano or cents per octave −50…50")
        }
        self = st
    }
}

/// `--offsets "E2:-2,B3:+1.5"`: cents (−50…50) added to single notes, by MIDI number.
struct NoteOffsets: OptionValue, Equatable {
    static let noun = "offsets"
    var cents: [Int: Double]
    init(parsing text: String) throws {
        guard let o = TuningSystem.offsets(parsing: text) else {
            throw ValidationError("--offsets '\(text)': use NOTE:CENTS pairs like E2:-2,B3:+1.5 (−50…50 cents)")
        }
        cents = o
    }
}

extension Temperament: OptionValue {
    static let noun = "temperament"
    /// The largest Scala file read (bytes): a 12-note scale takes a few hundred.
    static let maxScalaBytes = 1 << 20

    /// A built-in name, or a Scala `FILE.scl` (12 notes, 2/1 octave), read here.
    init(parsing text: String) throws {
        if let t = Temperament.named(text) {
            self = t
        } else if text.lowercased().hasSuffix(".scl") {
            let data = try InputChecks.readSmallFile(text, limit: Self.maxScalaBytes, what: "--temperament")
            guard let scala = String(data: data, encoding: .utf8) ?? String(data: data, encoding: .isoLatin1) else {
                throw ValidationError("--temperament \(text): not text")
            }
            do { self = try Temperament.parseScala(scala, file: text) } catch {
                throw ValidationError("--temperament \(error.description)")
            }
        } else {
            let names = Temperament.builtIn.map(\.id).joined(separator: ", ")
            throw ValidationError("--temperament '\(text)': use \(names) or a FILE.scl")
        }
    }
}
