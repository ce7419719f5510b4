import Dispatch
import SpecvizCore

/// The offline beat analysis, run now and then on the last seconds of a live stream (issue 37):
/// its beats say where the live grid's phase should be.
///
/// The live tracker's own phase evidence is read over 8–16 predicted beats, and on off-beat
/// grooves (funk, house with loud hats, bossa, drum & bass) it is ambiguous at that scale: an
/// audit told the phase by the annotations was worth +0.03 causal beat F. The offline analysis
/// (`BeatAnalyzer.finish`: the beat programme with look-ahead, then `PhaseModel` on the whole
/// segment) places those grooves on the beat. Its cost is small against real time (~16 ms of
/// CPU for `seconds` of audio, once every `TempoTracker.reviewUpdates` updates), and it runs on
/// its own thread: `start` copies the newest audio and returns, `take` (at the next tempo
/// update, long after the analysis has finished when the audio comes in real time) waits for
/// the beats.
///
/// The ring and the snapshot are allocated at construction; each review allocates its
/// analyzer, once per review, off the audio thread.
final class PhaseReview: @unchecked Sendable {
    // Sendable by hand: `snapshot` and `result` are touched by the worker only between `start`
    // and the end of `take`'s wait (the group orders both), and by the owner only outside it.
    /// Seconds of audio each review analyses.
    static let seconds = 20.0
    /// The least audio (s) a review needs: the offline analysis takes its tempo candidates
    /// from its own display, which starts after ~2 s.
    static let leastSeconds = 4.0

    let sampleRate: Int
    /// Samples the ring holds (`seconds`).
    let capacity: Int
    private let ring: OwnedBuffer<Float>
    private let snapshot: OwnedBuffer<Float>
    /// Samples written so far (the next one goes to `written % capacity`).
    private(set) var written = 0
    private let queue = DispatchQueue(label: "specviz.phase-review")
    private let group = DispatchGroup()
    private var pending = false
    /// The running review's beats (media time, s) and the media time its audio ended.
    private var result: (beats: [Double], end: Double)?

    init(sampleRate: Int) {
        self.sampleRate = sampleRate
        capacity = Int((Self.seconds * Double(sampleRate)).rounded())
        ring = OwnedBuffer(zeroed: capacity)
        snapshot = OwnedBuffer(zeroed: capacity)
    }

    /// Appends `count` samples.
    func push(_ samples: UnsafePointer<Float>, count: Int) {
        var done = 0
        while done < count {
            let at = written % capacity, part = min(count - done, capacity - at)
            (ring.base + at).update(from: samples + done, count: part)
            done += part
            written += part
        }
    }

    /// Whether enough audio has been heard for a review.
    var canStart: Bool { !pending && Double(written) >= Self.leastSeconds * Double(sampleRate) }

    /// Starts a review of the newest audio (at most `seconds`) on the worker.
    func start() {
        guard canStart else { return }
        let n = min(written, capacity), first = (written - n) % capacity
        let part = min(n, capacity - first)
        snapshot.base.update(from: ring.base + first, count: part)
        if part < n { (snapshot.base + part).update(from: ring.base, count: n - part) }
        let start = Double(written - n) / Double(sampleRate), rate = sampleRate
        pending = true
        result = nil
        queue.async(group: group) { [self] in
            let analyzer = BeatAnalyzer(sampleRate: rate, beats: true)
            analyzer.process(UnsafeBufferPointer(start: snapshot.base, count: n))
            let beats = analyzer.finish().beats.map { $0.time + start }
            result = (beats, start + Double(n) / Double(rate))
        }
    }

    /// The beats of the review started last (media time, s) and where its audio ended, waiting
    /// for it; nil when none is pending.
    func take() -> (beats: [Double], end: Double)? {
        guard pending else { return nil }
        group.wait()
        pending = false
        defer { result = nil }
        return result
    }

    /// Forgets the audio heard and any pending review.
    func reset() {
        if pending { group.wait() }
        pending = false
        result = nil
        written = 0
    }
}
