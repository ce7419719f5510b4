import Foundation
import SpecvizTestSupport
import XCTest

/// Runs the built `specviz` binary and captures its output.
struct CLI {
    struct Result {
        var status: Int32
        var stdout: String
        var stderr: String
    }

    static var binary: String {
        // The test bundle sits in the build products folder, beside the executable.
        let dir = Bundle.main.bundleURL
        for candidate in [dir.appendingPathComponent("specviz"), dir.deletingLastPathComponent().appendingPathComponent("specviz")]
        where FileManager.default.isExecutableFile(atPath: candidate.path) {
            return candidate.path
        }
        return GoldenFrame.root + "/.build/debug/specviz"
    }

    @discardableResult
    static func run(_ args: [String], stdin: Data? = nil) throws -> Result {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: binary)
        p.arguments = args
        var env = ProcessInfo.processInfo.environment
        env["XDG_CONFIG_HOME"] = NSTemporaryDirectory() + "/specviz-cli-tests-config"
        p.environment = env
        let out = Pipe(), err = Pipe()
        p.standardOutput = out
        p.standardError = err
        p.standardInput = FileHandle.nullDevice
        try p.run()
        let o = out.fileHandleForReading.readDataToEndOfFile()
        let e = err.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        return Result(
            status: p.terminationStatus, stdout: String(decoding: o, as: UTF8.self),
            stderr: String(decoding: e, as: UTF8.self))
    }

    /// Starts the binary without waiting (to signal it); stdin from `stdinFile` or nothing.
    static func start(_ args: [String], stdinFile: String? = nil, env extra: [String: String] = [:]) throws -> Process {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: binary)
        p.arguments = args
        var env = ProcessInfo.processInfo.environment
        env["XDG_CONFIG_HOME"] = NSTemporaryDirectory() + "/specviz-cli-tests-config"
        for (k, v) in extra { env[k] = v }
        p.environment = env
        p.standardOutput = FileHandle.nullDevice
        p.standardError = FileHandle.nullDevice
        p.standardInput = stdinFile.flatMap { FileHandle(forReadingAtPath: $0) } ?? FileHandle.nullDevice
        try p.run()
        return p
    }

    /// Runs with standard input read from a file and extra environment.
    static func run(_ args: [String], stdinFile: String?, env extra: [String: String] = [:]) throws -> Result {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: binary)
        p.arguments = args
        var env = ProcessInfo.processInfo.environment
        env["XDG_CONFIG_HOME"] = NSTemporaryDirectory() + "/specviz-cli-tests-config"
        for (k, v) in extra { env[k] = v }
        p.environment = env
        let out = Pipe(), err = Pipe()
        p.standardOutput = out
        p.standardError = err
        p.standardInput = stdinFile.flatMap { FileHandle(forReadingAtPath: $0) } ?? FileHandle.nullDevice
        try p.run()
        let o = out.fileHandleForReading.readDataToEndOfFile()
        let e = err.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        return Result(
            status: p.terminationStatus, stdout: String(decoding: o, as: UTF8.self),
            stderr: String(decoding: e, as: UTF8.self))
    }

    /// A fresh temporary folder for one test.
    static func tempDir() -> String {
        let d = NSTemporaryDirectory() + "/specviz-cli-\(UUID().uuidString)"
        try? FileManager.default.createDirectory(atPath: d, withIntermediateDirectories: true)
        return d
    }

    /// Files in `dir` (to check that nothing was left behind).
    static func files(_ dir: String) -> [String] {
        (try? FileManager.default.contentsOfDirectory(atPath: dir))?.sorted() ?? []
    }
}
