import ArgumentParser
import Foundation
import MediaIO
import SpecvizCore

@main
struct SpecvizCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "specviz",
        abstract: "Turn sound into pictures on the CPU: spectrum, pitch and tempo, rendered to PNG, video or a live preview.",
        discussion: """
            Global option, before or after the command: --log-level quiet|error|warning|info (what goes to stderr: nothing, errors, also warnings, also notes and progress; default info).
            """,
        version: "0.1.0 (git \(BuildInfo.commit))",
        subcommands: [
            // Each command lives in its own file in this folder.
            RenderCommand.self,
            JoinCommand.self,
            AnalyzeCommand.self,
            PeaksCommand.self,
            LiveCommand.self,
            ModesCommand.self,
            TuneCommand.self,
            PresetsCommand.self,
            TempoCommand.self,
            ToneCommand.self,
            BenchCommand.self,
        ])

    /// Runs the command; any failure is one line on stderr and a non-zero exit
    /// (help and --version print as usual).
    static func main() {
        StandardOutput.install()
        BatchChild.linkToParent()
        do {
            let (arguments, level) = try LogLevel.extract(Array(CommandLine.arguments.dropFirst()))
            if let level { LogLevel.current = level }
            var command = try parseAsRoot(NegativeNumbers.attach(arguments))
            try command.run()
            try StandardOutput.flush()
        } catch {
            // Stopped by a signal: the output is already cancelled; exit 128 + the signal.
            if let stop = (error as? Interrupted) ?? Termination.received.map({ Interrupted(signal: $0) }) {
                let stop = Interrupted(signal: stop.signal ?? Termination.received)
                TemporaryFiles.removeAll()
                StandardError.write(Data("specviz: error: \(stop)\n".utf8), level: .error)
                Foundation.exit(stop.exitCode)
            }
            // A value that is not valid — on the command line or in the config file — is a usage
            // error (64, EX_USAGE); ArgumentParser gives 64 for ValidationError and parse errors.
            let code = error is ConfigError ? ExitCode.validationFailure : exitCode(for: error)
            if code == .success || error is CleanExit {
                // Help and --version, through the checked writer (a full disk or a closed pipe
                // is an error, not a trap).
                let text = fullMessage(for: error)
                do {
                    if !text.isEmpty { try StandardOutput.write(text + "\n") }
                } catch {
                    StandardError.write(Data("specviz: error: \(error)\n".utf8), level: .error)
                    Foundation.exit(1)
                }
                Foundation.exit(code.rawValue)
            }
            let text = (message(for: error).split(separator: "\n").first.map(String.init) ?? "\(error)").escapingControlCharacters
            StandardError.write(Data("specviz: error: \(text)\n".utf8), level: .error)
            Foundation.exit(code.rawValue == 0 ? 1 : code.rawValue)
        }
    }
}
