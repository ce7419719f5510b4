import Foundation
import XCTest

/// `specviz peaks` writes audiowaveform's version-2 JSON and .dat (issue 40 item 7): the
/// header fields, and every block's min/max against the samples of a generated WAV.
final class PeaksCLITests: XCTestCase {
    let rate = 8000

    /// A 16-bit mono WAV of `values`, written byte for byte (so the expected peaks are exact).
    func writeWAV(_ values: [Int16], to path: String) throws {
        var b: [UInt8] = []
        func u32(_ v: UInt32) { withUnsafeBytes(of: v.littleEndian) { b.append(contentsOf: $0) } }
        func u16(_ v: UInt16) { withUnsafeBytes(of: v.littleEndian) { b.append(contentsOf: $0) } }
        b += Array("RIFF".utf8); u32(UInt32(36 + 2 * values.count)); b += Array("WAVEfmt ".utf8)
        u32(16); u16(1); u16(1); u32(UInt32(rate)); u32(UInt32(2 * rate)); u16(2); u16(16)
        b += Array("data".utf8); u32(UInt32(2 * values.count))
        for v in values { u16(UInt16(bitPattern: v)) }
        try Data(b).write(to: URL(fileURLWithPath: path))
    }

    /// A sine under a rising envelope, with a full-scale ramp in the middle: blocks differ.
    var samples: [Int16] {
        (0..<8050).map { i in
            if (4000..<4400).contains(i) { return Int16(-32768 + (i - 4000) * 163) }
            let env = Double(i) / 8050
            return Int16((30000 * env * sin(2 * Double.pi * 173 * Double(i) / Double(rate))).rounded())
        }
    }

    func expected(_ s: [Int16], spp: Int, bits: Int) -> [Int] {
        stride(from: 0, to: s.count, by: spp).flatMap { start -> [Int] in
            let block = s[start..<min(s.count, start + spp)].map(Int.init)
            let (lo, hi) = (block.min()!, block.max()!)
            return bits == 8 ? [lo / 256, hi / 256] : [lo, hi] // C's division, as audiowaveform
        }
    }

    func testJSONAndDatHoldEachBlocksMinAndMax() throws {
        let dir = CLI.tempDir()
        let s = samples
        try writeWAV(s, to: dir + "/a.wav")
        for bits in [8, 16] {
            for (spacing, spp) in [(["--samples-per-pixel", "256"], 256), (["--pixels-per-second", "50"], 160)] {
                let want = expected(s, spp: spp, bits: bits)
                XCTAssertEqual(want.count, 2 * ((s.count + spp - 1) / spp))
                let json = try CLI.run(["peaks", dir + "/a.wav", "--bits", "\(bits)", "-o", dir + "/p.json", "-y"] + spacing)
                XCTAssertEqual(json.status, 0, json.stderr)
                let doc = try XCTUnwrap(
                    JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: dir + "/p.json"))) as? [String: Any])
                XCTAssertEqual(doc["version"] as? Int, 2)
                XCTAssertEqual(doc["channels"] as? Int, 1)
                XCTAssertEqual(doc["sample_rate"] as? Int, rate)
                XCTAssertEqual(doc["samples_per_pixel"] as? Int, spp)
                XCTAssertEqual(doc["bits"] as? Int, bits)
                XCTAssertEqual(doc["length"] as? Int, want.count / 2)
                XCTAssertEqual(doc["data"] as? [Int], want, "JSON bits \(bits) spp \(spp)")

                let dat = try CLI.run(["peaks", dir + "/a.wav", "--bits", "\(bits)", "-o", dir + "/p.dat", "-y"] + spacing)
                XCTAssertEqual(dat.status, 0, dat.stderr)
                let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: dir + "/p.dat")))
                func i32(_ at: Int) -> Int {
                    Int(Int32(bitPattern: UInt32(bytes[at]) | UInt32(bytes[at + 1]) << 8 | UInt32(bytes[at + 2]) << 16 | UInt32(bytes[at + 3]) << 24))
                }
                XCTAssertEqual([i32(0), i32(4), i32(8), i32(12), i32(16), i32(20)], [2, bits == 8 ? 1 : 0, rate, spp, want.count / 2, 1])
                let body = Array(bytes[24...])
                let values =
                    bits == 8
                    ? body.map { Int(Int8(bitPattern: $0)) }
                    : stride(from: 0, to: body.count, by: 2).map { Int(Int16(bitPattern: UInt16(body[$0]) | UInt16(body[$0 + 1]) << 8)) }
                XCTAssertEqual(values, want, ".dat bits \(bits) spp \(spp)")
            }
        }
        XCTAssertEqual(CLI.files(dir), ["a.wav", "p.dat", "p.json"])
    }

    func testBadRequestsAreOneLineAndWriteNothing() throws {
        let dir = CLI.tempDir()
        try writeWAV(samples, to: dir + "/a.wav")
        for args in [
            ["-o", dir + "/p.txt"], ["--bits", "12", "-o", dir + "/p.json"], ["--pixels-per-second", "0", "-o", dir + "/p.json"],
            ["--pixels-per-second", "10", "--samples-per-pixel", "10", "-o", dir + "/p.json"], ["-o", "-", "--samples-per-pixel", "-4"],
            ["--samples-per-pixel", "1", "-o", dir + "/p.dat"],
        ] {
            let r = try CLI.run(["peaks", dir + "/a.wav"] + args)
            XCTAssertEqual(r.status, 64, "\(args): \(r.stderr)")
            XCTAssertEqual(r.stderr.split(separator: "\n").count, 1, r.stderr)
        }
        let missing = try CLI.run(["peaks", dir + "/none.wav", "-o", dir + "/p.dat"])
        XCTAssertNotEqual(missing.status, 0)
        XCTAssertEqual(CLI.files(dir), ["a.wav"])
    }
}
