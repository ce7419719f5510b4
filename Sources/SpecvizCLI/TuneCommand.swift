import Analysis
import ArgumentParser
import Foundation
import Geometry
import MediaIO
import Raster
import ShadersCPU
import SpecvizCore
import Tuning

/// `specviz tune FILE [--csv|--json] [--raw] [--preset NAME] [--reference HZ] [--flats]` (SPEC §1, §5):
/// runs the real-time tuner over a file as if it were playing.
struct TuneCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "tune",
        abstract: "Run the chromatic tuner over an audio file: the notes played and how far off they are.",
        discussion: """
            Without --csv, prints the notes the tuner showed, each with its mean offset \
            in cents. --csv prints `time_s,f0_hz,note,cents,confidence`, one row per \
            512-sample hop: what the tuner displays at time_s (latched and smoothed; \
            empty while it shows ---). time_s is the centre of the audio the row \
            measured (a 2048-sample window; in real-time playback the value is on \
            screen half a window later). --raw prints the detector's \
            unlatched estimate instead. --json prints one object with the summary's \
            notes (`notes`: start_s, end_s, note, target, mean_hz, mean_cents, verdict) \
            and the same per-hop rows (`frames`: time_s, f0_hz or null, note, cents, \
            confidence, and unsure: true where the tuner shows the reading grey, as \
            "?¢", because the pitched source did not dominate its band). `note` is the note shown (the latched semitone); \
            cents are relative to the target note: the nearest note of --preset (see \
            `specviz presets`), or the nearest semitone.

            Examples:
              specviz tune take.wav
              specviz tune take.wav --preset guitar-standard --csv
              specviz tune cello.flac --preset cello --reference 442
            """)

    @Argument(help: "Audio or video file to analyse (- for standard input).", completion: Completions.anyFile)
    var input: String

    @Flag(name: .customLong("allow-playlists"), help: "Follow an input playlist or concat list (HLS, ffconcat) naming local files; never URLs.")
    var allowPlaylists = false

    @OptionGroup var channelOption: ChannelOption

    @Flag(help: "Print one CSV row per analysis hop.")
    var csv = false

    @Flag(help: "Print the summary and every hop as one JSON object.")
    var json = false

    @Flag(help: "With --csv or --json: the detector's unlatched estimate instead of the display.")
    var raw = false

    @Option(help: "Tuning preset id (see `specviz presets`).", completion: Completions.presets, transform: TuningPreset.option)
    var preset: TuningPreset = .chromatic

    @Option(
        help: "Reference pitch of A4 in Hz: 415, 416, 430.54, 432, 440, 441, 442, 443, 444 or any 400–480.",
        transform: ReferencePitch.option)
    var reference: ReferencePitch = .standard

    @Flag(help: "Name notes with flats (Db3) instead of sharps (C#3).")
    var flats = false

    @OptionGroup var tuningSystem: TuningSystemOptions

    @Option(help: "Also draw an intonation chart to this PNG: a lane per note, the cents over time, ±5 ¢ shaded.", completion: Completions.anyFile)
    var report: String?

    @Flag(name: [.customShort("y"), .long], help: "Overwrite the report PNG if it exists.")
    var overwrite = false

    func validate() throws {
        if csv && json { throw ValidationError("--csv and --json are alternatives: pick one") }
        if raw && !csv && !json { throw ValidationError("--raw goes with --csv or --json") }
        if let report {
            guard report.lowercased().hasSuffix(".png") || OutputTarget.formatName(report, fallback: "png") == "stream.png" else {
                throw ValidationError("--report writes a PNG: give it a .png name")
            }
            try InputChecks.distinct(report, from: [input])
        }
    }

    func run() throws {
        if let report {
            try AtomicFile.checkOutput(report, overwrite: overwrite)
            // The analysis does not stop to look: on INT, TERM or HUP the chart's temporary (if
            // it is being written) goes at once and the exit is 128 + the signal.
            Termination.install(grace: 0)
        }
        let system = try tuningSystem.system()
        let decoder = try InputChecks.openDecoder(input, allowPlaylists: allowPlaylists, channels: channelOption.channels)
        let tracker = PitchTracker(sampleRate: decoder.sampleRate, preset: preset, reference: reference.hertz)
        tracker.system = system
        let take = try track(decoder, with: tracker, system: system)
        let name = (input as NSString).lastPathComponent
        if let report {
            var subtitle = "\(preset.id) · A4 = \(String(format: "%g", reference.hertz)) Hz · \(system.temperament.id)"
            if system.transpose != 0 { subtitle += " · written pitch (\(system.transpose > 0 ? "+" : "")\(system.transpose))" }
            if system.stretch != .none { subtitle += " · stretched" }
            let chart = IntonationChart(points: take.chart, duration: tracker.time, title: name, subtitle: subtitle, flats: flats)
            try Self.draw(chart, to: report, overwrite: overwrite)
        }
        let out = try DataSink(path: nil)
        if json {
            try writeJSON(take, file: name, duration: tracker.time, system: system, to: out)
        } else if csv {
            try writeCSV(take.rows, to: out)
        } else {
            try out.write(
                take.summary.report(
                    file: name, duration: tracker.time, preset: preset, reference: reference.hertz, flats: flats, system: system))
        }
        try out.finish()
    }

    /// A reading as a row prints it; `unsure` is the display's grey "?¢" (the pitched source
    /// did not dominate its band), or the detector's own flag with --raw.
    typealias Reading = (frequency: Double, note: Note, cents: Double, confidence: Double, unsure: Bool)

    /// One hop's row: what the tuner shows (or, with --raw, the detector's estimate), nil
    /// when nothing is.
    struct Row {
        var time: Double
        var reading: Reading?
    }

    /// What a pass over the input gathers: the rows (for --csv and --json), the summary,
    /// and the chart's points (with --report).
    struct Take {
        var rows: [Row] = []
        var summary = TuneSummary()
        var chart: [IntonationChart.Point] = []
    }

    /// Runs the tracker over the input.
    func track(_ decoder: AudioDecoder, with tracker: PitchTracker, system: TuningSystem) throws -> Take {
        var take = Take()
        let charting = report != nil, rows = csv || json
        let onHop: (PitchTracker) -> Void = { t in
            // Each row is stamped with the centre of the audio it measured.
            let time = t.measuredTime
            if rows { take.rows.append(Row(time: time, reading: row(t, system: system))) }
            if charting, let d = t.display { take.chart.append(IntonationChart.Point(time: time, midi: d.note.midi, cents: d.cents)) }
            if !csv { take.summary.add(t.display, time: time, hop: Double(t.hopSize) / Double(t.sampleRate)) }
        }
        // The raw window's analysis of each hop is done on the decoding thread, ahead, and
        // while the tracker has a backlog of prepared hops, the fallbacks they foretell.
        let preparer = HopPreparer(for: tracker)
        try decoder.forEachMonoChunk(
            chunk: 4096, depth: 3, payload: { PreparedHops() },
            prepare: { preparer.prepare($0, into: $1, foresight: HopPreparer.foresight) }
        ) {
            tracker.process($0, prepared: $1, onHop: onHop)
        }
        return take
    }

    /// The reading of hop `t`: the display, or with --raw the detector's estimate against
    /// the preset and tuning system.
    func row(_ t: PitchTracker, system: TuningSystem) -> Reading? {
        guard raw else { return t.display.map { ($0.frequency, $0.note, $0.cents, $0.confidence, $0.unsure) } }
        guard let e = t.raw else { return nil }
        let ref = reference.hertz
        var (_, cents) = preset.offset(of: e.frequency, reference: ref)
        var note = Note.nearest(to: e.frequency, reference: ref).note
        if !system.isPlain {
            let target = system.target(for: e.frequency, preset: preset, reference: ref)
            cents = target.cents
            note = system.written(preset.notes.isEmpty ? target.target : note)
        }
        return (e.frequency, note, cents, e.confidence, e.unsure)
    }

    /// `--csv`: `time_s,f0_hz,note,cents,confidence`, one line per hop.
    func writeCSV(_ rows: [Row], to out: DataSink) throws {
        var line = "time_s,f0_hz,note,cents,confidence\n"
        for r in rows {
            line += String(format: "%.4f,", r.time)
            if let e = r.reading {
                line += String(format: "%.4f,", e.frequency) + e.note.name(flats: flats) + String(format: ",%.2f,%.3f\n", e.cents, e.confidence)
            } else {
                line += ",,,0.000\n"
            }
            try out.write(line)
            line.removeAll(keepingCapacity: true)
        }
        if !line.isEmpty { try out.write(line) }
    }

    /// Rasterises the chart (1600 px wide) and writes the PNG atomically.
    static func draw(_ chart: IntonationChart, to path: String, overwrite: Bool) throws {
        let width = 1600, height = chart.height(width: width)
        var scene = Scene(width: width, height: height, clearColor: SIMD4(0.05, 0.055, 0.07, 1))
        chart.build(into: &scene)
        var picture = PixelBuffer(width: width, height: height)
        try Rasterizer(threads: 2).render(scene, into: &picture, shader2D: FlatShader(), shader3D: LitShader(), glyphProvider: try? FreeTypeFont())
        try PNGFile.write(picture, to: path, overwrite: overwrite)
    }

    /// The `--json` document: the summary's notes and every hop's row.
    func writeJSON(_ take: Take, file: String, duration: Double, system: TuningSystem, to out: DataSink) throws {
        let w = JSONWriter(to: out)
        try w.beginObject()
        try w.member("file", file)
        try w.member("duration_s", duration, decimals: 4)
        try w.member("preset", preset.id)
        try w.key("reference_hz")
        try w.value(reference.hertz, significant: 6)
        try w.key("raw")
        try w.value(raw)
        try w.member("temperament", system.temperament.id)
        try w.member("tonic", Note.sharpNames[system.tonic])
        try w.key("transpose")
        try w.value(system.transpose)
        w.newline()
        try w.key("notes")
        try w.beginArray()
        for g in take.summary.shown {
            let (mc, mh) = g.settledMean
            w.newline()
            try w.beginObject()
            try w.member("start_s", g.start, decimals: 4)
            try w.member("end_s", g.end, decimals: 4)
            try w.member("held_s", g.end - g.start, decimals: 4)
            try w.member("note", g.note.name(flats: flats))
            try w.member("target", g.target.name(flats: flats))
            if g.isSure {
                try w.member("mean_hz", mh, decimals: 4)
                try w.member("mean_cents", mc, decimals: 2)
                try w.member("verdict", TuneSummary.verdict(cents: mc))
            } else {
                for key in ["mean_hz", "mean_cents"] {
                    try w.key(key)
                    try w.null()
                }
                try w.member("verdict", "unsure")
            }
            try w.endObject()
        }
        try w.endArray()
        w.newline()
        try w.key("frames")
        try w.beginArray()
        w.newline()
        for (i, r) in take.rows.enumerated() {
            if i > 0 { w.newline() }
            try w.beginObject()
            try w.member("time_s", r.time, decimals: 4)
            if let e = r.reading {
                try w.member("f0_hz", e.frequency, decimals: 4)
                try w.member("note", e.note.name(flats: flats))
                try w.member("cents", e.cents, decimals: 2)
                try w.member("confidence", e.confidence, decimals: 3)
                try w.key("unsure")
                try w.value(e.unsure)
            } else {
                for key in ["f0_hz", "note", "cents"] {
                    try w.key(key)
                    try w.null()
                }
                try w.key("confidence")
                try w.value(0)
            }
            try w.endObject()
        }
        try w.endArray()
        try w.endObject()
        w.newline()
        try w.flush()
    }
}
