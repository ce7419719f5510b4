import ArgumentParser
import Foundation
import MediaIO
import SpecvizCore

/// Options of `render` for many files at once.
struct BatchOptions: ParsableArguments {
    @Option(
        name: [.customShort("j"), .long],
        help: "With several inputs: files rendered at once (default: one per core, each child using cores/j threads).")
    var jobs: Int?

    @Option(
        name: .customLong("inputs-from"), help: "Also render the files listed in FILE, one per line ('-' reads stdin; # starts a comment).",
        completion: Completions.anyFile)
    var inputsFrom: String?

    @Option(
        help:
            "Machine-readable progress to FILE or - (standard output), in ffmpeg's -progress key=value form (frame=, out_time=, speed=, progress=continue|end).",
        completion: Completions.anyFile)
    var progress: String?

    @Flag(
        name: .customLong("skip-existing"),
        help:
            "With several inputs: skip a file whose output exists and is complete (opens as media with a duration); an incomplete one is rendered again over.")
    var skipExisting = false

    @Option(help: "With several inputs: run a failed render up to N more times (not for usage errors).")
    var retries: Int = 0

    @Option(name: .customLong("x264-threads"), help: .hidden)
    var x264Threads: Int = 0

    func validate() throws {
        if let jobs, jobs < 1 { throw ValidationError("-j must be ≥ 1") }
        if retries < 0 { throw ValidationError("--retries must be ≥ 0") }
        if x264Threads < 0 { throw ValidationError("--x264-threads must be ≥ 0") }
    }

    /// The default number of files rendered at once: one per core. Each render then gets
    /// cores/j rasteriser threads, so the machine is busy but not oversubscribed (x264 keeps
    /// its fixed thread count, so the bytes are the same whatever j is).
    static func defaultJobs(cores: Int, files: Int) -> Int { max(1, min(cores, files)) }
}

extension RenderCommand {
    /// True when this render is a batch: several inputs, a list from --inputs-from, or an
    /// output pattern with a {placeholder}. A batch's child (`BatchChild.isChild`) renders the
    /// one file it is given to the name it is given: braces in it are not placeholders any more.
    var isBatch: Bool {
        if BatchChild.isChild && inputs.count == 1 && batch.inputsFrom == nil { return false }
        return inputs.count != 1 || batch.inputsFrom != nil
            || ["{stem}", "{name}", "{dir}", "{index}"].contains { (output ?? "").contains($0) }
    }

    /// Every input named on the command line and in --inputs-from, in order.
    func batchInputs() throws -> [String] {
        var all = inputs
        if let list = batch.inputsFrom {
            let text: String
            if list == "-" {
                text = String(decoding: FileHandle.standardInput.readDataToEndOfFile(), as: UTF8.self)
            } else {
                text = String(decoding: try InputChecks.readSmallFile(list, limit: 16 << 20, what: "--inputs-from"), as: UTF8.self)
            }
            for line in text.split(whereSeparator: \.isNewline) {
                let name = line.trimmingCharacters(in: .whitespaces)
                if !name.isEmpty && !name.hasPrefix("#") { all.append(name) }
            }
        }
        return all
    }

    /// The output of input number `index` (from 1): the -o pattern with {stem} (file name
    /// without extension), {name}, {dir} (the input's folder) and {index} filled in. One
    /// pass over the pattern: what is filled in is never read again (a file named
    /// `{dir}.wav` is just a name).
    static func batchOutput(_ pattern: String, input: String, index: Int) -> String {
        let url = URL(fileURLWithPath: input)
        let name = url.lastPathComponent
        let stem = url.deletingPathExtension().lastPathComponent
        let dir = (input as NSString).deletingLastPathComponent
        let values = ["{stem}": stem, "{name}": name, "{dir}": dir.isEmpty ? "." : dir, "{index}": String(index)]
        var out = ""
        var rest = pattern[...]
        while let open = rest.firstIndex(of: "{") {
            out += rest[..<open]
            if let close = rest[open...].firstIndex(of: "}"), let value = values[String(rest[open...close])] {
                out += value
                rest = rest[rest.index(after: close)...]
            } else {
                out += "{"
                rest = rest[rest.index(after: open)...]
            }
        }
        return out + rest
    }

