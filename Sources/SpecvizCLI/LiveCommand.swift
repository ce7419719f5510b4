import ArgumentParser
import Foundation
import MediaIO
import Specviz
import SpecvizCore

/// `specviz live`: the microphone (ALSA capture) to a live preview, in mic mode (no tilt).
struct LiveCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "live",
        abstract: "Show the visualisation of a live ALSA input (microphone) in real time.",
        discussion: """
            Draws in the terminal (truecolor half blocks, follows the window size) or on \
            a Linux framebuffer (--display fb, /dev/fb0 or --fb PATH). Keys: m / M next \
            / previous mode, t tuner overlay, b BPM overlay, space pause, q quit. Mode \
            and overlays are saved to the config file \
            ($XDG_CONFIG_HOME/specviz/config.json) on exit.

            Examples:
              specviz live
              specviz live --device hw:1,0 --mode spectrogram
              specviz live --display fb --fb /dev/fb0 --stats
            """)

    @OptionGroup var look: LookOptions
    @OptionGroup var analysis: AnalysisOptions
    @OptionGroup var display: DisplayOptions

    @Option(help: "Capture sample rate in Hz.")
    var rate: Int = 48000

    @Option(help: "Stop after this many seconds (default: until q).")
    var duration: Double?

    @Flag(name: [.customShort("y"), .long], help: "With --fb: write over an existing regular file.")
    var overwrite = false

    func validate() throws {
        try InputChecks.number(duration, "--duration", in: 0.001...RenderCommand.maxSeconds, unit: " s")
        if !(8_000...192_000).contains(rate) { throw ValidationError("--rate must be between 8000 and 192000 Hz") }
    }

    func run() throws {
        let config = try Config.load()
        var settings = try look.settings(config: config)
        try analysis.apply(to: &settings, file: config) // the one default: no tilt unless asked for
        let capture = try ALSACapture(device: display.device, sampleRate: rate, channels: 1)
        let pump = LiveAudioPump(capturing: capture)
        try LiveRunner.run(
            settings: settings, pump: pump, display: display, stats: look.stats, duration: duration,
            overwrite: overwrite)
    }
}

/// Where the live preview goes and which sound device it uses (`live` and `render --live`).
struct DisplayOptions: ParsableArguments {
    @Option(help: "Live display: auto, terminal or fb (auto: --fb if given, else the terminal).", transform: LiveDisplayKind.option)
    var display: LiveDisplayKind = .auto

    @Option(help: "ALSA PCM for live sound (playback for render --live, capture for live); `null` needs no hardware.")
    var device: String = "default"

    @Option(help: "Framebuffer device, or a plain file standing in for one (with --fb-size and --fb-bpp).", completion: Completions.anyFile)
    var fb: String?

    @Option(name: .customLong("fb-size"), help: "Size WxH of a framebuffer file.", transform: FrameSize.option)
    var fbSize: FrameSize?

    @Option(name: .customLong("fb-bpp"), help: "Bits per pixel of a framebuffer file: 16, 24 or 32.")
    var fbBpp: Int = 32
}

/// Opens the display, runs the live loop, restores the terminal and saves the settings.
enum LiveRunner {
    static func run(
        settings: RenderSettings, pump: LiveAudioPump, display options: DisplayOptions, stats: Bool,
        duration: Double?, overwrite: Bool
    ) throws {
        var settings = settings
        let useFB: Bool
        switch options.display {
        case .fb: useFB = true
        case .terminal: useFB = false
        case .auto: useFB = options.fb != nil || isatty(STDOUT_FILENO) == 0
        }
        let display: LiveDisplay
        var terminalSink: TerminalSink?
        if useFB {
            let path = options.fb ?? "/dev/fb0"
            // A plain file stands in for a framebuffer: never write over one unasked.
            var st = stat()
            if !overwrite && stat(path, &st) == 0 && (st.st_mode & S_IFMT) == S_IFREG { // follows links
                throw CLIError.notFramebuffer(path: path)
            }
            display = try FramebufferSink(path: path, width: options.fbSize?.width, height: options.fbSize?.height, bitsPerPixel: options.fbBpp)
        } else {
            guard isatty(STDOUT_FILENO) != 0 else {
                throw CLIError.noTerminal
            }
            settings.labels = false // text is unreadable at one pixel per cell
            let sink = TerminalSink()
            terminalSink = sink
            display = sink
        }
        let glyphs = settings.labels || settings.stats ? try? FreeTypeFont() : nil
        let loop = LiveLoop(settings: settings, pump: pump, display: display, clock: SystemClock(), glyphs: glyphs)
        loop.maxDuration = duration
        var session: TerminalSession?
        if isatty(STDIN_FILENO) != 0 && (terminalSink != nil || isatty(STDOUT_FILENO) != 0) {
            session = TerminalSession()
            loop.readKey = { session?.readKey() }
            loop.interrupted = { session?.interrupted ?? false }
        } else {
            Termination.install()
            loop.interrupted = { Termination.isSet }
        }
        if let terminalSink {
            loop.status = { terminalSink.status = $0 }
        } else if stats {
            let tty = isatty(STDERR_FILENO) != 0
            loop.status = { StandardError.write(((tty ? "\r\u{1B}[K" : "") + $0 + (tty ? "" : "\n")).data(using: .utf8)!, level: .info) }
        }
        let result: LiveStats
        do {
            result = try loop.run()
        } catch {
            session?.stop()
            throw error
        }
        session?.stop()
        if stats {
            let s = loop.settings
            let line = String(
                format: (isatty(STDERR_FILENO) != 0 ? "\r\u{1B}[K" : "")
                    + "specviz: live %@ %dx%d: %d frames shown, %d dropped; frame time p50 %.2f ms, p99 %.2f ms, max %.2f ms; thread CPU per frame p50 %.2f ms, p99 %.2f ms\n",
                s.mode.rawValue, s.width, s.height, result.shown, result.dropped,
                result.percentile(0.5) * 1000, result.percentile(0.99) * 1000, result.maxSeconds * 1000,
                result.cpuPercentile(0.5) * 1000, result.cpuPercentile(0.99) * 1000)
            StandardError.write(line.data(using: .utf8)!, level: .info)
        }
        do {
            try saveSettings(loop.settings)
        } catch {
            InputChecks.warn("settings not saved: \(error)")
        }
        if let sig = session?.receivedSignal ?? Termination.received { throw Interrupted(signal: sig) }
    }

    /// Writes what the keys change (mode, overlays) back to the config file, keeping the rest.
    static func saveSettings(_ s: RenderSettings) throws {
        // Read again, at the end: the keys are merged into the file as it is now (another
        // process may have changed it during the session). A file that cannot be read is left
        // as it is (the error says why), never replaced.
        let config = try Config.load()
        var updated = config
        updated.mode = s.mode
        updated.tuner = s.tunerOverlay
        updated.bpm = s.tempoOverlay
        if updated != config { try updated.save() }
    }
}
