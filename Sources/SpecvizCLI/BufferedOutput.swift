/// Standard output written a few tens of kilobytes at a time (`StandardOutput.write`), so a
/// long listing is never held whole in memory. Call `flush` at the end.
struct BufferedOutput {
    /// Bytes gathered before a write.
    static let capacity = 64 * 1024
    private var pending = ""

    init() { pending.reserveCapacity(Self.capacity + 256) }

    mutating func write(_ text: String) throws {
        pending += text
        if pending.utf8.count >= Self.capacity { try flush() }
    }

    mutating func flush() throws {
        guard !pending.isEmpty else { return }
        try StandardOutput.write(pending)
        pending.removeAll(keepingCapacity: true)
    }
}
