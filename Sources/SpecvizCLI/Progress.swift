import Foundation
import MediaIO
import SpecvizCore

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
            let filled = Int(saturating: frac * Double(width))
            let eta = fps > 0 ? Double(total - done) / fps : 0
            line = "[" + String(repeating: "#", count: filled) + String(repeating: "-", count: width - filled) + "]"
            line += String(format: " %3.0f%%  %d/%d frames  %.1f fps  ETA %@", frac * 100, done, total, fps, Self.clock(eta))
        } else {
            line = String(format: "%d frames  %.1f fps", done, fps)
        }
        StandardError.write(("\r" + line + "\u{1B}[K").data(using: .utf8)!, level: .info)
    }

    func finish() {
        guard enabled else { return }
        StandardError.write("\n".data(using: .utf8)!, level: .info)
    }

    static func clock(_ s: Double) -> String {
        let t = Int(saturating: s.rounded())
        return String(format: "%d:%02d", t / 60, t % 60)
    }
}

/// The signal that asked a writing command to stop (SIGINT, SIGTERM, SIGHUP), 0 while none.
nonisolated(unsafe) private var caughtSignal: sig_atomic_t = 0
/// The watchdog's semaphore, by pointer: `&global` would hold Swift's exclusive access to the
/// global for the whole `sem_wait`, and the handler's `sem_post` on that same thread (the
/// signal may land on any thread) is then a conflicting access, which aborts the process.
private let watchdogWake: UnsafeMutablePointer<sem_t> = .allocate(capacity: 1)

/// SIGINT, SIGTERM and SIGHUP for commands that write files (issue 14): the first one sets
/// a flag that the command polls (between frames, blocks); it then cancels its output —
/// which removes every temporary — and exits 128 + the signal (130, 143, 129). Should the
/// command not get there (blocked reading a pipe), a watchdog removes the registered
/// temporaries and exits 2 s later; a second signal makes it do so at once.
enum Termination {
    /// Seconds the watchdog leaves the command to cancel on its own after the first signal.
    nonisolated(unsafe) private static var graceSeconds = 2

    /// Installs the handlers (once). `grace`: seconds before the watchdog removes the
    /// temporaries and exits (0 for a command that never polls).
    static func install(grace: Int = 2) {
        graceSeconds = grace
        _ = installed
    }

    private static let installed: Void = {
        sem_init(watchdogWake, 0, 0)
        let handler: @convention(c) (Int32) -> Void = { sig in
            if caughtSignal == 0 { caughtSignal = sig }
            sem_post(watchdogWake) // async-signal-safe
        }
        for sig in [SIGINT, SIGTERM, SIGHUP] { Glibc.signal(sig, handler) }
        let watchdog = Thread {
            while sem_wait(watchdogWake) != 0 {}
            var deadline = timespec()
            clock_gettime(CLOCK_REALTIME, &deadline)
            deadline.tv_sec += graceSeconds
            while sem_timedwait(watchdogWake, &deadline) != 0 && errno == EINTR {}
            TemporaryFiles.removeAll()
            StandardError.write(Data("specviz: error: \(Interrupted(signal: caughtSignal))\n".utf8), level: .error)
            _exit(128 + caughtSignal)
        }
        watchdog.name = "specviz-signal-watchdog"
        watchdog.start()
    }()

    /// The signal received, if any.
    static var received: Int32? { caughtSignal == 0 ? nil : caughtSignal }

    /// True once a stop signal arrived.
    static var isSet: Bool { caughtSignal != 0 }

    /// Throws `Interrupted` when a stop signal arrived.
    static func check() throws {
        if let received { throw Interrupted(signal: received) }
    }
}
