import Analysis
import ArgumentParser
import Foundation
import Geometry
import Specviz
import SpecvizCore
import Tuning

/// What the shell completes for option values (issue 40 item 4), built from the catalogues
/// the options parse against, so a new mode, preset or scale completes without an edit here.
enum Completions {
    static let modes = CompletionKind.list(VisualizationMode.allCases.map(\.rawValue))
    static let palettes = CompletionKind.list(Palette.all.map(\.name))
    static let scales = CompletionKind.list(FrequencyScale.all.map(\.description))
    static let windows = CompletionKind.list(WindowKind.names)
    static let weightings = CompletionKind.list(Weighting.allCases.map(\.rawValue))
    static let presets = CompletionKind.list(TuningPreset.all.map(\.id))
    static let meters = CompletionKind.list(TunerMeter.allCases.map(\.rawValue))

    /// Audio and video inputs, outputs, pictures: any file (FFmpeg reads too many kinds to list).
    static let anyFile = CompletionKind.file()

    /// --temperament: the built-in names and the Scala files (`.scl`) beside the word typed.
    static let temperaments = CompletionKind.custom { _, _, prefix in
        Temperament.builtIn.map(\.id).filter { $0.hasPrefix(prefix.lowercased()) } + scalaFiles(matching: prefix)
    }

    /// Folders and `.scl` files whose path starts with `prefix` (folders end in `/`).
    static func scalaFiles(matching prefix: String) -> [String] {
        let slash = prefix.lastIndex(of: "/")
        let folder = slash.map { String(prefix[...$0]) } ?? ""
        let fm = FileManager.default
        guard let names = try? fm.contentsOfDirectory(atPath: folder.isEmpty ? "." : folder) else { return [] }
        var out: [String] = []
        for name in names.sorted() where !name.hasPrefix(".") {
            let path = folder + name
            guard path.hasPrefix(prefix) else { continue }
            var isDirectory: ObjCBool = false
            if fm.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue {
                out.append(path + "/")
            } else if name.lowercased().hasSuffix(".scl") {
                out.append(path)
            }
        }
        return out
    }
}
