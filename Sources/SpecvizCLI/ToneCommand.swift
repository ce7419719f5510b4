import ArgumentParser
import Foundation
import MediaIO
import Synth
import Tuning

/// `specviz tone E2 A2 D3 [--preset NAME [--all]] [--chime] [-o FILE]` (SPEC §1, §7; issue 8):
/// reference tones from the seed-004 synthesiser, written to any audio format libavformat
/// writes, or played through ALSA.
struct ToneCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "tone",
        abstract: "Play or write reference tones (PolyBLEP saw voices, at most 3 sounding at once).",
        discussion: """
            Notes by name (A4, C#3, Bb2), MIDI number (40) or frequency (440Hz, 440.5hz). With \
            --preset, a bare pitch class (A) means that preset's string, and no notes means all \
            its strings. Notes sound together (strummed by --strum seconds) for --duration \
            seconds; with --all each sounds in turn. Without -o the sound goes to the ALSA \
            device (--device). At most 3 notes sound at once: a 4th releases the oldest.
            """)

    @Argument(help: "Notes: A4, C#3, Bb2, a MIDI number, or 440Hz.", transform: ToneNote.option)
    var notes: [ToneNote] = []

    @Option(help: "Tuning preset (see `specviz presets`), e.g. guitar-standard.", completion: Completions.presets, transform: TuningPreset.option)
    var preset: TuningPreset?

    @Flag(help: "With --preset: play each string in turn instead of together.")
    var all = false

    @Flag(help: "Play the start chime (E5, G5, C6).")
    var chime = false

    @Option(help: "Reference pitch of A4 in Hz (400–480).", transform: ReferencePitch.option)
    var reference: ReferencePitch = .standard

    @OptionGroup var tuningSystem: TuningSystemOptions

    @Option(help: "Seconds the notes are held (default 4; with --all, 2 per note).")
    var duration: Double?

    @Option(help: "Seconds between the starts of successive notes of a chord.")
    var strum: Double = 0

    @Flag(help: "Speaker voicing: 4th-order high-pass at 140 Hz for small speakers.")
    var speaker = false

    @Option(name: .shortAndLong, help: "Output file (.wav, .flac, .mp3, .ogg, .opus, .m4a); without it, play through ALSA.", completion: Completions.anyFile)
    var output: String?

    @Flag(name: [.customShort("y"), .long], help: "Overwrite the output if it exists.")
    var overwrite = false

    @Flag(name: .customLong("float"), help: "Write .wav as 32-bit float instead of 16-bit PCM.")
    var floatWAV = false

    @Option(help: "Sample rate in Hz.")
    var rate: Int = 48_000

    @Option(help: "ALSA playback device (e.g. default, hw:0,0, null).")
    var device: String = "default"

    @Flag(name: .shortAndLong, help: "Print nothing but errors.")
    var quiet = false

    func validate() throws {
        if chime && (!notes.isEmpty || preset != nil) { throw ValidationError("--chime plays on its own: drop the notes and --preset") }
        if all && preset == nil && notes.isEmpty { throw ValidationError("--all needs --preset or notes") }
        if !chime && notes.isEmpty && preset == nil { throw ValidationError("give notes (e.g. E2 A2 D3), --preset NAME or --chime") }
        if let d = duration, !(d > 0 && d <= 3600) { throw ValidationError("--duration must be between 0 and 3600 seconds") }
        if !(strum >= 0 && strum <= 10) { throw ValidationError("--strum must be between 0 and 10 seconds") }
        if !(8_000...192_000).contains(rate) { throw ValidationError("--rate must be between 8000 and 192000 Hz") }
    }

    func run() throws {
        let score = try makeScore(reference: reference.hertz)
        let renderer = ToneRenderer(score: score.score, sampleRate: Double(rate), speakerVoicing: speaker)
        if let output {
            try AtomicFile.checkOutput(output, overwrite: overwrite)
            Termination.install()
            let writer = try AudioFileWriter(path: output, sampleRate: rate, channels: 1, wavFloat: floatWAV, overwrite: overwrite)
            var block = [Float](repeating: 0, count: 4096)
            while true {
                if Termination.isSet {
                    writer.cancel()
                    try Termination.check()
                }
                let n = block.withUnsafeMutableBufferPointer { renderer.render(into: $0) }
                if n == 0 { break }
                try block.withUnsafeBufferPointer { try writer.write(UnsafeBufferPointer(rebasing: $0[0..<n])) }
            }
            try writer.finish()
            say("\(score.summary) -> \(output) (\(seconds(renderer.framesRendered)), \(writer.codecName), \(writer.encodedSampleRate) Hz)")
        } else {
            let playback = try ALSAPlayback(device: device, sampleRate: rate, channels: 2)
            say("\(score.summary) -> ALSA '\(device)'")
            var block = [Float](repeating: 0, count: 1024)
            var stereo = [Float](repeating: 0, count: 2048)
            while true {
                let n = block.withUnsafeMutableBufferPointer { renderer.render(into: $0) }
                if n == 0 { break }
                for i in 0..<n { stereo[2 * i] = block[i]; stereo[2 * i + 1] = block[i] }
                try stereo.withUnsafeBufferPointer { try playback.write(UnsafeBufferPointer(rebasing: $0[0..<(2 * n)])) }
            }
            try playback.drain()
            playback.close()
        }
    }

    /// The score to play and a one-line description of it.
    private func makeScore(reference: Double) throws -> (score: ToneScore, summary: String) {
        if chime { return (ToneScore.startChime(reference: reference), "start chime E5 G5 C6") }
        let system = try tuningSystem.system()
        var tuning: TuningPreset?
        if let p = preset {
            guard !p.notes.isEmpty else { throw ValidationError("preset '\(p.id)' has no strings to play") }
            tuning = p
        }
        var pitches: [(label: String, hertz: Double)] = []
        if notes.isEmpty, let tuning {
            pitches = tuning.notes.map { ($0.name(), system.frequency(of: $0, reference: reference)) }
        } else {
            for note in notes { pitches.append(try note.pitch(preset: tuning, reference: reference, system: system)) }
        }
        let nyquistLimit = 0.45 * Double(rate)
        for p in pitches where !(p.hertz >= 10 && p.hertz <= nyquistLimit) {
            throw ValidationError("\(p.label) (\(String(format: "%.2f", p.hertz)) Hz) is outside 10–\(Int(nyquistLimit)) Hz at \(rate) Hz")
        }
        let frequencies = pitches.map(\.hertz)
        let list = pitches.map { "\($0.label) \(String(format: "%.3f", $0.hertz)) Hz" }.joined(separator: ", ")
        if all {
            let each = duration ?? 2
            return (ToneScore.sequence(frequencies, noteDuration: each), "in turn, \(seconds(each)) each: \(list)")
        }
        if frequencies.count > ToneEngine.maxSounding && !quiet {
            StandardError.write(
                "note: at most \(ToneEngine.maxSounding) notes sound at once; each new one releases the oldest\n".data(using: .utf8)!,
                level: .info)
        }
        let held = duration ?? 4
        return (ToneScore.chord(frequencies, duration: held, strum: strum), "\(list) for \(seconds(held))")
    }

    private func seconds(_ frames: Int) -> String { seconds(Double(frames) / Double(rate)) }
    private func seconds(_ s: Double) -> String { String(format: "%.2f s", s) }

    private func say(_ line: String) {
        if !quiet { StandardError.write((line + "\n").data(using: .utf8)!, level: .info) }
    }
}

