import ArgumentParser
import Geometry

struct ModesCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "modes", abstract: "List the visualisation modes.")

    func run() throws {
        for m in VisualizationMode.allCases {
            print(m.rawValue.padding(toLength: 13, withPad: " ", startingAt: 0) + m.summary)
        }
    }
}
