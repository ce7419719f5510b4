import Analysis
import SpecvizTestSupport
import XCTest

/// The beat analysis in blocks (issue 36: `tempo` memory constant in the input's length),
/// with blocks of seconds instead of minutes so that 30 s of clicks cross three seams.
final class BlockBeatAnalyzerTests: XCTestCase {
    private let rate = 22_050

    private func feed(_ samples: [Float], chunk: Int = 4096, _ process: (UnsafeBufferPointer<Float>) -> Void) {
        Signals.inChunks(samples, of: chunk, process)
    }

    /// A kick on the bar line, clicks on the other beats.
    private func bars(bpm: Double, seconds: Double) -> [Float] {
        ClickTracks.pattern(
            bpm: bpm, beatsPerBar: 4, hits: [(0, .kick), (1, .click), (2, .click), (3, .click)], seconds: seconds, sampleRate: rate)
    }

    /// 30 s at 100 BPM in 10 s blocks overlapping by 3 s (seams cut near 8.5, 15.5 and 22.5 s):
    /// one beat per click from start to end, none doubled or missing at a seam, one tempo
    /// segment, the bars numbered on through the seams, and the display timeline that of one
    /// tracker over the whole input.
    func testBeatsAndBarsRunOnAcrossSeams() {
        let bpm = 100.0, seconds = 30.0, period = 60 / bpm
        let audio = bars(bpm: bpm, seconds: seconds)
        let blocks = BlockBeatAnalyzer(sampleRate: rate, blockSeconds: 10, overlapSeconds: 3)
        feed(audio) { blocks.process($0) }
        let a = blocks.finish()
        let times = a.beats.map(\.time)
        XCTAssertGreaterThan(times.count, 40)
        XCTAssertLessThan(times.first ?? .infinity, 5, "beats from the start")
        XCTAssertGreaterThan(times.last ?? 0, seconds - 2, "beats to the end")
        for (t, next) in zip(times, times.dropFirst()) {
            XCTAssertEqual(next - t, period, accuracy: 0.03, "a gap or a doubled beat at \(t) s")
        }
        for t in times { XCTAssertEqual(t, (t / period).rounded() * period, accuracy: 0.07, "beat off the clicks at \(t) s") }
        XCTAssertEqual(a.segments.count, 1, "\(a.segments)")
        XCTAssertEqual(a.bpm ?? 0, bpm, accuracy: 1)
        XCTAssertEqual(a.beatsPerBar, 4)
        let positions = a.beats.compactMap(\.position)
        XCTAssertEqual(positions.count, a.beats.count)
        for (k, (p, next)) in zip(positions, positions.dropFirst()).enumerated() {
            XCTAssertEqual(next, p % 4 + 1, "bar numbering broken at \(times[k + 1]) s")
        }
        let one = TempoTracker(sampleRate: rate)
        var updates: [TempoUpdate] = []
        one.onUpdate = { updates.append($0) }
        feed(audio) { one.process($0) }
        XCTAssertEqual(a.updates, updates)
        XCTAssertEqual(blocks.tracker.time, seconds, accuracy: 1.0 / Double(rate))
    }

    /// An input no longer than a block is one `BeatAnalyzer`'s analysis, to the bit.
    func testOneBlockIsTheWholeTrackAnalysis() {
        let audio = bars(bpm: 100, seconds: 14)
        let blocks = BlockBeatAnalyzer(sampleRate: rate, blockSeconds: 15, overlapSeconds: 5)
        let whole = BeatAnalyzer(sampleRate: rate)
        feed(audio) {
            blocks.process($0); whole.process($0)
        }
        let a = blocks.finish(), b = whole.finish()
        XCTAssertFalse(b.beats.isEmpty)
        XCTAssertEqual(a.beats, b.beats)
        XCTAssertEqual(a.segments, b.segments)
        XCTAssertEqual(a.updates, b.updates)
        XCTAssertEqual(a.meter, b.meter)
    }

    /// Chunks of the decoder's size are analysed by the causal tracker and the offline
    /// envelopes on two threads; chunks under `BeatAnalyzer.parallelChunk` one after the
    /// other on one. Both give the same analysis, to the bit.
    func testTwoThreadsGiveTheOneThreadAnalysis() {
        let audio = bars(bpm: 112, seconds: 14)
        let twoThreads = BeatAnalyzer(sampleRate: rate), oneThread = BeatAnalyzer(sampleRate: rate)
        feed(audio, chunk: 8192) { twoThreads.process($0) }
        feed(audio, chunk: 1000) { oneThread.process($0) }
        let a = twoThreads.finish(), b = oneThread.finish()
        XCTAssertGreaterThan(b.beats.count, 10)
        XCTAssertEqual(a.beats, b.beats)
        XCTAssertEqual(a.segments, b.segments)
        XCTAssertEqual(a.updates, b.updates)
        XCTAssertEqual(a.meter, b.meter)
    }
}