/// A note given to `tone`: `A4`, `C#3`, `Bb2`, a MIDI number, `440Hz`/`440.5hz`, or a bare
/// pitch class (a string of --preset), parsed once where it is read.
enum ToneNote: OptionValue, Equatable {
    case hertz(Double)
    case midi(Int)
    case named(Note, flats: Bool)
    /// A bare pitch class (C = 0), as written.
    case pitchClass(Int, text: String)

    static let noun = "note"

    init(parsing text: String) throws {
        let t = text.trimmingCharacters(in: .whitespaces)
        if t.lowercased().hasSuffix("hz") {
            guard let f = Double(t.dropLast(2).trimmingCharacters(in: .whitespaces)), f.isFinite, f > 0 else {
                throw ValidationError("'\(text)': not a frequency (write e.g. 440Hz)")
            }
            self = .hertz(f)
        } else if let m = Int(t) {
            guard (0...127).contains(m) else { throw ValidationError("'\(text)': MIDI note numbers run 0–127") }
            self = .midi(m)
        } else if let n = Note(name: t) {
            self = .named(n, flats: t.dropFirst().contains("b") || t.contains("♭"))
        } else if let pc = Note(name: t + "4")?.pitchClass {
            self = .pitchClass(pc, text: text)
        } else {
            throw ValidationError("'\(text)': not a note (write A4, C#3, Bb2, a MIDI number or 440Hz)")
        }
    }

    /// The label and frequency it plays. With a `system`, a note name or MIDI number is a
    /// written note: it plays the tempered frequency of the sounding note (written −
    /// transpose); preset strings are sounding notes. A bare pitch class needs a `preset`.
    func pitch(preset: TuningPreset?, reference: Double, system: TuningSystem = .equal) throws -> (label: String, hertz: Double) {
        switch self {
        case .hertz(let f): return (String(format: "%gHz", f), f)
        case .midi(let m):
            let n = Note(midi: m)
            return (n.name(), system.frequency(of: system.sounding(n), reference: reference))
        case .named(let n, let flats): return (n.name(flats: flats), system.frequency(of: system.sounding(n), reference: reference))
        case .pitchClass(let pc, let text):
            guard let preset else { throw ValidationError("'\(text)': not a note (write A4, C#3, Bb2, a MIDI number or 440Hz)") }
            guard let n = preset.notes.first(where: { $0.pitchClass == pc }) else {
                throw ValidationError("'\(text)': preset '\(preset.id)' has no \(text) string")
            }
            return (n.name(), system.frequency(of: n, reference: reference))
        }
    }
}
