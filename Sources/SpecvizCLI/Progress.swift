import Foundation

/// A one-line progress bar with ETA on stderr (only when stderr is a terminal).
final class ProgressBar {
    let enabled: Bool
    let start = Date()
    var lastDraw = Date.distantPast

    init(enabled: Bool) { self.enabled = enabled }

    func update(done: Int, total: Int?) {
        guard enabled else { return }
        let now = Date()
        guard now.timeIntervalSince(lastDraw) > 0.1 || done == total else { return }
        lastDraw = now
        let elapsed = now.timeIntervalSince(start)
        let fps = Double(done) / max(elapsed, 1e-6)
        var line: String
        if let total, total > 0 {
            let frac = min(1, Double(done) / Double(total))
            let width = 30
            let filled = Int(frac * Double(width))
            let eta = fps > 0 ? Double(total - done) / fps : 0
            line = "[" + String(repeating: "#", count: filled) + String(repeating: "-", count: width - filled) + "]"
            line += String(format: " %3.0f%%  %d/%d frames  %.1f fps  ETA %@", frac * 100, done, total, fps, Self.clock(eta))
        } else {
            line = String(format: "%d frames  %.1f fps", done, fps)
        }
        FileHandle.standardError.write(("\r" + line + "\u{1B}[K").data(using: .utf8)!)
    }

    func finish() {
        guard enabled else { return }
        FileHandle.standardError.write("\n".data(using: .utf8)!)
    }

    static func clock(_ s: Double) -> String {
        let t = Int(s.rounded())
        return String(format: "%d:%02d", t / 60, t % 60)
    }
}

/// Set when the user presses Ctrl-C, so a render stops cleanly and leaves no partial file.
final class InterruptFlag: @unchecked Sendable {
    nonisolated(unsafe) static var shared = InterruptFlag()
    private(set) var isSet = false
    private var source: DispatchSourceSignal?

    static func install() -> InterruptFlag {
        signal(SIGINT, SIG_IGN)
        let s = DispatchSource.makeSignalSource(signal: SIGINT, queue: .global())
        s.setEventHandler { shared.isSet = true }
        s.resume()
        shared.source = s
        return shared
    }
}