    /// Refuses, before any child starts, a batch where an output is one of the inputs or two
    /// outputs are one file (compared by device and inode, and by link-free path).
    static func checkBatchFiles(_ items: [BatchRunner.Item], pictures: [String] = []) throws {
        let outputs = items.map { OutputKeys($0.output) }
        let inputs = items.filter { $0.input != "-" && !$0.input.hasPrefix("pipe:") }.map(\.input) + pictures
        for (k, out) in outputs.enumerated() {
            if let input = inputs.first(where: { out.matches($0) }) {
                throw ValidationError("the output '\(items[k].output)' is the input '\(input)' of this batch: change -o")
            }
            for j in 0..<k where out.matches(outputs[j]) {
                throw ValidationError(
                    "'\(items[j].input)' and '\(items[k].input)' would both write '\(items[k].output)' (use {dir} or {index} in -o)")
            }
        }
    }

    /// The command line of one child: this one without the inputs, -o, -j and --inputs-from.
    func childArguments(threads: Int) -> [String] {
        // The child speaks at the default level: the parent reads its error line.
        let all = Array(CommandLine.arguments.dropFirst())
        var args = (try? LogLevel.extract(all).arguments) ?? all
        if let r = args.firstIndex(of: "render") { args.removeFirst(r + 1) }
        var kept: [String] = []
        var remaining = inputs[...]
        var i = 0
        var afterTerminator = false
        let withValue: Set<String> = ["-o", "--output", "-j", "--jobs", "--inputs-from", "--progress"]
        while i < args.count {
            let a = args[i]
            i += 1
            if !afterTerminator {
                if a == "--" { afterTerminator = true; continue }
                if withValue.contains(a) { i += 1; continue }
                if ["--output=", "--jobs=", "--inputs-from=", "--progress="].contains(where: { a.hasPrefix($0) }) { continue }
                if a.hasPrefix("-j"), Int(a.dropFirst(2)) != nil { continue }
            }
            if let first = remaining.first, a == first { remaining = remaining.dropFirst(); continue }
            kept.append(a)
        }
        if !kept.contains("--threads") && !kept.contains(where: { $0.hasPrefix("--threads=") }) {
            kept += ["--threads", String(threads)]
        }
        // x264 keeps its fixed thread count: the bytes must not depend on cores/j.
        return ["render"] + kept + ["--progress", "-"]
    }

