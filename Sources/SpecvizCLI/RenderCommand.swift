import Analysis
import ArgumentParser
import Foundation
import Geometry
import MediaIO
import Raster
import Specviz
import SpecvizCore

struct RenderCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "render",
        abstract: "Render a visualisation of an audio file to a video, a PNG still or a PNG sequence.",
        discussion: """
            The output format follows the -o extension: .mp4 .mkv .mov (H.264 + AAC),
            .webm, .gif, .png (one still at --at; default the middle of the track), or a
            pattern such as frames/%05d.png for a PNG sequence.

            Examples:
              specviz render track.wav --mode bars -o out.mp4
              specviz render track.flac --mode bars --size 1080x1920 -o reel.mp4
              specviz render track.mp3 --mode spectrogram --at 42.5 -o still.png
              specviz render track.wav --mode curve -o frames/%05d.png
            """)

    @Argument(help: "Audio file (anything FFmpeg reads: wav, flac, mp3, ogg, m4a …).")
    var input: String

    @OptionGroup var look: LookOptions

    @Option(name: .shortAndLong, help: "Output file (.mp4/.mkv/.mov/.webm/.gif/.png or a %05d.png pattern); not with --live.")
    var output: String?

    @Flag(help: "Play the file through ALSA and show the visualisation in real time (keys: m/M mode, t, b, space, q).")
    var live = false

    @OptionGroup var liveDisplay: DisplayOptions

    @Flag(name: [.customShort("y"), .long], help: "Overwrite the output if it exists.")
    var overwrite = false

    @Option(help: "Start time in seconds.")
    var from: Double?

    @Option(help: "End time in seconds.")
    var to: Double?

    @Option(help: "Time in seconds of the single PNG still.")
    var at: Double?

    @Option(name: .customLong("dump-frame"), help: "With a PNG still: also write the frame's triangle list (SPEC §10).")
    var dumpFrame: String?

    @Option(name: .customLong("x264-preset"), help: "x264 preset for video output (ultrafast … veryslow).")
    var x264Preset: String = "veryfast"

    @Option(help: "x264 constant rate factor (lower is better quality).")
    var crf: Int = 20

    @Flag(help: "No progress bar.")
    var quiet = false

    @Flag(help: "With --bpm: flash and beat dot as live shows them (causal) instead of on the beats of the whole-track analysis.")
    var causal = false

    func validate() throws {
        if let from, from < 0 { throw ValidationError("--from must be ≥ 0") }
        if let from, let to, to <= from { throw ValidationError("--to must be after --from") }
        if let at, at < 0 { throw ValidationError("--at must be ≥ 0") }
        if live && (output != nil || at != nil || dumpFrame != nil) { throw ValidationError("--live shows the render: no -o, --at or --dump-frame") }
        if !live && output == nil { throw ValidationError("missing -o OUTPUT (or --live for a real-time preview)") }
        if dumpFrame != nil && !(output ?? "").lowercased().hasSuffix(".png") {
            throw ValidationError("--dump-frame goes with a PNG still (-o still.png --at T)")
        }
    }

    func run() throws {
        let settings = try look.settings()
        if live { return try runLive(settings: settings) }
        guard let output else { throw CLIError("missing -o OUTPUT") }
        let isPNG = output.lowercased().hasSuffix(".png")
        let isSequence = isPNG && PNGSequenceSink.isPattern(output)
        if !overwrite && !isSequence && AtomicFile.exists(output) {
            throw CLIError("'\(output)' exists (use -y to overwrite)")
        }
        if !overwrite && isSequence && AtomicFile.exists(PNGSequenceSink.path(output, 0)) {
            throw CLIError("'\(PNGSequenceSink.path(output, 0))' exists (use -y to overwrite)")
        }
        try AtomicFile.checkWritable(isSequence ? PNGSequenceSink.path(output, 0) : output)
        let decoder = try AudioDecoder(path: input)
        let glyphs = settings.labels || settings.stats ? try? FreeTypeFont() : nil
        if settings.labels && glyphs == nil && !quiet {
            FileHandle.standardError.write("specviz: warning: no font found, rendering without labels\n".data(using: .utf8)!)
        }
        let job = RenderJob(source: decoder, settings: settings, glyphs: glyphs, from: from ?? 0, to: to)
        if settings.tempoOverlay && !causal, let trackers = job.trackers {
            // Look-ahead: the whole track's beats first, so each flash lands on its beat's frame.
            trackers.offline = try BeatAnalyzer.analyse(path: input)
        }

        if isPNG && !isSequence {
            let time = at ?? from ?? (decoder.duration.map { $0 / 2 } ?? 0)
            if let d = decoder.duration, time > d + 1e-6 {
                throw CLIError("--at \(time) is past the end of '\(input)' (\(String(format: "%.2f", d)) s)")
            }
            let picture = try job.still(at: time)
            if let dumpFrame {
                if !overwrite && AtomicFile.exists(dumpFrame) { throw CLIError("'\(dumpFrame)' exists (use -y to overwrite)") }
                try writeAtomically(FrameDump.encode(job.composer.scene), to: dumpFrame)
            }
            try PNGFile.write(picture, to: output)
            return
        }
        if at != nil { throw CLIError("--at makes a single PNG still: use -o NAME.png") }
        let sink: FrameSink
        if isSequence {
            sink = try PNGSequenceSink(pattern: output)
        } else {
            var options = VideoEncoder.Options(width: settings.width, height: settings.height, fps: settings.fps)
            options.audioPath = input
            options.audioStart = from ?? 0
            options.audioEnd = to
            options.preset = x264Preset
            options.crf = crf
            sink = try VideoEncoder(path: output, options: options)
        }
        let bar = ProgressBar(enabled: !quiet && isatty(STDERR_FILENO) != 0)
        job.progress = { done, total in bar.update(done: done, total: total) }
        let interrupted = InterruptFlag.install()
        job.cancelled = { interrupted.isSet }
        defer { bar.finish() }
        try job.run(into: sink)
    }
}

