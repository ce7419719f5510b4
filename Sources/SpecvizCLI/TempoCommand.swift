import Analysis
import ArgumentParser
import Foundation
import MediaIO
import SpecvizCore

/// `specviz tempo FILE [--csv | --json]` (SPEC §1 and §6): runs the real-time tempo
/// tracker over a file as if it were playing, and prints its display timeline.
struct TempoCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "tempo",
        abstract: "Detect the tempo (BPM), beats, downbeats and metre of an audio file.",
        discussion: """
            Without a flag, prints one line: the tempo at the level a listener taps, one segment \
            per tempo change ("128.0 BPM, then 100.0 from 21.3 s"), and the metre when known. \
            --beats prints `time_s,position`, one row per beat (position 1 = downbeat, empty when \
            unknown), from the whole track; with --causal the beats the live view predicts. \
            --json prints {"bpm", "confidence", "tempo_from", "meter", "level", "segments", "beats", "timeline"}. \
            --csv prints the live display, `time_s,bpm,confidence`, one row per display update \
            (~2 per second; causal, at the metrical level the overlay shows); bpm is empty while \
            nothing is displayed; time_s is when the value is on screen in real-time playback. \
            --range LO:HI folds the tempo, the display and the beats into a range instead (e.g. 80:160).
            """)

    @Argument(help: "Audio or video file to analyse (- for standard input).", completion: Completions.anyFile)
    var input: String

    @Flag(name: .customLong("allow-playlists"), help: "Follow an input playlist or concat list (HLS, ffconcat) naming local files; never URLs.")
    var allowPlaylists = false

    @OptionGroup var channelOption: ChannelOption

    @Flag(help: "Print the display timeline as CSV.")
    var csv = false

    @Flag(help: "Print the estimate and the timeline as JSON.")
    var json = false

    @Flag(
        help:
            "With --csv: print the detector's unsmoothed estimate, onset sharpness, split-half check, new energy and harmonic movement instead of the display.")
    var raw = false

    @Flag(help: "Print the beats as CSV `time_s,position` (position 1 = downbeat, empty when unknown).")
    var beats = false

    @Flag(help: "With --beats or --json: the beats the live view shows (causal, predicted) instead of the offline ones.")
    var causal = false

    @Option(name: .shortAndLong, help: "Output file (default: standard output), e.g. beats.json for `render --beats-from`.", completion: Completions.anyFile)
    var output: String?

    @Flag(name: [.customShort("y"), .long], help: "Overwrite the output if it exists.")
    var overwrite = false

    @Option(
        help: ArgumentHelp("Fold the tempo into this BPM range, e.g. 80:160 (default: the metrical level a listener taps).", valueName: "lo:hi"),
        transform: BPMRange.option)
    var range: BPMRange?

    func validate() throws {
        if [csv, json, beats].filter({ $0 }).count > 1 { throw ValidationError("choose one of --csv, --json and --beats") }
        if raw && !csv { throw ValidationError("--raw needs --csv") }
        if causal && !(beats || json) { throw ValidationError("--causal needs --beats or --json") }
    }

    /// What the live view shows at update `u`: the displayed tempo at the tracker's metrical
    /// level (as the overlay draws it), or folded into `--range` when one is given.
    func shown(_ u: TempoUpdate) -> Double? {
        guard let d = u.display else { return nil }
        let bpm = d.bpm * u.level
        return range.map { bpm * BeatAnalyzer.foldFactor(bpm, into: $0.bpm) } ?? bpm
    }

    func run() throws {
        if let output {
            try AtomicFile.checkOutput(output, overwrite: overwrite)
            // The analysis does not poll: a signal removes the temporary and exits at once.
            Termination.install(grace: 0)
        }
        // The display timeline alone (--csv) needs only the causal tracker.
        let analyzer = try BlockBeatAnalyzer.run(
            path: input, allowPlaylists: allowPlaylists, beats: !csv, range: range?.bpm,
            channels: channelOption.channels, recordLevel: causal && json, reviewsPhase: causal)
        var analysis = csv ? BeatAnalysis(updates: analyzer.updates) : analyzer.finish()
        if causal { analysis.beats = analyzer.tracker.predictedBeats.map { Beat(time: $0) } }
        let summary = TempoSummary(updates: analysis.updates, duration: analyzer.tracker.time)
        // Row by row, through the JSON writer's sink: an output of hours is never one string
        // in memory.
        let out = try DataSink(path: output)
        do {
            try write(analysis, summary: summary, levelReadings: analyzer.tracker.levelReadings, to: out)
            try out.finish()
        } catch {
            out.cancel()
            throw error
        }
    }

    private func write(_ analysis: BeatAnalysis, summary: TempoSummary, levelReadings: [LevelReading], to out: DataSink) throws {
        if beats {
            try out.write("time_s,position\n")
            for b in analysis.beats { try out.write(String(format: "%.4f,", b.time) + (b.position.map { String($0) } ?? "") + "\n") }
        } else if csv {
            try writeCSV(analysis.updates, to: out)
        } else if json {
            try writeJSON(analysis, summary: summary, levelReadings: levelReadings, to: out)
        } else {
            let name = (input as NSString).lastPathComponent
            if let first = analysis.segments.first {
                var line = String(format: "%.1f BPM", first.bpm)
                for s in analysis.segments.dropFirst() { line += String(format: ", then %.1f from %.1f s", s.bpm, s.start) }
                if let meter = analysis.meter { line += " in \(meter)" }
                if analysis.fromWholeTrack {
                    // No display led it: say so rather than print a confidence of 0.
                    try out.write("\(name): \(line) (heard over the whole track; the live display showed none)\n")
                } else {
                    try out.write(
                        String(
                            format: "%@: %@ (confidence %.0f%%, shown %.0f%% of the time)\n",
                            name, line, summary.confidence * 100, summary.shownFraction * 100))
                }
            } else {
                try out.write("\(name): no steady beat detected\n")
            }
        }
    }

    /// `--csv`: the display timeline (with `--raw`, the detector's readings), a row per update.
    private func writeCSV(_ updates: [TempoUpdate], to out: DataSink) throws {
        try out.write(raw ? "time_s,bpm,confidence,sharpness,corroborated,pulse,peakiness,novelty,movement\n" : "time_s,bpm,confidence\n")
        for u in updates {
            if raw {
                let bpm = u.raw.map { String(format: "%.2f", $0.bpm) } ?? ""
                try out.write(
                    String(format: "%.4f,", u.time) + bpm
                        + String(
                            format: ",%.3f,%.3f,%d,%.3f,%.3f,%.3f,%.3f\n", u.raw?.confidence ?? 0, u.raw?.sharpness ?? 0,
                            (u.raw?.corroborated ?? false) ? 1 : 0,
                            u.raw?.pulse ?? 0, u.raw?.peakiness ?? 0, u.raw?.novelty ?? 0, u.raw?.movement ?? 0))
            } else {
                let bpm = shown(u).map { String(format: "%.2f", $0) } ?? ""
                try out.write(String(format: "%.4f,", u.time) + bpm + String(format: ",%.3f\n", u.display?.confidence ?? 0))
            }
        }
    }

    /// `--json`: the estimate, the segments, the beats and the display timeline, on one line;
    /// with `--causal`, the live level model's readings too.
    private func writeJSON(_ analysis: BeatAnalysis, summary: TempoSummary, levelReadings: [LevelReading], to out: DataSink) throws {
        let w = JSONWriter(to: out, separators: .spaced)
        func number(_ x: Double?, _ decimals: Int) throws {
            if let x { try w.value(x, decimals: decimals) } else { try w.null() }
        }
        try w.beginObject()
        try w.key("bpm")
        try number(analysis.bpm, 2)
        try w.member("confidence", summary.confidence, decimals: 3)
        // What the tempo came from: the live display's runs, or (legato music the display never
        // showed) a pulse heard over the whole track, whose confidence is then 0.
        if analysis.bpm != nil { try w.member("tempo_from", analysis.fromWholeTrack ? "whole_track" : "display") }
        try w.key("meter")
        if let meter = analysis.meter { try w.value("\(meter)") } else { try w.null() }
        if !analysis.levelProbabilities.isEmpty {
            // The metrical level and what it was read from (`LevelModel`).
            try w.key("level")
            try w.beginObject()
            try w.member("factor", analysis.levelFactor, decimals: 1)
            try writeLevelModel(analysis.levelProbabilities, analysis.levelInputs, to: w)
            try w.endObject()
        }
        if !analysis.phaseReadings.isEmpty {
            // The grid's phase decisions and what they were read from (`PhaseModel`).
            try w.key("phase")
            try w.beginArray()
            for r in analysis.phaseReadings {
                try w.beginObject()
                try writeArray(r.beats, key: "beats", decimals: 4, to: w)
                try writeArray(r.inputs, key: "inputs", to: w)
                try w.member("off_beat", r.offBeat, decimals: 3)
                try w.endObject()
            }
            try w.endArray()
        }
        if let r = analysis.downbeatReading {
            // The 4/4 downbeat decision and its cues per phase (`BeatAnalyzer.DownbeatReading`).
            try w.key("downbeat")
            try w.beginObject()
            try writeArray(r.beats, key: "beats", decimals: 4, to: w)
            try w.key("cues")
            try w.beginArray()
            for phase in r.cues { try writeArray(phase, to: w) }
            try w.endArray()
            try w.member("phase", Double(r.phase), decimals: 0)
            try w.endObject()
        }
        try w.key("segments")
        try w.beginArray()
        for s in analysis.segments {
            try w.beginObject()
            try w.member("start", s.start, decimals: 3)
            try w.member("end", s.end, decimals: 3)
            try w.member("bpm", s.bpm, decimals: 2)
            try w.endObject()
        }
        try w.endArray()
        try w.key("beats")
        try w.beginArray()
        for b in analysis.beats {
            try w.beginArray()
            try w.value(b.time, decimals: 4)
            if let p = b.position { try w.value(p) } else { try w.null() }
            try w.endArray()
        }
        try w.endArray()
        try w.key("timeline")
        try w.beginArray()
        for u in analysis.updates {
            try w.beginArray()
            try w.value(u.time, decimals: 4)
            try number(shown(u), 2)
            try w.value(u.display?.confidence ?? 0, decimals: 3)
            try w.endArray()
        }
        try w.endArray()
        if causal {
            // What the live level was read from (`TempoTracker.updateLevel`), for its fit.
            try w.key("level_readings")
            try w.beginArray()
            for r in levelReadings {
                try w.beginObject()
                try w.member("time", r.time, decimals: 4)
                try w.member("tempo", r.tempo, decimals: 3)
                try w.member("level", r.level, decimals: 1)
                try writeLevelModel(r.probabilities, r.inputs, to: w)
                try w.endObject()
            }
            try w.endArray()
        }
        try w.endObject()
        w.newline()
        try w.flush()
    }
}