    /// `render a.flac b.mp3 … -o 'out/{stem}.mp4' [-j N]`.
    func runBatch() throws {
        if live { throw ValidationError("--live plays one file: give exactly one input") }
        guard let pattern = output else { throw ValidationError("missing -o OUTPUT (e.g. -o 'out/{stem}.mp4')") }
        if segment != nil || at != nil || dumpFrame != nil {
            throw ValidationError("--segment, --at and --dump-frame take one input")
        }
        let files = try batchInputs()
        if files.isEmpty { throw ValidationError("no input files (give audio files or --inputs-from FILE)") }
        if files.count > 1 && !pattern.contains("{") {
            throw ValidationError("several inputs need an output pattern such as -o 'out/{stem}.mp4'")
        }
        let settings = try look.settings(config: Config.load())
        if !quiet, let note = look.overlayNote(for: settings) { InputChecks.note(note) }
        let fps = settings.fps
        // INT, TERM (a scheduler stopping the batch) and HUP stop the children too; they remove
        // their partial files, and the batch exits 128 + the signal.
        Termination.install()
        let named = files.enumerated().map { n, file in
            BatchRunner.Item(input: file, output: Self.batchOutput(pattern, input: file, index: n + 1), expectedFrames: nil)
        }
        try Self.checkBatchFiles(named, pictures: art.pictureFiles)
        var items: [BatchRunner.Item] = []
        for (file, out) in named.map({ ($0.input, $0.output) }) {
            try Termination.check()
            // Every input is read by a child of its own; a FIFO or a device (which may never
            // deliver, and can be read once) would hold a slot and stall the inputs after it.
            if let why = InputPolicy.regularFileProblem(file) { throw CLIError.batchNeedsRegularFile(problem: why) }
            var frames: Int?
            if let d = (try? AudioDecoder(path: file))?.estimatedDuration {
                let span = min(d, to ?? d) - (from ?? 0)
                frames = max(0, Int((span * Double(fps)).rounded(.up)))
            }
            var item = BatchRunner.Item(input: file, output: out, expectedFrames: frames)
            if batch.skipExisting && AtomicFile.exists(out) {
                if Self.isCompleteOutput(out) { item.skip = true } else { item.replace = true }
            }
            items.append(item)
        }
        // Output folders named by the pattern are created (nothing else is written here).
        // Those that did not exist are removed again if the batch stops or fails and leaves them empty.
        let made = Self.makeFolders(items.map { ($0.output as NSString).deletingLastPathComponent })
        defer { for dir in made.reversed() { rmdir(dir) } }
        let cores = ProcessInfo.processInfo.activeProcessorCount
        let jobs = batch.jobs ?? BatchOptions.defaultJobs(cores: cores, files: items.count)
        let threads = min(LookOptions.maxThreads, max(1, cores / max(1, min(jobs, items.count))))
        let runner = BatchRunner(
            items: items, jobs: jobs, childArguments: childArguments(threads: threads),
            showProgress: !quiet && isatty(STDERR_FILENO) != 0, quiet: quiet,
            cancelled: { Termination.isSet })
        runner.stopSignal = { Termination.received ?? SIGINT }
        runner.retries = batch.retries
        let failures = runner.run()
        try Termination.check()
        if !failures.isEmpty {
            // The summary: one line per failed file (naming it), then the count.
            for (file, why) in failures {
                let text = why.contains(file) ? why : "\(file): \(why)"
                StandardError.write(Data("specviz: error: \(text.escapingControlCharacters)\n".utf8), level: .error)
            }
            throw CLIError.batchFailed(failed: failures.count, of: items.count)
        }
    }

    /// True when `path` is a finished output a resumed batch can keep: a non-empty regular
    /// file (links followed), not one of our `.svz-` temporaries, that libavformat opens and
    /// finds a duration in (from the header: a truncated MP4 has none). A PNG is complete
    /// when non-empty (it is written whole, by rename).
    static func isCompleteOutput(_ path: String) -> Bool {
        var st = stat()
        guard stat(path, &st) == 0, (st.st_mode & S_IFMT) == S_IFREG, st.st_size > 0 else { return false }
        let name = (path as NSString).lastPathComponent
        if name.hasPrefix(StaleTemporaries.prefix) { return false }
        if name.lowercased().hasSuffix(".png") { return true }
        return MediaProbe.headerDuration(path: path) != nil
    }

    /// Creates the folders (and their parents) that do not exist yet; returns those it made,
    /// parents first. `rmdir` on them in reverse removes only what stayed empty.
    static func makeFolders(_ dirs: [String]) -> [String] {
        var made: [String] = []
        for dir in dirs where !dir.isEmpty {
            var missing: [String] = []
            var d = dir
            while !d.isEmpty && d != "/" && d != "." && !FileManager.default.fileExists(atPath: d) {
                missing.append(d)
                d = (d as NSString).deletingLastPathComponent
            }
            for m in missing.reversed() where mkdir(m, 0o777) == 0 { made.append(m) }
        }
        return made
    }
}
