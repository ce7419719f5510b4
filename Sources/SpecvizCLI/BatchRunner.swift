import Foundation
import SpecvizCore

/// Renders many files, `jobs` at a time, each in its own `specviz render` process (so one
/// bad file cannot stop or crash the others), showing one progress line per file and a
/// total with ETA on stderr. Children report progress as `--progress -` blocks (frame=, total_frames=) on
/// their stdout and fail with one `specviz: error: …` line on their stderr.
final class BatchRunner: @unchecked Sendable {
    struct Item {
        let input: String
        let output: String
        /// Frames expected (from the file's duration; nil when unknown or unreadable).
        let expectedFrames: Int?
        /// --skip-existing found the output complete: not rendered, counted as skipped.
        var skip = false
        /// --skip-existing found an output that is not complete: rendered again over it (-y).
        var replace = false
    }

    enum State { case pending, running, skipped, done(seconds: Double), failed(String) }

    /// How one child ended: a usage error (exit 64) or a stop request is not retried.
    private enum Outcome { case ok, failed(String, retriable: Bool) }

    let items: [Item]
    let jobs: Int
    /// Arguments of each child before `-o OUTPUT -- INPUT`.
    let childArguments: [String]
    let showProgress: Bool
    let quiet: Bool
    let cancelled: () -> Bool
    /// The signal passed on to the children when `cancelled` turns true.
    var stopSignal: () -> Int32 = { SIGINT }
    /// --retries: how many more times a failed child is run.
    var retries = 0

    private let lock = NSLock()
    private var states: [State]
    private var framesDone: [Int]
    private var framesTotal: [Int?]
    private var next = 0
    /// Running children by item, so that a stop request reaches them (they run in their
    /// own process groups, so a terminal's Ctrl-C does not).
    private var children: [Int: Process] = [:]
    private var stopSent = false
    private var linesDrawn = 0
    private let start = Date()

    init(items: [Item], jobs: Int, childArguments: [String], showProgress: Bool, quiet: Bool, cancelled: @escaping () -> Bool) {
        self.items = items
        self.jobs = max(1, min(jobs, items.count))
        self.childArguments = childArguments
        self.showProgress = showProgress
        self.quiet = quiet
        self.cancelled = cancelled
        states = items.map { $0.skip ? .skipped : .pending }
        framesDone = Array(repeating: 0, count: items.count)
        framesTotal = items.map(\.expectedFrames)
    }

    /// Runs every item; returns the failures as (input, message) in input order.
    func run() -> [(String, String)] {
        for i in items.indices where items[i].skip { draw(final: false, finished: i) }
        let group = DispatchGroup()
        for w in 0..<jobs {
            let t = Thread { [self] in
                while let i = take() { runChild(i) }
                group.leave()
            }
            t.name = "specviz-batch-\(w)"
            group.enter()
            t.start()
        }
        while group.wait(timeout: .now() + 0.25) == .timedOut {
            if cancelled() { stopChildren() }
            draw(final: false)
        }
        draw(final: true)
        return lock.withLock {
            states.enumerated().compactMap { i, s in
                if case .failed(let m) = s { return (items[i].input, m) }
                return nil
            }
        }
    }

    /// Passes the batch's stop signal (INT, TERM or HUP) on to every running child: it
    /// cancels cleanly, leaving no file.
    private func stopChildren() {
        lock.withLock {
            guard !stopSent else { return }
            stopSent = true
            let sig = stopSignal()
            for p in children.values where p.isRunning { kill(p.processIdentifier, sig) }
        }
    }

    private func take() -> Int? {
        lock.withLock {
            while next < items.count, case .skipped = states[next] { next += 1 }
            guard next < items.count, !cancelled() else { return nil }
            defer { next += 1 }
            states[next] = .running
            return next
        }
    }

    /// Runs item `i`'s child, again (up to `retries` times) while it fails for a reason
    /// other than a usage error or a stop request.
    private func runChild(_ i: Int) {
        let began = Date()
        var attempt = 0
        while true {
            switch runOnce(i) {
            case .ok:
                finish(i, .done(seconds: Date().timeIntervalSince(began)))
                return
            case .failed(let why, let retriable):
                guard retriable && attempt < retries && !cancelled() else {
                    finish(i, .failed(attempt > 0 ? "\(why) (\(attempt + 1) attempts)" : why))
                    return
                }
                attempt += 1
                let name = (items[i].input as NSString).lastPathComponent.escapingControlCharacters
                lock.withLock { framesDone[i] = 0 }
                draw(final: false, message: "retry \(attempt)/\(retries) \(name): \(why)")
            }
        }
    }

