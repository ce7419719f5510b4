import ArgumentParser
import Foundation
import Tuning

/// `--transpose`, `--temperament` and `--tonic`, shared by `tune` and `tone` (issue 19).
struct TuningSystemOptions: ParsableArguments {
    @Option(
        help: "Show written pitch for a transposing instrument: Bb (+2), Eb (+9), F (+7), A (+3), G (+5), D (−2), C, or N semitones (written = sounding + N).")
    var transpose: String?

    @Option(help: "equal, just, pythagorean, meantone, werckmeister3, kirnberger3, vallotti, young, or a Scala FILE.scl (12 notes, 2/1 octave).")
    var temperament: String?

    @Option(help: "Tonic of the temperament (sounding pitch), e.g. C, G, Eb (default C).")
    var tonic: String?

    @Option(help: "Stretch tuning: piano (the Railsback curve: A0 −30 ¢ … C8 +30 ¢) or cents per octave from A4 (−50…50).")
    var stretch: String?

    @Option(help: "Cents added to single notes, e.g. \"E2:-2,B3:+1.5\" (a sweetened guitar tuning), −50…50 each.")
    var offsets: String?

    /// The largest Scala file read (bytes): a 12-note scale takes a few hundred.
    static let maxScalaBytes = 1 << 20

    /// The tuning system the options describe; `config` fills what the command line leaves out.
    func system(config: Config? = nil) throws -> TuningSystem {
        try TuningSystemOptions.make(
            transpose: transpose ?? config?.transpose,
            temperament: temperament ?? config?.temperament,
            tonic: tonic ?? config?.tonic, stretch: stretch ?? config?.stretch, offsets: offsets ?? config?.offsets)
    }

    static func make(
        transpose: String?, temperament: String?, tonic: String?, stretch: String? = nil,
        offsets: String? = nil
    ) throws -> TuningSystem {
        var s = TuningSystem()
        if let stretch {
            guard let st = TuningSystem.Stretch(parsing: stretch) else {
                throw ValidationError("--stretch '\(stretch)': use piano or cents per octave −50…50")
            }
            s.stretch = st
        }
        if let offsets {
            guard let o = TuningSystem.offsets(parsing: offsets) else {
                throw ValidationError("--offsets '\(offsets)': use NOTE:CENTS pairs like E2:-2,B3:+1.5 (−50…50 cents)")
            }
            s.offsets = o
        }
        if let transpose {
            guard let n = TuningSystem.transposition(transpose) else {
                throw ValidationError("--transpose '\(transpose)': use Bb, Eb, F, A, G, D, C or semitones −24…24")
            }
            s.transpose = n
        }
        if let tonic {
            guard let pc = TuningSystem.tonic(tonic) else { throw ValidationError("--tonic '\(tonic)': not a note name (C, F#, Eb …)") }
            s.tonic = pc
        }
        if let temperament {
            if let t = Temperament.named(temperament) {
                s.temperament = t
            } else if temperament.lowercased().hasSuffix(".scl") {
                let data = try InputChecks.readSmallFile(temperament, limit: Self.maxScalaBytes, what: "--temperament")
                guard let text = String(data: data, encoding: .utf8) ?? String(data: data, encoding: .isoLatin1) else {
                    throw ValidationError("--temperament \(temperament): not text")
                }
                do { s.temperament = try Temperament.parseScala(text, file: temperament) } catch {
                    throw ValidationError("--temperament \(error.description)")
                }
            } else {
                let names = Temperament.builtIn.map(\.id).joined(separator: ", ")
                throw ValidationError("--temperament '\(temperament)': use \(names) or a FILE.scl")
            }
        }
        return s
    }
}
