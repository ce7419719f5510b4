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
            Without --csv, prints the notes the tuner showed, each with its mean offset
            in cents. --csv prints `time_s,f0_hz,note,cents,confidence`, one row per
            512-sample hop: what the tuner displays at time_s (latched and smoothed;
            empty while it shows ---). time_s is when the value would be on screen in
            real-time playback (causal, latency included). --raw prints the detector's
            unlatched estimate instead. --json prints one object with the summary's
            notes (`notes`: start_s, end_s, note, target, mean_hz, mean_cents, verdict)
            and the same per-hop rows (`frames`: time_s, f0_hz or null, note, cents,
            confidence). `note` is the note shown (the latched semitone);
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

    @OptionGroup var channelOption: ChannelOption

    @Flag(help: "Print one CSV row per analysis hop.")
    var csv = false

    @Flag(help: "Print the summary and every hop as one JSON object.")
    var json = false

    @Flag(help: "With --csv or --json: the detector's unlatched estimate instead of the display.")
    var raw = false

    @Option(help: "Tuning preset id (see `specviz presets`).", transform: TuningPreset.option)
    var preset: TuningPreset = .chromatic

    @Option(
        help: "Reference pitch of A4 in Hz: 415, 416, 430.54, 432, 440, 441, 442, 443, 444 or any 400–480.",
        transform: ReferencePitch.option)
    var reference: ReferencePitch = .standard

    @Flag(help: "Name notes with flats (Db3) instead of sharps (C#3).")
    var flats = false

    @OptionGroup var tuningSystem: TuningSystemOptions

    @Option(help: "Also draw an intonation chart to this PNG: a lane per note, the cents over time, ±5 ¢ shaded.")
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
        let ref = reference.hertz
        let tuningPreset = preset
        let system = try tuningSystem.system()
        let decoder = try InputChecks.openDecoder(input, allowPlaylists: allowPlaylists, channels: channelOption.channels)
        let tracker = PitchTracker(sampleRate: decoder.sampleRate, preset: tuningPreset, reference: ref)
        tracker.system = system
        var out = csv ? "time_s,f0_hz,note,cents,confidence\n" : ""
        var frames = "" // JSON frame objects, comma-separated
        var summary = TuneSummary()
        var chartPoints: [IntonationChart.Point] = []
        let charting = report != nil
        let flats = self.flats, raw = self.raw, csv = self.csv, json = self.json
        let onHop: (PitchTracker) -> Void = { t in
            // One row: (f0, note, cents, confidence), nil f0 when nothing is shown.
            var row: (Double, String, Double, Double)?
            var confidence = 0.0
            if raw {
                if let e = t.raw {
                    var (_, cents) = tuningPreset.offset(of: e.frequency, reference: ref)
                    var note = Note.nearest(to: e.frequency, reference: ref).note
                    if !system.isPlain {
                        let t = system.target(for: e.frequency, preset: tuningPreset, reference: ref)
                        cents = t.cents
                        note = system.written(tuningPreset.notes.isEmpty ? t.target : note)
                    }
                    row = (e.frequency, note.name(flats: flats), cents, e.confidence)
                }
            } else if let r = t.display {
                row = (r.frequency, r.note.name(flats: flats), r.cents, r.confidence)
            }
            if let r = row { confidence = r.3 }
            if charting, let d = t.display { chartPoints.append(IntonationChart.Point(time: t.time, midi: d.note.midi, cents: d.cents)) }
            if csv {
                out += String(format: "%.4f,", t.time)
                if let r = row {
                    out += String(format: "%.4f,", r.0) + r.1 + String(format: ",%.2f,%.3f\n", r.2, r.3)
                } else {
                    out += ",,,0.000\n"
                }
            } else {
                if json {
                    if !frames.isEmpty { frames += ",\n" }
                    if let r = row {
                        frames +=
                            String(format: "{\"time_s\":%.4f,\"f0_hz\":%.4f,\"note\":\"", t.time, r.0) + r.1
                            + String(format: "\",\"cents\":%.2f,\"confidence\":%.3f}", r.2, confidence)
                    } else {
                        frames += String(format: "{\"time_s\":%.4f,\"f0_hz\":null,\"note\":null,\"cents\":null,\"confidence\":0}", t.time)
                    }
                }
                summary.add(t.display, time: t.time, hop: Double(t.hopSize) / Double(t.sampleRate))
            }
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
        let name = (input as NSString).lastPathComponent
        if json {
            out = jsonReport(
                file: name, duration: tracker.time, summary: summary, preset: tuningPreset,
                reference: ref, system: system, frames: frames)
        } else if !csv {
            out = summary.report(file: name, duration: tracker.time, preset: tuningPreset, reference: ref, flats: flats, system: system)
        }
        if let report {
            var subtitle = "\(tuningPreset.id) · A4 = \(String(format: "%g", ref)) Hz · \(system.temperament.id)"
            if system.transpose != 0 { subtitle += " · written pitch (\(system.transpose > 0 ? "+" : "")\(system.transpose))" }
            if system.stretch != .none { subtitle += " · stretched" }
            let chart = IntonationChart(points: chartPoints, duration: tracker.time, title: name, subtitle: subtitle, flats: flats)
            try Self.draw(chart, to: report, overwrite: overwrite)
        }
        try StandardOutput.write(out)
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
    func jsonReport(
        file: String, duration: Double, summary: TuneSummary, preset: TuningPreset,
        reference: Double, system: TuningSystem, frames: String
    ) -> String {
        var s =
            "{\"file\":" + jsonString(file) + String(format: ",\"duration_s\":%.4f,", duration)
            + "\"preset\":" + jsonString(preset.id) + String(format: ",\"reference_hz\":%g,\"raw\":%@,", reference, raw ? "true" : "false")
            + "\"temperament\":" + jsonString(system.temperament.id) + ",\"tonic\":" + jsonString(Note.sharpNames[system.tonic])
            + ",\"transpose\":\(system.transpose),\n\"notes\":["
        for (i, g) in summary.shown.enumerated() {
            let (mc, mh) = g.settledMean
            s +=
                (i > 0 ? ",\n" : "\n") + String(format: "{\"start_s\":%.4f,\"end_s\":%.4f,\"held_s\":%.4f,", g.start, g.end, g.end - g.start)
                + "\"note\":" + jsonString(g.note.name(flats: flats)) + ",\"target\":" + jsonString(g.target.name(flats: flats))
                + String(format: ",\"mean_hz\":%.4f,\"mean_cents\":%.2f,\"verdict\":", mh, mc)
                + jsonString(TuneSummary.verdict(cents: mc)) + "}"
        }
        return s + "],\n\"frames\":[\n" + frames + "]}\n"
    }

    /// A JSON string literal (quotes, backslashes and control characters escaped).
    func jsonString(_ v: String) -> String {
        var o = "\""
        for u in v.unicodeScalars {
            switch u {
            case "\"": o += "\\\""
            case "\\": o += "\\\\"
            case _ where u.value < 0x20: o += String(format: "\\u%04x", u.value)
            default: o.unicodeScalars.append(u)
            }
        }
        return o + "\""
    }
}
