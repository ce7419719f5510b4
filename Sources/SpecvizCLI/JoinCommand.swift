import ArgumentParser
import Foundation
import MediaIO

/// `specviz join`: concatenates segment renders by stream copy.
struct JoinCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "join",
        abstract: "Join videos rendered with --segment K/N into one, without re-encoding the picture.",
        discussion: """
            The parts are joined in the order given (name them so that the shell's sort \
            order is the segment order, e.g. part1.mp4 … part4.mp4 for up to 9 parts). \
            With --audio the sound is one track over the whole video, so there is no gap or \
            click at a join: the AAC track of `render IN --audio-only -o audio.m4a` (made \
            beside the segments) or of an AAC original is copied without encoding it again; \
            any other original is encoded once here. Without --audio the parts' own sound \
            is copied.

            Example:
              for k in 1 2 3 4; do
                specviz render set.flac --segment $k/4 -o part$k.mp4
              done
              specviz render set.flac --audio-only -o audio.m4a
              specviz join part1.mp4 part2.mp4 part3.mp4 part4.mp4 \\
                --audio audio.m4a -o set.mp4
            """)

    @Argument(help: "The segment videos, in order.", completion: Completions.anyFile)
    var parts: [String]

    @Option(name: .shortAndLong, help: "The joined video (.mp4/.mkv/.mov).", completion: Completions.anyFile)
    var output: String

    @Option(
        help: "The sound for the whole video: `render --audio-only`'s file or an AAC original (copied), or the original (encoded once).",
        completion: Completions.anyFile)
    var audio: String?

    @Option(
        name: .customLong("from"),
        help: "With --audio: the time of the original where the video starts (the render's --from; seconds or [[hh:]mm:]ss[.frac]).",
        transform: ClockTime.secondsOption)
    var audioFrom: Double = 0

    @Flag(name: [.customShort("y"), .long], help: "Overwrite the output if it exists.")
    var overwrite = false

    @Flag(help: "Print nothing on success.")
    var quiet = false

    func validate() throws {
        if parts.isEmpty { throw ValidationError("give the segment videos to join") }
        if parts.contains(output) { throw ValidationError("the output '\(output)' is also a part") }
    }

    func run() throws {
        try AtomicFile.checkOutput(output, overwrite: overwrite)
        try InputChecks.distinct(output, from: parts + (audio.map { [$0] } ?? []))
        // The joiner copies packets without stopping to look: on INT, TERM or HUP the
        // temporary is removed at once and the exit is 128 + the signal.
        Termination.install(grace: 0)
        if let copied = try copiedAudio() {
            return report(try StreamJoiner.join(parts: parts, to: output, copyingAudio: copied))
        }
        // The original, opened like any input and read once from --from (the tee's track side
        // refers to the tee without owning it: keep the tee alive through the join).
        let original = try audio.map { try InputChecks.openDecoder($0, allowPlaylists: false, quiet: quiet) }
        if let original, let d = original.duration, audioFrom >= d {
            throw CLIError.startPastEnd(from: audioFrom, path: original.path, length: d)
        }
        let tee = original.map { AudioTee(decoder: $0) }
        tee?.analysis.stop()
        let summary = try withExtendedLifetime(tee) {
            try StreamJoiner.join(parts: parts, to: output, audio: tee?.track(from: audioFrom), audioName: audio ?? "audio")
        }
        report(summary)
    }

    /// The --audio file when its AAC track is copied: `render --audio-only`'s file (which
    /// starts where the render starts: a --from must be that start), or an AAC original
    /// read from its start. Nil: the sound is encoded.
    func copiedAudio() throws -> String? {
        guard let audio, AudioPacketCopier.canCopy(audio, into: output) else { return nil }
        if let start = AudioTrackFile.start(ofFile: audio) {
            if audioFrom != 0 && abs(audioFrom - start) > 1e-6 {
                throw ValidationError(
                    "'\(audio)' holds the sound from \(InputChecks.format(start)) of its original (render --audio-only): leave out --from")
            }
            return audio
        }
        return audioFrom == 0 ? audio : nil
    }

    func report(_ summary: StreamJoiner.Summary) {
        if !quiet {
            StandardError.write(
                Data(
                    String(
                        format: "specviz: joined %d parts: %d frames, %.3f s → %@\n",
                        parts.count, summary.frames, summary.seconds, output
                    ).utf8), level: .info)
        }
    }
}
