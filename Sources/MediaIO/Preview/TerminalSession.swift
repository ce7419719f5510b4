#if canImport(Glibc)
import Glibc
#endif

/// Set by SIGINT/SIGTERM/SIGHUP while a `TerminalSession` is active.
/// The stop signal received, 0 while none: in memory reached through a pointer, so that the
/// handler's write never overlaps another access under Swift's exclusivity check.
private let terminalSignalCell: UnsafeMutablePointer<sig_atomic_t> = {
    let cell = UnsafeMutablePointer<sig_atomic_t>.allocate(capacity: 1)
    cell.initialize(to: 0)
    return cell
}()
/// The settings to restore from a signal or `atexit` (copied before raw mode).
nonisolated(unsafe) private var savedTermios = termios()
nonisolated(unsafe) private var savedValid = false
nonisolated(unsafe) private var sessionFD: Int32 = STDOUT_FILENO
nonisolated(unsafe) private var sessionActive = false

/// Puts the terminal in the state a full-screen preview needs and restores it afterwards:
/// raw keyboard input (no echo, no line buffering, Ctrl-C read as a key), the alternate
/// screen and a hidden cursor. `restore()` runs on `stop()`, at exit, and on SIGINT /
/// SIGTERM / SIGHUP (the signal only sets `interrupted`; the loop then stops and restores).
public final class TerminalSession {
    public let input: Int32
    public let output: Int32
    private var active = false

    /// Enters raw mode on `input` (when it is a terminal) and the alternate screen on `output`.
    public init(input: Int32 = STDIN_FILENO, output: Int32 = STDOUT_FILENO) {
        self.input = input
        self.output = output
        sessionFD = output
        terminalSignalCell.pointee = 0
        if isatty(input) != 0 && tcgetattr(input, &savedTermios) == 0 {
            savedValid = true
            var raw = savedTermios
            raw.c_lflag &= ~tcflag_t(ICANON | ECHO | ISIG | IEXTEN)
            raw.c_iflag &= ~tcflag_t(IXON | ICRNL)
            withUnsafeMutableBytes(of: &raw.c_cc) { cc in
                cc[Int(VMIN)] = 0
                cc[Int(VTIME)] = 0
            }
            tcsetattr(input, TCSANOW, &raw)
        }
        let handler: @convention(c) (Int32) -> Void = { sig in
            if terminalSignalCell.pointee == 0 { terminalSignalCell.pointee = sig }
        }
        signal(SIGINT, handler)
        signal(SIGTERM, handler)
        signal(SIGHUP, handler)
        atexit { TerminalSession.restoreState() }
        Self.emit("\u{1B}[?1049h\u{1B}[?25l\u{1B}[2J")
        active = true
        sessionActive = true
    }

    deinit { stop() }

    /// True once SIGINT, SIGTERM or SIGHUP arrived.
    public var interrupted: Bool { terminalSignalCell.pointee != 0 }

    /// The signal that arrived (SIGINT, SIGTERM or SIGHUP), if any.
    public var receivedSignal: Int32? { terminalSignalCell.pointee == 0 ? nil : terminalSignalCell.pointee }

    /// The next key pressed, without waiting; nil when none is pending.
    public func readKey() -> UInt8? {
        var pfd = pollfd(fd: input, events: Int16(POLLIN), revents: 0)
        guard poll(&pfd, 1, 0) > 0, pfd.revents & Int16(POLLIN) != 0 else { return nil }
        var byte: UInt8 = 0
        return Glibc.read(input, &byte, 1) == 1 ? byte : nil
    }

    /// Leaves the alternate screen, shows the cursor and restores the keyboard settings.
    /// Safe to call twice.
    public func stop() {
        guard active else { return }
        active = false
        Self.restoreState()
        signal(SIGINT, SIG_DFL)
        signal(SIGTERM, SIG_DFL)
        signal(SIGHUP, SIG_DFL)
    }

    private static func restoreState() {
        guard sessionActive else { return }
        sessionActive = false
        emit("\u{1B}[0m\u{1B}[?25h\u{1B}[?1049l")
        if savedValid {
            tcsetattr(STDIN_FILENO, TCSANOW, &savedTermios)
            savedValid = false
        }
    }

    private static func emit(_ s: StaticString) {
        s.withUTF8Buffer { _ = Glibc.write(sessionFD, $0.baseAddress, $0.count) }
    }
}
