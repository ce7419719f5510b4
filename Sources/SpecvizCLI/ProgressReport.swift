import Foundation

/// `render --progress FILE|-` (issue 40 item 11): machine-readable progress in ffmpeg's
/// `-progress` form, blocks of `key=value` lines each ending with `progress=continue`, the
/// last with `progress=end`. Keys: `frame`, `total_frames` (when the length is known; not
/// ffmpeg's), `fps`, `out_time_us`, `out_time_ms` (microseconds too, as ffmpeg writes it),
/// `out_time` (HH:MM:SS.micro), `speed`. A block goes out at most every `period` seconds, and
/// the last one always. A batch reads its children's blocks from their standard output.
final class ProgressReport {
    private let file: UnsafeMutablePointer<FILE>?
    private let path: String
    private let fps: Int
    private let period: Double
    private let start = Date()
    private var last = Date.distantPast
    private var total: Int?

    /// `path` `-` is standard output; else the file is created (or emptied) now.
    init(path: String, fps: Int, period: Double = 0.5) throws {
        self.path = path
        self.fps = max(1, fps)
        self.period = period
        if path == "-" {
            file = nil
        } else {
            guard let f = fopen(path, "w") else { throw CLIError.cannotWrite(path: path, errno: errno) }
            file = f
        }
    }

    deinit { if let file { fclose(file) } }

    /// A progress callback's report: a block when `period` has passed since the last.
    func update(done: Int, total: Int?) {
        if let total { self.total = total }
        let now = Date()
        guard now.timeIntervalSince(last) >= period else { return }
        last = now
        write(block(done: done, now: now, end: false))
    }

    /// The last block (`progress=end`).
    func finish(done: Int) {
        write(block(done: done, now: Date(), end: true))
    }

    func block(done: Int, now: Date, end: Bool) -> String {
        let elapsed = max(now.timeIntervalSince(start), 1e-6)
        let micro = Int64((Double(done) / Double(fps) * 1e6).rounded())
        var s = "frame=\(done)\n"
        if let total { s += "total_frames=\(total)\n" }
        s += String(format: "fps=%.2f\n", Double(done) / elapsed)
        s += "out_time_us=\(micro)\nout_time_ms=\(micro)\nout_time=\(Self.clock(micro))\n"
        s += String(format: "speed=%.3gx\n", Double(micro) / 1e6 / elapsed)
        return s + "progress=\(end ? "end" : "continue")\n"
    }

    /// `HH:MM:SS.micro`, as ffmpeg's out_time.
    static func clock(_ micro: Int64) -> String {
        let seconds = micro / 1_000_000
        return String(format: "%02lld:%02lld:%02lld.%06lld", seconds / 3600, seconds / 60 % 60, seconds % 60, micro % 1_000_000)
    }

    private func write(_ text: String) {
        guard let file else {
            StandardOutput.writeOrExit(text)
            return
        }
        fputs(text, file)
        fflush(file)
    }

    /// The frames done and total in a block's lines (what a batch parent reads): `frame=`
    /// and `total_frames=`; nil for any other line.
    static func parse(_ line: Substring) -> (key: Substring, value: Int)? {
        guard let eq = line.firstIndex(of: "=") else { return nil }
        let key = line[..<eq]
        guard key == "frame" || key == "total_frames", let v = Int(line[line.index(after: eq)...]) else { return nil }
        return (key, v)
    }
}