/// The level model's `"probabilities"` (P(½), P(1), P(2)) and `"inputs"` members, offline and live.
private func writeLevelModel(_ probabilities: [Double], _ inputs: [Double], to w: JSONWriter) throws {
    try writeArray(probabilities, key: "probabilities", decimals: 4, to: w)
    try writeArray(inputs, key: "inputs", decimals: 5, to: w)
}

/// `xs` as a JSON array (under `key` when given): each number with `decimals` places, or
/// with six significant digits.
private func writeArray(_ xs: [Double], key: String? = nil, decimals: Int? = nil, to w: JSONWriter) throws {
    if let key { try w.key(key) }
    try w.beginArray()
    for x in xs {
        if let decimals { try w.value(x, decimals: decimals) } else { try w.value(x, significant: 6) }
    }
    try w.endArray()
}

/// The tempo "the display would show for most of the file" (SPEC §1): the time-weighted
/// median of the displayed values (robust to a slow drift and to a brief wrong reading),
/// or nil when a tempo is shown for less than a quarter of the file.
struct TempoSummary {
    var bpm: Double?
    var confidence = 0.0
    var shownFraction = 0.0

    init(updates: [TempoUpdate], duration: Double) {
        guard duration > 0, !updates.isEmpty else { return }
        // Each display value holds from its update to the next (or the end).
        var spans: [(bpm: Double, confidence: Double, seconds: Double)] = []
        for (i, u) in updates.enumerated() {
            guard let d = u.display else { continue }
            let end = i + 1 < updates.count ? updates[i + 1].time : duration
            spans.append((d.bpm, d.confidence, max(0, end - u.time)))
        }
        let shown = spans.reduce(0) { $0 + $1.seconds }
        shownFraction = shown / duration
        guard shownFraction >= 0.25, shown > 0 else { return }
        spans.sort { $0.bpm < $1.bpm }
        var accumulated = 0.0
        var median = spans[spans.count - 1].bpm
        for s in spans {
            accumulated += s.seconds
            if accumulated >= shown / 2 { median = s.bpm; break }
        }
        bpm = median
        let near = spans.filter { abs($0.bpm - median) <= 2 }
        let weight = near.reduce(0) { $0 + $1.seconds }
        confidence = weight > 0 ? near.reduce(0) { $0 + $1.confidence * $1.seconds } / weight : 0
    }
}

