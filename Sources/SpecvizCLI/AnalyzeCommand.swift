import Analysis
import ArgumentParser
import Foundation
import Geometry
import MediaIO
import Specviz
import SpecvizCore

/// `specviz analyze FILE --json|--csv [--fps N]`: the band levels as drawn, per video
/// frame, as data (issue 17's contract). Streams: one frame is analysed, smoothed and
/// written at a time, so memory stays bounded for any length.
struct AnalyzeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "analyze",
        abstract: "Write the spectrum of an audio file per video frame as JSON or CSV (levels as drawn).",
        discussion: """
            Every analysis option of `render` applies (scale, bands, range, FFT size, window, \
            overlap, weighting, tilt, dB range, smoothing, peak hold, gain). Levels are band \
            power with no tilt unless --tilt asks (pink noise reads flat), in dB as drawn: the smoothed display value mapped back through the frame's dB range \
            (clamped to it). rms_db and peak_db are the latest analysis hop's sample RMS and \
            peak in dBFS (20·log10; a full-scale sine has rms_db −3.01); peak_hz is the \
            loudest FFT bin, refined by a parabola.

            JSON: {"bands_hz": [...], "frames": [{"time_s": t, "levels_db": [...], \
            "peak_hz": f, "rms_db": r, "peak_db": p}, ...]}
            CSV: header time_s,<band centre Hz>…,peak_hz,rms_db,peak_db; one row per frame.

            Examples:
              specviz analyze track.wav --json > levels.json
              specviz analyze track.flac --csv --fps 10 --scale octave:3 -o levels.csv
            """)

    @Argument(help: "Audio file (anything FFmpeg reads).", completion: Completions.anyFile)
    var input: String

    @Flag(help: "Write JSON.")
    var json = false

    @Flag(help: "Write CSV.")
    var csv = false

    @Option(help: "Frames per second (default: the render default, 60).")
    var fps: Int?

    @Option(name: .shortAndLong, help: "Output file (default: standard output).", completion: Completions.anyFile)
    var output: String?

    @Flag(name: [.customShort("y"), .long], help: "Overwrite the output if it exists.")
    var overwrite = false

    @Flag(help: "Add EBU R128 loudness (momentary, short-term, integrated LUFS; ITU-R BS.1770-4).")
    var loudness = false

    @OptionGroup var analysis: AnalysisOptions

    @OptionGroup var channelOption: ChannelOption

    func validate() throws {
        if json == csv { throw ValidationError("give exactly one of --json or --csv") }
        if let fps, !(1...1000).contains(fps) { throw ValidationError("--fps must be 1…1000") }
        if let output { try InputChecks.distinct(output, from: [input]) }
    }

    func run() throws {
        let file = try Config.load()
        var settings = RenderSettings()
        settings.fps = fps ?? file.fps ?? 60
        try analysis.apply(to: &settings, file: file)
        let fps = settings.fps, config = settings.analysis
        var state = VisualState()
        state.smoothing = settings.smoothing
        if let output { try AtomicFile.checkOutput(output, overwrite: overwrite) }
        // INT, TERM and HUP stop it between frames: the temporary goes, exit 128 + the signal.
        Termination.install()
        let decoder = try InputChecks.openDecoder(input, allowPlaylists: false, channels: channelOption.channels)
        let tap = loudness ? LoudnessTap(decoder: decoder) : nil
        let feed = AnalysisFeed(source: tap ?? decoder, config: config)
        let sink = try DataSink(path: output)
        do {
            try write(feed: feed, meter: tap?.meter, state: &state, fps: fps, to: sink)
            try sink.finish()
        } catch {
            sink.cancel()
            throw error
        }
    }

    private func write(feed: AnalysisFeed, meter: LoudnessMeter?, state: inout VisualState, fps: Int, to sink: DataSink) throws {
        let centres = feed.analyzer.layout.centers
        let json = self.json ? JSONWriter(to: sink, separators: .spaced, rounding: .halfAwayFromZero) : nil
        var line = ""
        if let json {
            try json.beginObject()
            try json.key("bands_hz")
            try json.beginArray()
            for c in centres { try json.value(c, decimals: 2) }
            try json.endArray()
            json.newline()
            try json.key("frames")
            try json.beginArray()
            json.newline()
        } else {
            line.reserveCapacity(16 * centres.count + 200)
            line =
                "time_s," + centres.map { Self.fixed($0, 2) }.joined(separator: ",") + ",peak_hz,rms_db,peak_db"
                + (meter == nil ? "" : ",momentary_lufs,short_term_lufs,integrated_lufs") + "\n"
            try sink.write(line)
        }
        // As `render` counts frames: ⌈fps · duration⌉ when the duration is known.
        let total = feed.source.duration.map { max(0, Int((Double(fps) * $0 - 1e-6).rounded(.up))) }
        var k = 0
        while total.map({ k < $0 }) ?? true {
            try Termination.check()
            let t = Double(k) / Double(fps)
            try feed.advance(to: t)
            if feed.exhausted && feed.samplesRead == 0 { throw RenderError.noAudio(source: input) }
            if total == nil && feed.exhausted && t >= feed.timeRead - 1e-9 { break }
            state.step(toward: feed.current, hop: feed.latest)
            if let json {
                if k > 0 { json.newline() }
                try Self.writeFrame(to: json, time: t, state: state, frame: feed.latest, meter: meter)
            } else {
                line.removeAll(keepingCapacity: true)
                Self.appendRow(to: &line, time: t, state: state, frame: feed.latest, meter: meter)
                try sink.write(line)
            }
            k += 1
        }
        guard let json else { return }
        json.newline()
        try json.endArray()
        // The whole file's integrated loudness (blocks after the last frame included).
        if let meter {
            var rest = [Float](repeating: 0, count: 4096)
            while try rest.withUnsafeMutableBufferPointer({ try feed.source.readMono(into: $0) }) > 0 { try Termination.check() }
            json.newline()
            try json.member("integrated_lufs", meter.integrated ?? .nan, decimals: 2)
        }
        try json.endObject()
        json.newline()
        try json.flush()
    }

    /// One frame's JSON object: time, levels as drawn, peak frequency and levels, loudness.
    static func writeFrame(
        to json: JSONWriter, time t: Double, state: VisualState, frame f: SpectrumFrame, meter: LoudnessMeter?
    ) throws {
        let lo = state.dbBottom, span = state.dbTop - state.dbBottom
        try json.beginObject()
        try json.member("time_s", t, decimals: 4)
        try json.key("levels_db")
        try json.beginArray()
        for i in 0..<state.display.count { try json.value(Double(lo + state.display[i] * span), decimals: 2) }
        try json.endArray()
        try json.member("peak_hz", f.peakHz, decimals: 2)
        try json.member("rms_db", Double(f.rmsDB), decimals: 2)
        try json.member("peak_db", Double(f.peakDB), decimals: 2)
        if let meter {
            try json.member("momentary_lufs", meter.momentary(at: t) ?? .nan, decimals: 2)
            try json.member("short_term_lufs", meter.shortTerm(at: t) ?? .nan, decimals: 2)
            try json.member("integrated_lufs", meter.integrated ?? .nan, decimals: 2)
        }
        try json.endObject()
    }

    /// One frame's CSV row (with its line end).
    static func appendRow(to line: inout String, time t: Double, state: VisualState, frame f: SpectrumFrame, meter: LoudnessMeter?) {
        let lo = state.dbBottom, span = state.dbTop - state.dbBottom
        line += Self.fixed(t, 4)
        for i in 0..<state.display.count { line += "," + Self.fixed(Double(lo + state.display[i] * span), 2) }
        line += "," + Self.fixed(f.peakHz, 2) + "," + Self.fixed(Double(f.rmsDB), 2) + "," + Self.fixed(Double(f.peakDB), 2)
        if let meter {
            for v in [meter.momentary(at: t), meter.shortTerm(at: t), meter.integrated] {
                line += "," + (v.map { $0.isFinite ? Self.fixed($0, 2) : "" } ?? "")
            }
        }
        line += "\n"
    }

    /// `v` with `digits` decimals (no exponent, no locale; "null" when not finite), as the
    /// JSON writer writes it.
    static func fixed(_ v: Double, _ digits: Int) -> String { DecimalRounding.halfAwayFromZero(v, decimals: digits) }
}

