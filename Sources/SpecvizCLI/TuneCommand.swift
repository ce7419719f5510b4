import Analysis
import ArgumentParser
import Foundation
import MediaIO
import Tuning

/// `specviz tune FILE [--csv] [--raw] [--preset NAME] [--reference HZ] [--flats]` (SPEC §1, §5):
/// runs the real-time tuner over a file as if it were playing.
struct TuneCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "tune",
        abstract: "Run the chromatic tuner over an audio file: the notes played and how far off they are.",
        discussion: """
            Without --csv, prints the notes the tuner showed, each with its mean offset
            in cents. --csv prints `time_s,f0_hz,note,cents,confidence`, one row per
            512-sample hop: what the tuner displays at time_s (latched and smoothed;
            empty while it shows ---). time_s is when the value would be on screen in
            real-time playback (causal, latency included). --raw prints the detector's
            unlatched estimate instead. `note` is the note shown (the latched semitone);
            cents are relative to the target note: the nearest note of --preset (see
            `specviz presets`), or the nearest semitone.

            Examples:
              specviz tune take.wav
              specviz tune take.wav --preset guitar-standard --csv
              specviz tune cello.flac --preset cello --reference 442
            """)

    @Argument(help: "Audio or video file to analyse (- for standard input).")
    var input: String

    @Flag(name: .customLong("allow-playlists"), help: "Follow an input playlist or concat list (HLS, ffconcat) naming local files; never URLs.")
    var allowPlaylists = false

    @Flag(help: "Print one CSV row per analysis hop.")
    var csv = false

    @Flag(help: "With --csv: the detector's unlatched estimate instead of the display.")
    var raw = false

    @Option(help: "Tuning preset id (see `specviz presets`).")
    var preset: String = "chromatic"

    @Option(help: "Reference pitch of A4 in Hz: 415, 416, 430.54, 432, 440, 441, 442, 443, 444 or any 400–480.")
    var reference: Double = 440

    @Flag(help: "Name notes with flats (Db3) instead of sharps (C#3).")
    var flats = false

    func validate() throws {
        if raw && !csv { throw ValidationError("--raw goes with --csv") }
        if ReferencePitch(reference) == nil {
            throw ValidationError("--reference must be between 400 and 480 Hz (got \(reference))")
        }
        if TuningPreset.named(preset) == nil {
            throw ValidationError(InputChecks.unknownPreset(preset))
        }
    }

    func run() throws {
        let ref = ReferencePitch(reference)!.hertz
        let tuningPreset = TuningPreset.named(preset)!
        let decoder = try InputChecks.openDecoder(input, allowPlaylists: allowPlaylists)
        let tracker = PitchTracker(sampleRate: decoder.sampleRate, preset: tuningPreset, reference: ref)
        var out = csv ? "time_s,f0_hz,note,cents,confidence\n" : ""
        var summary = TuneSummary()
        let flats = self.flats, raw = self.raw, csv = self.csv
        let onHop: (PitchTracker) -> Void = { t in
            if csv {
                out += String(format: "%.4f,", t.time)
                if raw {
                    if let e = t.raw {
                        let (_, cents) = tuningPreset.offset(of: e.frequency, reference: ref)
                        let note = Note.nearest(to: e.frequency, reference: ref).note
                        out += String(format: "%.4f,", e.frequency) + note.name(flats: flats)
                            + String(format: ",%.2f,%.3f\n", cents, e.confidence)
                    } else {
                        out += ",,,0.000\n"
                    }
                } else if let r = t.display {
                    out += String(format: "%.4f,", r.frequency) + r.note.name(flats: flats)
                        + String(format: ",%.2f,%.3f\n", r.cents, r.confidence)
                } else {
                    out += ",,,0.000\n"
                }
            } else {
                summary.add(t.display, time: t.time, hop: Double(t.hopSize) / Double(t.sampleRate))
            }
        }
        var buffer = [Float](repeating: 0, count: 8192)
        while true {
            let n = try buffer.withUnsafeMutableBufferPointer { try decoder.readMono(into: $0) }
            if n == 0 { break }
            buffer.withUnsafeBufferPointer { tracker.process(UnsafeBufferPointer(rebasing: $0[0..<n]), onHop: onHop) }
        }
        if !csv {
            let name = (input as NSString).lastPathComponent
            out = summary.report(file: name, duration: tracker.time, preset: tuningPreset, reference: ref, flats: flats)
        }
        FileHandle.standardOutput.write(out.data(using: .utf8)!)
    }
}
