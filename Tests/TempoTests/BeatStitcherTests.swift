import XCTest

@testable import Analysis

/// How the analyses of overlapping blocks are joined (`BlockBeatAnalyzer`), on analyses
/// written by hand: the seam, the segments either side of it, and the bar numbering.
final class BeatStitcherTests: XCTestCase {
    /// An analysis whose beats are `times` (block time), numbered in `perBar` from `first`.
    private func block(_ times: [Double], perBar: Int? = 4, first: Int = 0, bpm: Double = 120) -> BeatAnalysis {
        var a = BeatAnalysis()
        a.beats = times.enumerated().map { k, t in Beat(time: t, position: perBar.map { ((k - first) % $0 + $0) % $0 + 1 }) }
        a.beatsPerBar = perBar
        if let s = times.first, let e = times.last { a.segments = [TempoSegment(start: s, end: e, bpm: bpm)] }
        return a
    }

    private func grid(from: Double, to: Double, period: Double, shift: Double = 0) -> [Double] {
        Swift.stride(from: from + shift, to: to, by: period).map { $0 }
    }

    /// The joined analysis says its tempo was heard over the whole track (no display led it)
    /// only when every block with beats says so; a block without beats does not count.
    func testHeardOnlyWhenNoBlocksDisplayLedItsBeats() {
        func heard(_ blocks: [(beats: Bool, heard: Bool)]) -> Bool {
            var s = BeatStitcher()
            for (k, b) in blocks.enumerated() {
                var a = block(b.beats ? grid(from: 0.25, to: 20, period: 0.5) : [])
                a.fromWholeTrack = b.heard && b.beats
                s.add(a, offset: 15 * Double(k), overlapEnd: k == 0 ? 0 : 15 * Double(k) + 5)
            }
            return s.result(updates: []).fromWholeTrack
        }
        XCTAssertTrue(heard([(true, true), (true, true)]))
        XCTAssertTrue(heard([(true, true), (false, false)]))
        XCTAssertFalse(heard([(true, true), (true, false)]))
        XCTAssertFalse(heard([(false, false), (false, false)]))
    }

    /// Two blocks that agree over the overlap: each beat once, the tempi (1.5 BPM apart) one
    /// segment, and the bars numbered on in the phase of the block with more beats, though
    /// the other counted its bars from another beat.
    func testAgreeingBlocksJoinWithoutSeam() {
        var s = BeatStitcher()
        s.add(block(grid(from: 0.25, to: 20, period: 0.5), bpm: 120), offset: 0, overlapEnd: 0)
        // From 15 s; its beats 10 ms later, its bars counted from its second beat.
        s.add(block(grid(from: 0.26, to: 15, period: 0.5), first: 1, bpm: 121.5), offset: 15, overlapEnd: 20)
        let a = s.result(updates: [])
        let times = a.beats.map(\.time)
        XCTAssertEqual(times.count, 60)
        for (t, next) in zip(times, times.dropFirst()) { XCTAssertEqual(next - t, 0.5, accuracy: 0.011) }
        XCTAssertEqual(a.segments.count, 1)
        XCTAssertEqual(a.segments[0].start, 0.25, accuracy: 1e-9)
        XCTAssertEqual(a.segments[0].end, 29.76, accuracy: 1e-9)
        XCTAssertGreaterThan(a.segments[0].bpm, 120)
        XCTAssertLessThan(a.segments[0].bpm, 121.5)
        XCTAssertEqual(a.beatsPerBar, 4)
        XCTAssertEqual(a.beats.map { $0.position ?? 0 }, (0..<60).map { $0 % 4 + 1 })
    }

    /// Every block's phase readings come through, their beats in media time.
    func testPhaseReadingsOfEveryBlockInMediaTime() {
        var s = BeatStitcher()
        for (k, offset) in [0.0, 15].enumerated() {
            var b = block(grid(from: 0.25, to: 20, period: 0.5))
            b.phaseReadings = [BeatAnalyzer.PhaseReading(beats: [0.25, 0.75, 1.25], inputs: [Double(k)], offBeat: 0.1)]
            s.add(b, offset: offset, overlapEnd: offset > 0 ? 20 : 0)
        }
        let readings = s.result(updates: []).phaseReadings
        XCTAssertEqual(readings.map(\.beats), [[0.25, 0.75, 1.25], [15.25, 15.75, 16.25]])
        XCTAssertEqual(readings.map(\.inputs), [[0], [1]])
    }