/// Standard output (no -o, or `-o -`), or a temporary file beside the output that is renamed into place
/// only when complete (no half-written output on an error). A device or FIFO at `-o`
/// (/dev/null, /dev/stdout) is written directly. The file is closed exactly once.
final class DataSink: ByteSink {
    private var file: UnsafeMutablePointer<FILE>?
    private let path: String?
    private let temp: String?

    init(path: String?) throws {
        self.path = path
        if let path, path != OutputTarget.standardOutput {
            let t = AtomicFile.temporaryPath(for: path)
            guard let f = fopen(t, "wb") else {
                let code = errno
                AtomicFile.discard(t)
                throw CLIError.cannotWrite(path: path, errno: code)
            }
            file = f
            temp = t
        } else {
            file = stdout
            temp = nil
        }
    }

    func write(_ bytes: UnsafeRawBufferPointer) throws {
        guard let file else { throw CLIError.closed(path: path) }
        if bytes.isEmpty { return }
        if fwrite(bytes.baseAddress, 1, bytes.count, file) != bytes.count { throw failure(errno) }
    }

    func write(_ text: String) throws {
        guard let file else { throw CLIError.closed(path: path) }
        var text = text
        let ok = text.withUTF8 { fwrite($0.baseAddress, 1, $0.count, file) == $0.count }
        if !ok { throw failure(errno) }
    }

    func write(_ bytes: [UInt8]) throws {
        try bytes.withUnsafeBytes { try write($0) }
    }

    /// True when writing a file (which `patch` can rewrite), not standard output.
    var isSeekable: Bool { temp != nil }

    /// Overwrites `bytes` at `offset` of the file written so far (a header field known only
    /// at the end), then goes on writing at the end.
    func patch(_ bytes: [UInt8], at offset: Int) throws {
        guard let file, temp != nil else { throw CLIError.closed(path: path) }
        guard fseek(file, offset, SEEK_SET) == 0 else { throw failure(errno) }
        try write(bytes)
        guard fseek(file, 0, SEEK_END) == 0 else { throw failure(errno) }
    }

    func finish() throws {
        guard let file else { return }
        if let temp, let path {
            self.file = nil
            guard fclose(file) == 0 else {
                let code = errno
                AtomicFile.discard(temp)
                throw failure(code)
            }
            try AtomicFile.commit(temp, to: path)
        } else {
            try StandardOutput.flush()
        }
    }

    func cancel() {
        guard let temp, let file else { return }
        self.file = nil
        fclose(file)
        AtomicFile.discard(temp)
    }

    private func failure(_ code: Int32) -> CLIError {
        CLIError.cannotWrite(path: path, errno: code)
    }
}
