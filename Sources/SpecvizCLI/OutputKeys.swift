import MediaIO

/// What identifies a file a command writes, to compare it with its inputs and other outputs
/// (issue 36): the file it ends up in (a link's target), by device and inode when it exists
/// and by its link-free path in any case.
struct OutputKeys {
    let identity: FileIdentity?
    let canonical: String?
    let final: String

    init(_ path: String) {
        var final = path
        if case .file(let f)? = try? OutputTarget.resolve(path) { final = f }
        identity = OutputTarget.identity(final)
        canonical = OutputTarget.canonical(final)
        self.final = final
    }

    /// True when `other` (an input, or another output) is this file.
    func matches(_ other: String) -> Bool {
        if let identity, let theirs = OutputTarget.identity(other), identity == theirs { return true }
        if let canonical, let theirs = OutputTarget.canonical(other), canonical == theirs { return true }
        return false
    }

    /// True when both name the same file.
    func matches(_ other: OutputKeys) -> Bool {
        if final == other.final { return true }
        if let identity, let theirs = other.identity, identity == theirs { return true }
        if let canonical, let theirs = other.canonical, canonical == theirs { return true }
        return false
    }
}
