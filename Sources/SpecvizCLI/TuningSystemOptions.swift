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

    /// The tuning system the options describe; `config` fills what the command line leaves out.
    func system(config: Config? = nil) throws -> TuningSystem {
        try TuningSystemOptions.make(
            transpose: transpose ?? config?.transpose,
            temperament: temperament ?? config?.temperament,
            tonic: tonic ?? config?.tonic)
    }

    static func make(transpose: String?, temperament: String?, tonic: String?) throws -> TuningSystem {
        var s = TuningSystem()
        if let transpose {
            guard let n = TuningSystem.transposition(transpose) else {
                throw CLIError("--transpose '\(transpose)': use Bb, Eb, F, A, G, D, C or semitones −24…24")
            }
            s.transpose = n
        }
        if let tonic {
            guard let pc = TuningSystem.tonic(tonic) else { throw CLIError("--tonic '\(tonic)': not a note name (C, F#, Eb …)") }
            s.tonic = pc
        }
        if let temperament {
            if let t = Temperament.named(temperament) {
                s.temperament = t
            } else if temperament.lowercased().hasSuffix(".scl") {
                guard let data = FileManager.default.contents(atPath: temperament),
                    let text = String(data: data, encoding: .utf8) ?? String(data: data, encoding: .isoLatin1)
                else {
                    throw CLIError("--temperament \(temperament): cannot read the file")
                }
                do { s.temperament = try Temperament.parseScala(text, file: temperament) } catch {
                    throw CLIError("--temperament \(error.description)")
                }
            } else {
                let names = Temperament.builtIn.map(\.id).joined(separator: ", ")
                throw CLIError("--temperament '\(temperament)': use \(names) or a FILE.scl")
            }
        }
        return s
    }
}
