import ArgumentParser

@main
struct SpecvizCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "specviz",
        abstract: "Turn sound into pictures on the CPU: spectrum, pitch and tempo, rendered to PNG, video or a live preview.",
        version: "0.1.0",
        subcommands: [
            // Each command lives in its own file in this folder.
            RenderCommand.self,
            LiveCommand.self,
            ModesCommand.self,
            TempoCommand.self,
            ToneCommand.self,
        ])
}
