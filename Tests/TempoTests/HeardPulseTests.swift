import SpecvizTestSupport
import XCTest

@testable import Analysis

/// A pulse the live display never showed, heard over the whole track (`BeatAnalyzer.heardPulse`;
/// issue 37 item 2: bowed strings got no beats). Its decision on hand-made estimate streams
/// (one raw estimate per ~0.5 s update, no display), then end to end on a legato line.
final class HeardPulseTests: XCTestCase {
    private let rate = 22_050

    /// `count` updates 0.49 s apart with raw estimates from `bpm(k)` and the given evidence.
    private func stream(
        count: Int = 50, confidence: Double = 0.3, movement: Double, novelty: Double, peakiness: Double = 3,
        bpm: (Int) -> Double
    ) -> [TempoUpdate] {
        (0..<count).map { k in
            var e = TempoEstimate(bpm: bpm(k), confidence: confidence, sharpness: 0.9, peakiness: peakiness, pulse: 0.1)
            e.movement = movement
            e.novelty = novelty
            return TempoUpdate(time: 0.49 * Double(k + 1), display: nil, raw: e)
        }
    }

    /// Estimates that breathe ±5 % around 97 BPM, one in five at 4/3 of it, while the harmony
    /// moves and notes keep arriving (a bowed chorale's raw readings): the mode, near 97.
    func testAgreeingEstimatesOfMovingNotesAreAPulse() throws {
        let updates = stream(movement: 0.09, novelty: 0.012) { k in
            k % 5 == 4 ? 129 : 97 * (1 + 0.05 * sin(Double(k) / 4))
        }
        let heard = try XCTUnwrap(BeatAnalyzer.heardPulse(updates))
        XCTAssertEqual(heard.bpm, 97, accuracy: 3)
        XCTAssertEqual(heard.start, updates.first { $0.time >= BeatAnalyzer.heardFrom }?.time ?? 0, accuracy: 1e-9)
    }

    /// The same agreement is no pulse when the pitch content holds (a swelling or beating chord:
    /// movement 0.02), when no new energy comes (a chord decaying in reverb, whose fading partials
    /// move the chroma: movement 0.055, novelty 0.0005), when the estimates scatter over the
    /// octave, or over fewer than 12 estimates.
    func testHeldChordsScatterAndShortStreamsAreNot() {
        let steady: (Int) -> Double = { 97 * (1 + 0.02 * sin(Double($0))) }
        XCTAssertNil(BeatAnalyzer.heardPulse(stream(movement: 0.02, novelty: 0.02, bpm: steady)))
        XCTAssertNil(BeatAnalyzer.heardPulse(stream(movement: 0.055, novelty: 0.0005, bpm: steady)))
        let scattered = stream(movement: 0.09, novelty: 0.012) { k in 80 * pow(2, Double((k * 7) % 20) / 20) }
        XCTAssertNil(BeatAnalyzer.heardPulse(scattered))
        XCTAssertNil(BeatAnalyzer.heardPulse(stream(count: 17, movement: 0.09, novelty: 0.012, bpm: steady)))
        XCTAssertNotNil(BeatAnalyzer.heardPulse(stream(count: 18, movement: 0.09, novelty: 0.012, bpm: steady)))
    }

    /// Harmony that moves slowly (movement 0.04, under the 0.05 that alone passes) is a pulse when
    /// the onsets are spread through the track as played notes' are (the onset signal's kurtosis
    /// about 3), and not when one attack dominates it (kurtosis 10: a struck chord fading in
    /// reverb, whose fading partials move the chroma as much, with a little new energy).
    func testSlowHarmonyIsAPulseOnlyOverSpreadOnsets() {
        let steady: (Int) -> Double = { 112 * (1 + 0.02 * sin(Double($0))) }
        let played = BeatAnalyzer.heardPulse(stream(movement: 0.04, novelty: 0.01, peakiness: 3.2, bpm: steady))
        XCTAssertEqual(played?.bpm ?? 0, 112, accuracy: 3)
        XCTAssertNil(BeatAnalyzer.heardPulse(stream(movement: 0.04, novelty: 0.01, peakiness: 10, bpm: steady)))
        XCTAssertNil(BeatAnalyzer.heardPulse(stream(movement: 0.02, novelty: 0.01, peakiness: 3.2, bpm: steady)))
    }

    /// End to end: a legato chord line bowed at 132 BPM with a rubato of ±8 % over four bars
    /// never holds the display for a quarter of its 20 s, so main gave it no beats. Its
    /// estimates agree and its harmony moves: it gets beats at about its tempo (the rubato
    /// pulls the mode a few per cent slow) over the whole track, reported as heard. A held
    /// beating chord of the same length still gets none.
    func testRubatoLegatoLineWithoutADisplayGetsBeats() {
        let line = ClickTracks.bowedLine(bpm: 132, seconds: 20, sampleRate: rate, attack: 0.14, rubato: 0.08)
        let a = analyse(line.samples)
        XCTAssertTrue(a.fromWholeTrack, "display: \(a.updates.compactMap { $0.display?.bpm })")
        let reported = a.bpm ?? 0
        XCTAssertTrue([0.5, 1, 2].contains { abs(reported / ($0 * 132) - 1) <= 0.08 }, "reported \(reported)")
        let expected = Double(line.beats.count) * reported / 132
        XCTAssertEqual(Double(a.beats.count), expected, accuracy: 0.15 * expected, "\(a.beats.count) beats")
        let chord = ClickTracks.beatingChord(detune: 1.7, seconds: 20, sampleRate: rate)
        XCTAssertTrue(analyse(chord).beats.isEmpty)
    }

    private func analyse(_ samples: [Float]) -> BeatAnalysis {
        let analyzer = BeatAnalyzer(sampleRate: rate)
        Signals.inChunks(samples) { analyzer.process($0) }
        return analyzer.finish()
    }
}
