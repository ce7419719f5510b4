import ArgumentParser
import Foundation
import Tuning

/// `specviz presets`: the tuning presets, grouped by instrument family (seed 004 §3.6).
struct PresetsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "presets",
        abstract: "List the tuning presets (use an id with `specviz tune --preset` or `specviz tone --preset`).")

    @Flag(help: "Name notes with flats (Db3) instead of sharps (C#3).")
    var flats = false

    @Option(help: "Only this group (e.g. bass, lute; a prefix of the group name is enough).", transform: PresetGroups.option)
    var group: PresetGroups?

    func run() throws {
        let groups = group?.groups ?? PresetGroup.allCases
        var out = ""
        for g in groups {
            let list = TuningPreset.presets(in: g)
            out += "\(g.name) (\(list.count))\n"
            let width = list.map(\.id.count).max() ?? 0
            for p in list {
                let notes: String
                if p.isChromatic {
                    notes = "any note, nearest semitone"
                } else if p.group == .woodwind || p.group == .reed || p.group == .brass {
                    notes = "\(p.notes.first!.name(flats: flats))–\(p.notes.last!.name(flats: flats)) chromatic"
                } else {
                    notes = p.notes.map { $0.name(flats: flats) }.joined(separator: " ")
                }
                out += "  " + p.id.padding(toLength: width, withPad: " ", startingAt: 0) + "  \(p.name): \(notes)\n"
            }
        }
        out +=
            "\(TuningPreset.all.count) presets. Reference pitch: --reference "
            + ReferencePitch.presets.map { String(format: "%g", $0) }.joined(separator: ", ") + " or any 400–480 Hz.\n"
        try StandardOutput.write(out)
    }
}

/// `presets --group PREFIX`: the groups whose name (or id) starts with it, at least one.
struct PresetGroups: OptionValue {
    static let noun = "preset group"
    var groups: [PresetGroup]
    init(parsing text: String) throws {
        let g = text.lowercased()
        groups = PresetGroup.allCases.filter { $0.name.lowercased().hasPrefix(g) || "\($0)".lowercased().hasPrefix(g) }
        if groups.isEmpty {
            throw ValidationError("no preset group '\(g)'; groups: " + PresetGroup.allCases.map(\.name).joined(separator: ", "))
        }
    }
}
