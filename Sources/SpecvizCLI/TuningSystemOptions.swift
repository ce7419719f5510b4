import ArgumentParser
import Foundation
import Tuning

/// `--transpose`, `--temperament`, `--tonic`, `--stretch` and `--offsets`, shared by `tune`,
/// `tone`, `render` and `live` (issue 19). Each value is parsed once, where it is read
/// (`OptionValues+Tuning`); `system(config:)` merges them with the config file's keys.
struct TuningSystemOptions: ParsableArguments {
    @Option(
        help:
            "Show written pitch for a transposing instrument: Bb (+2), Eb (+9), F (+7), A (+3), G (+5), D (−2), C, or N semitones (written = sounding + N).",
        transform: Transposition.option)
    var transpose: Transposition?

    @Option(
        help: "equal, just, pythagorean, meantone, werckmeister3, kirnberger3, vallotti, young, or a Scala FILE.scl (12 notes, 2/1 octave).",
        completion: Completions.temperaments, transform: Temperament.option)
    var temperament: Temperament?

    @Option(help: "Tonic of the temperament (sounding pitch), e.g. C, G, Eb (default C).", transform: Tonic.option)
    var tonic: Tonic?

    @Option(
        help: "Stretch tuning: piano (the Railsback curve: A0 −30 ¢ … C8 +30 ¢) or cents per octave from A4 (−50…50).",
        transform: TuningSystem.Stretch.option)
    var stretch: TuningSystem.Stretch?

    @Option(help: "Cents added to single notes, e.g. \"E2:-2,B3:+1.5\" (a sweetened guitar tuning), −50…50 each.", transform: NoteOffsets.option)
    var offsets: NoteOffsets?

    /// The tuning system the options describe; `config` fills what the command line leaves
    /// out (a wrong key there names the file and its line).
    func system(config: Config? = nil) throws -> TuningSystem {
        var s = TuningSystem()
        if let v = try stretch ?? config?.stretch?.get() { s.stretch = v }
        if let v = try offsets ?? config?.offsets?.get() { s.offsets = v.cents }
        if let v = try transpose ?? config?.transpose?.get() { s.transpose = v.semitones }
        if let v = try tonic ?? config?.tonic?.get() { s.tonic = v.pitchClass }
        if let v = try temperament ?? config?.temperament?.get() { s.temperament = v }
        return s
    }
}
