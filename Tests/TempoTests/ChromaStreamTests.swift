import SpecvizTestSupport
import XCTest

@testable import Analysis

/// The chroma change that places downbeats (issue 18): it must see the chords change on
/// the bar lines and nothing in drums that repeat every bar.
final class ChromaStreamTests: XCTestCase {
    private let rate = 22_050
    private let bpm = 100.0

    private func changes(_ samples: [Float], span: Int) -> [Double] {
        let chroma = ChromaStream(sampleRate: rate)
        samples.withUnsafeBufferPointer { chroma.process($0) }
        let beat = 60 / bpm
        return chroma.changes(at: stride(from: 0, to: 24.0, by: beat).map { $0 }, spans: [span])[0]
    }

    private func drums() -> [Float] {
        ClickTracks.pattern(
            bpm: bpm, beatsPerBar: 4, hits: [(0, .kick), (2, .kick), (1, .click), (3, .click), (0.5, .hat), (2.5, .hat)],
            seconds: 24, sampleRate: rate)
    }

    /// Mean change on the bar lines (beats 0, 4, 8, …) and on the other beats, away from
    /// the ends.
    private func split(_ c: [Double]) -> (bar: Double, other: Double) {
        let inner = Array(4..<(c.count - 4))
        let bar = inner.filter { $0 % 4 == 0 }.map { c[$0] }, other = inner.filter { $0 % 4 != 0 }.map { c[$0] }
        return (bar.reduce(0, +) / Double(bar.count), other.reduce(0, +) / Double(other.count))
    }

    private func harmony() -> [Float] {
        // C, A minor, F, G: a bar each, struck on every beat.
        let chords: [[Double]] = [[262, 330, 392], [220, 262, 330], [175, 220, 262], [196, 247, 294]]
        return ClickTracks.notes(
            bpm: bpm, beatsPerBar: 16, notes: (0..<16).map { (Double($0), chords[$0 / 4], Float(0.2)) },
            seconds: 24, sampleRate: rate)
    }

    func testChordChangesStandOutOnTheBarLines() {
        let c = changes(harmony(), span: 4)
        let (bar, other) = split(c)
        XCTAssertGreaterThan(bar, 1.5 * other, "bar lines \(bar), other beats \(other)")
        XCTAssertEqual(c.reduce(0, +) / Double(c.count), 1, accuracy: 1e-9, "normalised to mean 1")
    }

    /// Kick, snare and hi-hat repeating every bar add the same to both sides of every beat:
    /// the bar lines stand out as much as without them.
    func testRepeatingDrumsDoNotBlurTheBarLines() {
        let (bar0, other0) = split(changes(harmony(), span: 4))
        let (bar, other) = split(changes(zip(drums(), harmony()).map { $0 + $1 }, span: 4))
        XCTAssertGreaterThan(bar / other, 0.8 * bar0 / other0, "with drums \(bar) / \(other), without \(bar0) / \(other0)")
        XCTAssertGreaterThan(bar, 1.5 * other)
    }

    func testSilenceGivesOnes() {
        XCTAssertEqual(changes([Float](repeating: 0, count: rate * 24), span: 4), [Double](repeating: 1, count: 40))
    }
}
