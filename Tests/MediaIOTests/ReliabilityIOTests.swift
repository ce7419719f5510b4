import Foundation
import SpecvizTestSupport
import XCTest

@testable import MediaIO

final class ReliabilityIOTests: XCTestCase {
    func tempDir() throws -> String {
        let dir = NSTemporaryDirectory() + "/specviz-io-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        return dir
    }

    /// Without overwrite, the final name is created exclusively: a file that appeared while
    /// writing (another render to the same path) is kept, and the temporary removed.
    func testCommitWithoutOverwriteNeverReplaces() throws {
        let dir = try tempDir()
        let path = dir + "/out.bin"
        try AtomicFile.write([1, 2, 3], to: path, overwrite: false)
        XCTAssertThrowsError(try AtomicFile.write([4, 5], to: path, overwrite: false)) { error in
            XCTAssertTrue("\(error)".contains("exists"), "\(error)")
        }
        XCTAssertEqual([UInt8](try Data(contentsOf: URL(fileURLWithPath: path))), [1, 2, 3])
        try AtomicFile.write([6], to: path, overwrite: true)
        XCTAssertEqual([UInt8](try Data(contentsOf: URL(fileURLWithPath: path))), [6])
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: dir), ["out.bin"])
    }

    func testWriteErrorsCarryTheReason() throws {
        XCTAssertThrowsError(try AtomicFile.write([1], to: "/nonexistent-dir/x.svzf")) { error in
            XCTAssertTrue("\(error)".contains("No such file or directory"), "\(error)")
        }
        guard FileManager.default.fileExists(atPath: "/dev/full") else { return }
        // A device is written in place (never replaced): /dev/full's error is the write's.
        XCTAssertThrowsError(try AtomicFile.write([1], to: "/dev/full")) { error in
            XCTAssertTrue("\(error)".contains("No space left on device"), "\(error)")
        }
        XCTAssertThrowsError(try AtomicFile.checkReplaceable("/")) { error in
            XCTAssertTrue("\(error)".contains("folder"), "\(error)")
        }
    }

    /// The tee gives both sides the same sound, the track from its start, and keeps only
    /// the gap between the two readers.
    func testTeeReadsOnceAndStaysBounded() throws {
        let dir = try tempDir()
        let rate = 8000
        let samples = (0..<(rate * 20)).map { Float(($0 % 1000)) / 1000 }
        try Signals.writeFloatWAV(samples, sampleRate: rate, to: dir + "/ramp.wav")
        let tee = AudioTee(decoder: try AudioDecoder(path: dir + "/ramp.wav"))
        let track = tee.track(from: 5) // frames from 40000
        var a = [Float](repeating: 0, count: 800), t = [Float](repeating: 0, count: 400)
        var analysisRead = 0, trackRead = 0, maxBuffered = 0
        while true {
            let n = try a.withUnsafeMutableBufferPointer { try tee.analysis.readMono(into: $0) }
            for k in 0..<n { XCTAssertEqual(a[k], samples[analysisRead + k]) }
            analysisRead += n
            // The track follows the analysis once the start is reached, a little behind.
            while analysisRead >= 40_000 && trackRead + 40_000 + 400 <= analysisRead {
                let m = try t.withUnsafeMutableBufferPointer { try track.readInterleaved(into: $0) }
                for k in 0..<m { XCTAssertEqual(t[k], samples[40_000 + trackRead + k]) }
                trackRead += m
                if m == 0 { break }
            }
            maxBuffered = max(maxBuffered, tee.bufferedFrames)
            if n == 0 { break }
        }
        tee.analysis.stop()
        while true {
            let m = try t.withUnsafeMutableBufferPointer { try track.readInterleaved(into: $0) }
            if m == 0 { break }
            trackRead += m
        }
        XCTAssertEqual(analysisRead, samples.count)
        XCTAssertEqual(trackRead, samples.count - 40_000)
        XCTAssertLessThan(maxBuffered, 10_000, "only the gap between the readers is kept")
    }

    func testPlaylistsAreRefusedByDefault() throws {
        let dir = try tempDir()
        try Signals.writeWAV(Signals.sines([(440, 0.3)], seconds: 0.2), to: dir + "/a.wav")
        try "ffconcat version 1.0\nfile 'a.wav'\n".write(toFile: dir + "/l.ffconcat", atomically: true, encoding: .utf8)
        XCTAssertThrowsError(try AudioDecoder(path: dir + "/l.ffconcat")) { error in
            XCTAssertTrue("\(error)".contains("concat"), "\(error)")
        }
        XCTAssertNoThrow(try AudioDecoder(path: dir + "/l.ffconcat", policy: InputPolicy(allowPlaylists: true)))
        XCTAssertThrowsError(try AudioDecoder(path: "http://127.0.0.1:9/x.wav"))
    }
}