    private func runOnce(_ i: Int) -> Outcome {
        let item = items[i]
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/proc/self/exe")
        p.arguments = childArguments + (item.replace ? ["-y"] : []) + ["-o", item.output, "--", item.input]
        let out = Pipe(), err = Pipe()
        p.standardOutput = out
        p.standardError = err
        p.standardInput = FileHandle.nullDevice
        // The child asks for SIGTERM when this thread ends (it waits for the child), and so
        // cleans up and exits should the batch be killed.
        var environment = ProcessInfo.processInfo.environment
        environment[BatchChild.parentVariable] = String(getpid())
        p.environment = environment
        do {
            try lock.withLock {
                guard !cancelled() else { throw Interrupted() }
                try p.run()
                children[i] = p
            }
        } catch {
            return .failed(cancelled() ? Interrupted().description : "cannot start specviz: \(error)", retriable: false)
        }
        defer { lock.withLock { _ = children.removeValue(forKey: i) } }
        // The child's stderr is read on its own thread, so neither pipe can fill and stall it.
        let errorText = Locked(Data())
        let errDone = DispatchSemaphore(value: 0)
        Thread {
            let data = err.fileHandleForReading.readDataToEndOfFile()
            errorText.update { $0 = data }
            errDone.signal()
        }.start()
        // Progress lines on the child's stdout.
        var pending = Data()
        let handle = out.fileHandleForReading
        while true {
            let chunk = handle.availableData
            if chunk.isEmpty { break }
            pending.append(chunk)
            while let nl = pending.firstIndex(of: 0x0A) {
                let line = String(decoding: pending[pending.startIndex..<nl], as: UTF8.self)
                pending.removeSubrange(pending.startIndex...nl)
                if let (key, value) = ProgressReport.parse(line[...]) {
                    lock.withLock {
                        if key == "frame" { framesDone[i] = value } else { framesTotal[i] = value }
                    }
                }
            }
        }
        p.waitUntilExit()
        errDone.wait()
        if p.terminationReason == .exit && p.terminationStatus == 0 {
            return .ok
        } else {
            let text = String(decoding: errorText.value, as: UTF8.self)
                .split(separator: "\n").last { $0.contains("error:") }
                .map { String($0.split(separator: ":", maxSplits: 2).last ?? $0).trimmingCharacters(in: .whitespaces) }
            let why =
                text
                ?? (p.terminationReason == .uncaughtSignal
                    ? "killed by signal \(p.terminationStatus)"
                    : "exit status \(p.terminationStatus)")
            let usage = p.terminationReason == .exit && p.terminationStatus == 64
            return .failed(why, retriable: !usage && !cancelled())
        }
    }

    private func finish(_ i: Int, _ state: State) {
        lock.withLock {
            states[i] = state
            if case .done = state, let t = framesTotal[i] { framesDone[i] = t }
        }
        draw(final: false, finished: i)
    }

    // MARK: Display

    private func fileLine(_ i: Int) -> String {
        let name = (items[i].input as NSString).lastPathComponent.escapingControlCharacters
        switch states[i] {
        case .pending: return "  \(name): waiting"
        case .skipped: return "skipped \(name): '\(items[i].output)' is complete"
        case .running:
            guard let t = framesTotal[i], t > 0 else { return "  \(name): \(framesDone[i]) frames" }
            return String(format: "  %@: %3.0f%%  %d/%d frames", name, 100 * Double(framesDone[i]) / Double(t), framesDone[i], t)
        case .done(let s): return String(format: "ok %@ → %@  (%.1f s)", name, items[i].output, s)
        case .failed(let m): return "FAILED \(name): \(m)"
        }
    }

    private func totalLine() -> String {
        let finished = states.filter {
            switch $0 {
            case .done, .failed, .skipped: return true
            default: return false
            }
        }.count
        let skipped = states.filter {
            if case .skipped = $0 { return true }; return false
        }.count
        let known = framesTotal.compactMap { $0 }
        let average = known.isEmpty ? 1 : Double(known.reduce(0, +)) / Double(known.count)
        var all = 0.0, done = 0.0
        for i in items.indices {
            let t = framesTotal[i].map(Double.init) ?? average
            all += t
            switch states[i] {
            case .done, .failed, .skipped: done += t
            default: done += Double(framesDone[i])
            }
        }
        let frac = all > 0 ? min(1, done / all) : 0
        let elapsed = Date().timeIntervalSince(start)
        let eta = frac > 0.001 ? elapsed * (1 - frac) / frac : 0
        return String(
            format: "total: %d/%d files%@  %3.0f%%  elapsed %@  ETA %@", finished, items.count,
            skipped > 0 ? " (\(skipped) skipped)" : "", frac * 100, ProgressBar.clock(elapsed),
            frac > 0.001 ? ProgressBar.clock(eta) : "?")
    }

    /// On a terminal: finished files scroll above, running files and the total are redrawn
    /// below. Otherwise: one line per finished file, and the total at the end.
    private func draw(final: Bool, finished: Int? = nil, message: String? = nil) {
        lock.withLock {
            var text = ""
            if showProgress {
                if linesDrawn > 0 { text += "\u{1B}[\(linesDrawn)A\r\u{1B}[J" }
                if let message { text += message + "\n" }
                if let finished { text += fileLine(finished) + "\n" }
                linesDrawn = 0
                if !final {
                    for i in items.indices { if case .running = states[i] { text += fileLine(i) + "\n"; linesDrawn += 1 } }
                }
                text += totalLine() + "\n"
                linesDrawn += 1
                if final { linesDrawn = 0 }
            } else if !quiet {
                if let message { text += message + "\n" }
                if let finished { text += fileLine(finished) + "\n" }
                if final { text += totalLine() + "\n" }
            }
            if !text.isEmpty { StandardError.write(Data(text.utf8), level: .info) }
        }
    }
}
