import ArgumentParser
import MediaIO

struct RenderCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "render", abstract: "Render a visualisation of an audio file.")
    @Argument var input: String
    func run() throws {
        let d = try AudioDecoder(path: input)
        var buf = [Float](repeating: 0, count: 4096)
        var total = 0
        while true {
            let n = try buf.withUnsafeMutableBufferPointer { try d.readMono(into: $0) }
            if n == 0 { break }
            total += n
        }
        print(d.sampleRate, d.channelCount, total, d.codecName)
    }
}
struct ModesCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "modes")
}
