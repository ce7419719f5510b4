import Foundation

/// A fresh folder of a test's own under the system's temporary folder, removed with what
/// it holds when the test is done.
public enum ScratchFolder {
    /// Creates `…/specviz-<tag>-<UUID>` and returns its path.
    public static func make(_ tag: String) throws -> String {
        let dir = NSTemporaryDirectory() + "/specviz-\(tag)-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        return dir
    }

    /// Removes the folder and everything in it (ignores errors).
    public static func remove(_ dir: String) { try? FileManager.default.removeItem(atPath: dir) }
}