extension RenderCommand {
    /// `--live`: plays the file (from --from, until --to) through ALSA and shows it.
    func runLive(settings: RenderSettings) throws {
        let decoder = try AudioDecoder(path: input)
        if let from, from > 0 {
            var skip = [Float](repeating: 0, count: 4096 * decoder.channelCount)
            var left = Int(from * Double(decoder.sampleRate))
            while left > 0 {
                let n = try skip.withUnsafeMutableBufferPointer {
                    try decoder.readInterleaved(into: UnsafeMutableBufferPointer(rebasing: $0[0..<min(4096, left) * decoder.channelCount]))
                }
                if n == 0 { break }
                left -= n
            }
        }
        // 250 ms of device buffer against the pump's 100 ms lead: writes do not block the frame loop.
        let playback = try ALSAPlayback(device: liveDisplay.device, sampleRate: decoder.sampleRate, channels: decoder.channelCount,
                                        latency: 0.25)
        let pump = LiveAudioPump(playing: decoder, through: playback)
        try LiveRunner.run(settings: settings, pump: pump, display: liveDisplay, stats: look.stats,
                           duration: to.map { $0 - (from ?? 0) })
        try? playback.drain()
    }
}

/// Writes bytes to a temporary file beside `path`, then renames it into place.
func writeAtomically(_ bytes: [UInt8], to path: String) throws {
    let temp = AtomicFile.temporaryPath(for: path)
    guard FileManager.default.createFile(atPath: temp, contents: Data(bytes)) else {
        throw CLIError("cannot write '\(path)'")
    }
    try AtomicFile.commit(temp, to: path)
}

/// An error of the command line itself (bad combination, refusing to overwrite).
struct CLIError: Error, CustomStringConvertible {
    var description: String
    init(_ message: String) { description = message }
}