extension BlockBeatAnalyzer {
    /// A beat analyzer that has heard the whole of the file at `path` (decoded to mono).
    /// `beats: false`: the causal tracker only (its updates; no beats from `finish`).
    /// The input is opened like every input (`InputChecks.openDecoder`: local files only).
    static func run(
        path: String, allowPlaylists: Bool = false, quiet: Bool = false, beats: Bool = true,
        range: ClosedRange<Double>? = nil, channels: ChannelChoice = .mix, recordLevel: Bool = false,
        reviewsPhase: Bool = false
    ) throws -> BlockBeatAnalyzer {
        let decoder = try InputChecks.openDecoder(path, allowPlaylists: allowPlaylists, quiet: quiet, channels: channels)
        let analyzer = BlockBeatAnalyzer(sampleRate: decoder.sampleRate, beats: beats, range: range, reviewsPhase: reviewsPhase)
        analyzer.tracker.recordsLevel = recordLevel
        // Each chunk is shared out to two threads (`BeatAnalyzer.process`): 64 K samples hand off
        // 8 times less often than the decoder's default, for 5 % less CPU on a 40 s file.
        try decoder.forEachMonoChunk(chunk: 65536) { analyzer.process($0) }
        return analyzer
    }
}

extension BeatAnalyzer {
    /// The offline beat analysis of the file at `path` (render's look-ahead pre-pass), in
    /// blocks for a long file (`BlockBeatAnalyzer`).
    static func analyse(path: String, allowPlaylists: Bool = false, channels: ChannelChoice = .mix) throws -> BeatAnalysis {
        try BlockBeatAnalyzer.run(path: path, allowPlaylists: allowPlaylists, quiet: true, channels: channels).finish()
    }
}

/// `tempo --range LO:HI`: "80:160" → 80...160 BPM (an octave at least, so every tempo folds
/// into it; 20 ≤ LO, HI ≤ 400), parsed once where it is read.
struct BPMRange: OptionValue, Equatable {
    static let noun = "range"
    var bpm: ClosedRange<Double>
    init(parsing text: String) throws {
        guard let (lo, hi) = numberPair(text), lo >= 20, hi <= 400, hi >= 2 * lo else {
            throw ValidationError("--range wants LO:HI in BPM with 20 <= LO and 2*LO <= HI <= 400, e.g. 80:160")
        }
        bpm = lo...hi
    }
}