    /// Blocks that disagree (the second a quarter beat off) are cut at the overlap's middle;
    /// a block with no beats in the overlap leaves the other's beats there.
    func testDisagreeingBlocksAreCutAtTheMiddle() {
        var s = BeatStitcher()
        s.add(block(grid(from: 0, to: 20, period: 0.5)), offset: 0, overlapEnd: 0)
        s.add(block(grid(from: 0.125, to: 20, period: 0.5), bpm: 90), offset: 15, overlapEnd: 20)
        let a = s.result(updates: [])
        XCTAssertEqual(a.beats.filter { $0.time < 17.5 }.count, 35)
        XCTAssertEqual(a.beats.first { $0.time >= 17.5 }?.time ?? 0, 17.625, accuracy: 1e-9)
        XCTAssertEqual(a.segments.map(\.bpm), [120, 90])
        XCTAssertEqual(a.segments[0].end, 17.5, accuracy: 1e-9)
        XCTAssertEqual(a.segments[1].start, 17.5, accuracy: 1e-9)

        var quiet = BeatStitcher()
        quiet.add(block(grid(from: 0, to: 20, period: 0.5)), offset: 0, overlapEnd: 0)
        quiet.add(block(grid(from: 10, to: 20, period: 0.5)), offset: 15, overlapEnd: 20)
        let b = quiet.result(updates: [])
        XCTAssertEqual(b.beats.map(\.time), grid(from: 0, to: 20, period: 0.5) + grid(from: 25, to: 35, period: 0.5))
    }

    /// The metre and bar phase are those most beats were given: a block in threes, longer
    /// than either block in fours around it but shorter than both, does not renumber them.
    func testBarsFollowMostBeats() {
        var s = BeatStitcher()
        s.add(block(grid(from: 0, to: 20, period: 0.5)), offset: 0, overlapEnd: 0)
        s.add(block(grid(from: 0, to: 25, period: 0.5), perBar: 3), offset: 15, overlapEnd: 20)
        // Cut at 37.5 s: its beats from 38 s are the 77th on, so counting from its third beat
        // is the first block's phase.
        s.add(block(grid(from: 0, to: 20, period: 0.5), first: 2), offset: 35, overlapEnd: 40)
        let a = s.result(updates: [])
        XCTAssertEqual(a.beats.count, 110)
        XCTAssertEqual(a.beatsPerBar, 4)
        XCTAssertEqual(a.beats.map { $0.position ?? 0 }, (0..<a.beats.count).map { $0 % 4 + 1 })
    }
    /// A split whose two tempi come out the same (within 2 BPM or 3 %) is no tempo change:
    /// "135.6 BPM, then 135.1" is one segment; 120 then 100 stays two.
    func testSegmentsOfTheSameTempoAreOne() {
        let same = [TempoSegment(start: 0, end: 4.5, bpm: 135.6), TempoSegment(start: 4.5, end: 30, bpm: 135.1)]
        let one = BeatAnalyzer.mergedSegments(same)
        XCTAssertEqual(one.count, 1)
        XCTAssertEqual(one[0].start, 0)
        XCTAssertEqual(one[0].end, 30)
        XCTAssertEqual(one[0].bpm, (135.6 * 4.5 + 135.1 * 25.5) / 30, accuracy: 1e-9)
        XCTAssertEqual(BeatAnalyzer.mergedSegments([TempoSegment(start: 0, end: 20, bpm: 174), TempoSegment(start: 20, end: 40, bpm: 179)]).count, 1)
        let change = [
            TempoSegment(start: 0, end: 10, bpm: 120), TempoSegment(start: 10, end: 20, bpm: 100),
            TempoSegment(start: 20, end: 30, bpm: 101.5),
        ]
        XCTAssertEqual(BeatAnalyzer.mergedSegments(change).map(\.bpm), [120, (100 * 10 + 101.5 * 10) / 20])
        XCTAssertFalse(TempoSegment.sameTempo(60, 62.5))
    }
}
