import XCTest

@testable import Analysis

/// The display filter's start rules on hand-made estimate streams (one estimate per ~0.5 s
/// update), so each rule is checked apart from the onset features that feed it.
final class TempoDisplayFilterTests: XCTestCase {
    /// An onset-like estimate (sharp, peaky onsets) with the given evidence.
    private func estimate(
        bpm: Double, confidence: Double, pulse: Double = 0.2, novelty: Double = 0.05
    ) -> TempoEstimate {
        var e = TempoEstimate(bpm: bpm, confidence: confidence, sharpness: 0.9, peakiness: 3, pulse: pulse)
        e.novelty = novelty
        return e
    }

    /// The displays after each estimate of `stream`.
    private func displays(_ stream: [TempoEstimate]) -> [Double?] {
        var filter = TempoDisplayFilter()
        return stream.map { e in
            _ = filter.push(e)
            return filter.display?.bpm
        }
    }

    /// A fair estimate (confidence 0.3, pulse 0.2: never strong) that holds one tempo with
    /// new energy starts a display once it has held for 8 estimates (4 s), at that tempo.
    func testSteadyFairEstimatesStartADisplay() {
        let bpms = (0..<14).map { 96 + 0.6 * sin(Double($0)) }
        let shown = displays(bpms.map { estimate(bpm: $0, confidence: 0.3) })
        XCTAssertTrue(shown.prefix(7).allSatisfy { $0 == nil }, "\(shown)")
        XCTAssertEqual(shown.last.flatMap { $0 } ?? 0, 96, accuracy: 1, "\(shown)")
    }

    /// None starts one when the tempo wanders by more than ±2 BPM, when the estimates bring
    /// no new energy (a held chord's swell), or when their confidence is below 0.25.
    func testUnsteadyOrQuietEstimatesStartNothing() {
        let wandering = (0..<20).map { estimate(bpm: 96 + 4 * sin(1.3 * Double($0)), confidence: 0.35) }
        let noNewEnergy = (0..<20).map { _ in estimate(bpm: 96, confidence: 0.35, novelty: 0.005) }
        let faint = (0..<20).map { _ in estimate(bpm: 96, confidence: 0.2) }
        for (name, stream) in [("wandering", wandering), ("no new energy", noNewEnergy), ("faint", faint)] {
            XCTAssertTrue(displays(stream).allSatisfy { $0 == nil }, name)
        }
    }

    /// A gap (no estimate: silence) ends the run: 5 before it and 5 after start nothing.
    func testAGapEndsTheRun() {
        var filter = TempoDisplayFilter()
        for k in 0..<10 {
            _ = filter.push(k == 5 ? nil : estimate(bpm: 120, confidence: 0.3))
            XCTAssertNil(filter.display, "after estimate \(k)")
        }
    }
}
