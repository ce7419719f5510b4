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
            The output format follows the -o extension: .mp4 .mkv .mov (H.264 + AAC), \
            VP9 in .webm, GIF in .gif, one PNG still in .png (at --at; default the middle of \
            the track), or a pattern such as frames/%05d.png for a PNG sequence. -o - writes \
            Matroska (H.264 + AAC) to standard output; progress stays on standard error.

            Examples:
              specviz render track.wav --mode bars -o out.mp4
              specviz render track.flac --mode bars --size 1080x1920 -o reel.mp4
              specviz render track.mp3 --mode spectrogram --at 42.5 -o still.png
              specviz render set.flac --from 1:02:03.5 --to 1:03:00 -o encore.mp4
              specviz render track.wav --mode curve -o frames/%05d.png
              specviz render track.wav -o - | ffplay -
            """)

    @Argument(
        help: "Audio file (anything FFmpeg reads: wav, flac, mp3, ogg, m4a …), or - for standard input; several make a batch (-o 'out/{stem}.mp4').",
        completion: Completions.anyFile)
    var inputs: [String] = []

    /// The one input of a single render.
    var input: String { inputs.first ?? "" }

    @OptionGroup var batch: BatchOptions

    @Flag(name: .customLong("allow-playlists"), help: "Follow an input playlist or concat list (HLS, ffconcat) naming local files; never URLs.")
    var allowPlaylists = false

    @OptionGroup var look: LookOptions

    @OptionGroup(title: "Title, cover and background") var art: ArtworkOptions

    @OptionGroup var channelOption: RenderChannelOptions

    @OptionGroup var analysis: AnalysisOptions

    @Option(
        name: .shortAndLong, help: "Output file (.mp4/.mkv/.mov/.webm/.gif/.png or a %05d.png pattern), or - for Matroska on standard output; not with --live.",
        completion: Completions.anyFile)
    var output: String?

    @Flag(help: "Play the file through ALSA and show the visualisation in real time (keys: m/M mode, t, b, space, q).")
    var live = false

    @OptionGroup var liveDisplay: DisplayOptions

    @Flag(name: [.customShort("y"), .long], help: "Overwrite the output if it exists.")
    var overwrite = false

    @Option(help: "Start time: seconds (42.5) or [[hh:]mm:]ss[.frac] (1:30).", transform: ClockTime.secondsOption)
    var from: Double?

    @Option(help: "End time: seconds or [[hh:]mm:]ss[.frac].", transform: ClockTime.secondsOption)
    var to: Double?

    @Option(help: "Time of the single PNG still: seconds or [[hh:]mm:]ss[.frac].", transform: ClockTime.secondsOption)
    var at: Double?

    @Option(name: .customLong("dump-frame"), help: "With a PNG still: also write the frame's triangle list (SPEC §10).", completion: Completions.anyFile)
    var dumpFrame: String?

    @Option(name: .customLong("x264-preset"), help: "x264 preset for video output (ultrafast … veryslow).", transform: X264Preset.option)
    var x264Preset: X264Preset = .veryfast

    @Option(help: "x264 constant rate factor (lower is better quality).")
    var crf: Int = 20

    @Flag(help: "No progress bar.")
    var quiet = false

    @Option(help: "Render only the K-th of N equal, frame-aligned time segments (e.g. 2/4); join them with `specviz join`.")
    var segment: Segment?

    @Flag(
        name: .customLong("audio-only"),
        help: "Write only the sound, as the render would encode it (-o NAME.m4a), for `join --audio` to copy: a task beside the segments.")
    var audioOnly = false

    @Flag(help: "With --bpm: flash and beat dot as live shows them (causal) instead of on the beats of the whole-track analysis.")
    var causal = false

    @Option(
        help: "With --bpm: the beats of `specviz tempo IN --json -o FILE`, read instead of analysing the track again (segments of one set share one analysis).",
        completion: .file(extensions: ["json"]))
    var beatsFrom: String?

    /// The longest time accepted in --from/--to/--at (seconds): 100 days.
    static let maxSeconds = ClockTime.maxSeconds

    func validate() throws {
        if let from, let to, to <= from { throw ValidationError("--to must be after --from") }
        if !(0...51).contains(crf) { throw ValidationError("--crf must be 0…51 (got \(crf))") }
        if let p = batch.progress, let o = output,
            p == "-" ? ["-", "/dev/stdout"].contains(o) : OutputTarget.canonical(p) ?? p == OutputTarget.canonical(o) ?? o
        {
            throw ValidationError("--progress and -o both write '\(p)': send the progress elsewhere")
        }
        if audioOnly { return try validateAudioOnly() }
        if let output {
            let lower = output.lowercased()
            let ext = lower.lastIndex(of: ".").map { String(lower[lower.index(after: $0)...]) } ?? ""
            let stream = (try? OutputTarget.resolve(output)).map { if case .stream = $0 { true } else { false } } ?? false
            if ext != "png" && !InputChecks.videoExtensions.contains(ext) && !(stream && !lower.contains(".")) {
                throw ValidationError(
                    "cannot write '\(output)': unsupported output format '.\(ext)' (use .mp4, .mkv, .mov, .webm, .gif, .png or a %05d.png pattern)")
            }
        }
        if output == OutputTarget.standardOutput {
            // A stream takes one video: not the files of a batch or of --segment, not PNG.
            let clash = isBatch ? "a batch" : segment != nil ? "--segment" : at != nil || dumpFrame != nil ? "a PNG still" : nil
            if let clash { throw ValidationError("-o - writes one Matroska video to standard output: not with \(clash)") }
        }
        if live && (output != nil || at != nil || dumpFrame != nil) { throw ValidationError("--live shows the render: no -o, --at or --dump-frame") }
        if !live && output == nil { throw ValidationError("missing -o OUTPUT (or --live for a real-time preview)") }
        if let dumpFrame, dumpFrame == output || dumpFrame == input {
            throw ValidationError("--dump-frame needs a file of its own (not the input or -o)")
        }
        if let output, !isBatch { try InputChecks.distinct(output, from: [input] + art.pictureFiles) }
        if let dumpFrame { try InputChecks.distinct(dumpFrame, from: [input] + art.pictureFiles) }
        if dumpFrame != nil && art.transparent {
            throw ValidationError("--dump-frame is for checking an opaque frame against another renderer: leave out --transparent")
        }
        if dumpFrame != nil && !(output ?? "").lowercased().hasSuffix(".png") {
            throw ValidationError("--dump-frame goes with a PNG still (-o still.png --at T)")
        }
    }

    mutating func run() throws {
        if isBatch { return try runBatch() }
        let config = try Config.load()
        var settings = try look.settings(config: config)
        try analysis.apply(to: &settings, file: config)
        if !quiet, let note = look.overlayNote(for: settings) { InputChecks.note(note) }
        if live { return try runLive(settings: settings) }
        guard let output else { throw ValidationError("missing -o OUTPUT") }
        Termination.install()
        if audioOnly { return try writeAudioOnly(to: output) }
        // A device or pipe without an extension (/dev/null, /dev/stdout) takes a PNG with --at,
        // else a video (Matroska: it streams).
        let isPNG = output.lowercased().hasSuffix(".png") || (at != nil && OutputTarget.formatName(output, fallback: "png") == "stream.png")
        let isSequence = isPNG && PNGSequenceSink.isPattern(output)
        let first = isSequence ? PNGSequenceSink.path(output, 0) : output
        // A segment of a sequence shares the pattern with the other segments: it checks its own
        // first frame (in applySegment), not frame 1.
        try AtomicFile.checkOutput(first, overwrite: overwrite || (isSequence && segment != nil))
        let decoder = try InputChecks.openDecoder(input, allowPlaylists: allowPlaylists, channels: channelOption.channels.pick)
        try art.apply(to: &settings, tags: decoder.tags, input: input, quiet: quiet)
        // Both channels drawn apart when there are two and the mode draws them.
        let stereo = channelOption.channels == .stereo && decoder.channelCount >= 2 && (settings.mode.traits.stereo || settings.mode.traits.vectorScope)
        if stereo { settings.stereo = channelOption.stereoLayout }
        let stamp = try applySegment(duration: decoder.duration, settings: settings)
        let (start, end) = try timeRange(duration: decoder.duration)
        let glyphs = settings.labels || settings.stats ? try? FreeTypeFont() : nil
        if settings.labels && glyphs == nil && !quiet {
            InputChecks.warn("no font found, rendering without labels")
        }
        try Termination.check()

        if isPNG && !isSequence {
            return try writeStill(
                decoder: decoder, stereo: stereo, settings: settings, glyphs: glyphs, start: start, end: end, to: output)
        }
        if at != nil { throw ValidationError("--at makes a single PNG still: use -o NAME.png") }
        // One read of the input feeds the analysis and the sound of the video.
        let tee = AudioTee(decoder: decoder)
        let right = stereo ? tee.rightAnalysis() : nil
        let job = RenderJob(source: tee.analysis, right: right, settings: settings, glyphs: glyphs, from: start, to: end)
        try attachBeats(to: job, settings: settings)
        let sink = try makeSink(
            output: output, isSequence: isSequence, settings: settings, tee: tee, start: start, end: end, stamp: stamp,
            tags: art.outputTags(settings: settings, tags: decoder.tags))
        let bar = ProgressBar(enabled: !quiet && isatty(STDERR_FILENO) != 0)
        let report = try batch.progress.map { try ProgressReport(path: $0, fps: settings.fps) }
        var framesDone = 0
        job.progress = { done, total in
            framesDone = done
            bar.update(done: done, total: total)
            report?.update(done: done, total: total)
        }
        job.cancelled = { Termination.isSet }
        job.finishedReading = {
            tee.analysis.stop()
            right?.stop()
        }
        defer { bar.finish() }
        do {
            try job.run(into: sink)
            report?.finish(done: framesDone)
        } catch {
            try Termination.check()
            throw error
        }
    }

    /// A single PNG still at --at (or the middle of the input): a stereo still reads both
    /// channels through a tee (no sound track is kept).
    func writeStill(
        decoder: AudioDecoder, stereo: Bool, settings: RenderSettings, glyphs: GlyphProvider?, start: Double,
        end: Double?, to output: String
    ) throws {
        // A stereo still reads both channels through a tee (no sound track is kept).
        let stillTee = stereo ? AudioTee(decoder: decoder) : nil
        let job = RenderJob(
            source: stillTee?.analysis ?? decoder, right: stillTee?.rightAnalysis(), settings: settings, glyphs: glyphs,
            from: start, to: end)
        try attachBeats(to: job, settings: settings)
        job.cancelled = { Termination.isSet }
        let time = at ?? from ?? (decoder.duration.map { $0 / 2 } ?? 0)
        if let d = decoder.duration, time > d + 1e-6 {
            throw ValidationError("--at \(time) is past the end of '\(input)' (\(String(format: "%.2f", d)) s)")
        }
        let picture = try job.still(at: time)
        try Termination.check()
        if let dumpFrame {
            try AtomicFile.checkOutput(dumpFrame, overwrite: overwrite)
            try AtomicFile.write(FrameDump.encode(job.composer.scene), to: dumpFrame, overwrite: overwrite)
        }
        try PNGFile.write(picture, to: output, overwrite: overwrite)
    }

    /// Where the frames go: a PNG sequence (a segment's frames only), or the encoder with
    /// the sound of `tee` from `start`.
    func makeSink(
        output: String, isSequence: Bool, settings: RenderSettings, tee: AudioTee, start: Double, end: Double?,
        stamp: SegmentStamp?, tags: OutputTags
    ) throws -> FrameSink {
        if isSequence {
            // A segment writes its frames only; the frames past it belong to the other segments.
            return numberedForSegment(
                try PNGSequenceSink(
                    pattern: output, overwrite: overwrite,
                    removesLaterFrames: segment == nil), fps: settings.fps)
        } else {
            var options = VideoEncoder.Options(width: settings.width, height: settings.height, fps: settings.fps)
            options.audio = tee.track(from: start)
            options.audioName = input
            options.audioDuration = end.map { $0 - start }
            options.preset = x264Preset
            options.crf = crf
            options.threads = batch.x264Threads
            options.overwrite = overwrite
            options.segmentStamp = stamp
            options.tags = tags
            options.alpha = settings.transparent
            return try VideoEncoder(path: output, options: options)
        }
    }

    /// With --bpm (and not --causal): the whole track's beats first, so each flash lands on its
    /// beat's frame. Standard input is read once, so there it is causal, with a note.
    func attachBeats(to job: RenderJob, settings: RenderSettings) throws {
        guard settings.tempoOverlay && !causal, let trackers = job.trackers else { return }
        if input == "-" || input.hasPrefix("pipe:") {
            if !quiet { InputChecks.note("standard input is read once: the beat flash follows the music as live shows it (--causal)") }
            return
        }
        if let beatsFrom {
            trackers.offline = try BeatFile.read(beatsFrom)
            return
        }
        trackers.offline = try BeatAnalyzer.analyse(path: input, allowPlaylists: allowPlaylists, channels: channelOption.channels.pick)
        try Termination.check()
    }

    /// --from and --to checked against the input's duration (when known): a start past the
    /// end is an error, an end past it is clamped (with a note).
    func timeRange(duration: Double?) throws -> (start: Double, end: Double?) {
        let start = from ?? 0
        var end = to
        if let d = duration {
            if start >= d {
                throw ValidationError("--from \(InputChecks.format(start)) is past the end of '\(input)' (\(String(format: "%.2f", d)) s)")
            }
            if let t = end, t > d {
                // A segment's end is its last whole frame's, which may pass the end by less than a
                // frame: that is no news to the user (the note named a --to they never gave).
                if segment == nil {
                    InputChecks.note("--to \(InputChecks.format(t)) is past the end of '\(input)': rendering to \(String(format: "%.2f", d)) s")
                }
                end = d
            }
        }
        return (start, end)
    }
}

extension RenderCommand {
    /// `--live`: plays the file (from --from, until --to) through ALSA and shows it.
    func runLive(settings: RenderSettings) throws {
        let decoder = try InputChecks.openDecoder(input, allowPlaylists: allowPlaylists, channels: channelOption.channels.pick)
        let (start, end) = try timeRange(duration: decoder.duration)
        if start > 0 {
            var skip = [Float](repeating: 0, count: 4096 * decoder.channelCount)
            var left = Int(start * Double(decoder.sampleRate))
            while left > 0 {
                let n = try skip.withUnsafeMutableBufferPointer {
                    try decoder.readInterleaved(into: UnsafeMutableBufferPointer(rebasing: $0[0..<min(4096, left) * decoder.channelCount]))
                }
                if n == 0 { break }
                left -= n
            }
        }
        // 250 ms of device buffer against the pump's 100 ms lead: writes do not block the frame loop.
        let playback = try ALSAPlayback(
            device: liveDisplay.device, sampleRate: decoder.sampleRate, channels: decoder.channelCount,
            latency: 0.25)
        let pump = LiveAudioPump(playing: decoder, through: playback)
        try LiveRunner.run(
            settings: settings, pump: pump, display: liveDisplay, stats: look.stats,
            duration: end.map { $0 - start }, overwrite: overwrite)
        try? playback.drain()
    }
}

/// Writes bytes to a temporary file beside `path`, then renames it into place.
func writeAtomically(_ bytes: [UInt8], to path: String) throws {
    try AtomicFile.write(bytes, to: path)
}
