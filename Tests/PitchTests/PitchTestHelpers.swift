import Analysis
import Foundation
import SpecvizTestSupport
import Tuning
import XCTest

/// One hop's outputs.
struct HopRecord {
    var time: Double
    var raw: PitchEstimate?
    var display: TunerReading?
}

/// Runs a fresh tracker over `samples` in 1000-sample chunks (not a multiple of the hop).
func track(
    _ samples: [Float], sampleRate: Int, preset: TuningPreset = .chromatic,
    reference: Double = 440
) -> [HopRecord] {
    let t = PitchTracker(sampleRate: sampleRate, preset: preset, reference: reference)
    var out: [HopRecord] = []
    samples.withUnsafeBufferPointer { buf in
        var i = 0
        while i < buf.count {
            let n = min(1000, buf.count - i)
            t.process(UnsafeBufferPointer(rebasing: buf[i..<(i + n)])) { tr in
                out.append(HopRecord(time: tr.time, raw: tr.raw, display: tr.display))
            }
            i += n
        }
    }
    return out
}

/// Cents between two frequencies.
func centsBetween(_ f: Double, _ ref: Double) -> Double { 1200 * log2(f / ref) }

extension Array where Element == HopRecord {
    /// Display readings from time `from` (s) on.
    func displays(from: Double) -> [TunerReading?] { filter { $0.time >= from }.map(\.display) }
}

/// Asserts that, from `settle` seconds on, every hop displays `frequency` within `tolerance` cents.
func assertDisplays(
    _ hops: [HopRecord], frequency: Double, settle: Double, tolerance: Double,
    _ message: String, file: StaticString = #filePath, line: UInt = #line
) {
    let tail = hops.displays(from: settle)
    XCTAssertFalse(tail.isEmpty, message, file: file, line: line)
    let missing = tail.filter { $0 == nil }.count
    XCTAssertEqual(missing, 0, "\(message): \(missing) of \(tail.count) hops show ---", file: file, line: line)
    var worst = 0.0
    for r in tail.compactMap({ $0 }) { worst = Swift.max(worst, abs(centsBetween(r.frequency, frequency))) }
    XCTAssertLessThanOrEqual(worst, tolerance, "\(message): worst error \(worst) cents", file: file, line: line)
}
