/// Offline beat analysis of an input of any length in memory bounded by the block length,
/// not the input's (issue 36). `BeatAnalyzer` keeps whole-track envelopes until `finish`;
/// this runs one on each block of `blockSeconds`, the blocks overlapping by `overlapSeconds`
/// (at most two analyzers alive at once), finishes each as soon as it has heard its block,
/// and joins the results (`BeatStitcher`). The display timeline comes from one causal
/// `TempoTracker` that hears the whole input, as it does without blocks.
///
/// An input no longer than one block is analysed exactly as by one `BeatAnalyzer`: the same
/// result, to the bit.
public final class BlockBeatAnalyzer {
    /// Default block length (s): ten minutes, about 10 MB of analysis state, and while a
    /// block is finished the beat programme's table (10 bytes per frame and candidate
    /// interval: ~15 MB at 120 BPM, ~30 MB at 60).
    public static let blockSeconds = 600.0
    /// Default overlap of consecutive blocks (s): the seam is cut in it, far from both
    /// blocks' edges.
    public static let overlapSeconds = 30.0

    public let sampleRate: Int
    /// The causal tracker that hears the whole input (the first block's own).
    public let tracker: TempoTracker
    private let tracksBeats: Bool
    private let range: ClosedRange<Double>?
    private let blockLength: Int
    private let stride: Int
    /// The live blocks (at most two): first sample and analyzer.
    private var blocks: [(start: Int, analyzer: BeatAnalyzer)] = []
    private var samplesIn = 0
    private var nextStart = 0
    private var stitcher = BeatStitcher()
    /// The display timeline, once the first block has been let go (before: that block's).
    private var laterUpdates: [TempoUpdate] = []

    /// - Parameters:
    ///   - beats: false runs only the causal tracker (`updates`; no beats from `finish`).
    ///   - range: as `BeatAnalyzer.finish(range:)`.
    ///   - blockSeconds, overlapSeconds: the blocks (the overlap under half a block).
    ///   - reviewsPhase: as `BeatAnalyzer.init` (the causal tracker's predicted beats).
    public init(
        sampleRate: Int, beats: Bool = true, range: ClosedRange<Double>? = nil, reviewsPhase: Bool = false,
        blockSeconds: Double = BlockBeatAnalyzer.blockSeconds, overlapSeconds: Double = BlockBeatAnalyzer.overlapSeconds
    ) {
        precondition(overlapSeconds > 0 && 2 * overlapSeconds < blockSeconds, "blocks overlap by less than half a block")
        self.sampleRate = sampleRate
        self.range = range
        tracksBeats = beats
        let first = BeatAnalyzer(sampleRate: sampleRate, beats: beats, reviewsPhase: reviewsPhase)
        // Blocks start on a multiple of every hop, so that their frames are the frames of one
        // analysis of the whole input.
        let grid = [first.hop, ChromaStream(sampleRate: sampleRate).size].reduce(first.tracker.hop) { a, b in
            var (x, y) = (a, b)
            while y != 0 { (x, y) = (y, x % y) }
            return a / x * b
        }
        blockLength = Int((blockSeconds * Double(sampleRate)).rounded())
        stride = max(grid, (blockLength - Int((overlapSeconds * Double(sampleRate)).rounded())) / grid * grid)
        tracker = first.tracker
        blocks = [(0, first)]
        nextStart = beats ? stride : Int.max
    }

    /// The causal display timeline so far.
    public var updates: [TempoUpdate] {
        if let first = blocks.first, first.start == 0 { return first.analyzer.updates }
        return laterUpdates
    }

    /// Feeds mono samples (full scale ±1).
    public func process(_ samples: UnsafeBufferPointer<Float>) {
        var offset = 0
        while offset < samples.count {
            // Up to the next block's start or the end of a live block, whichever comes first.
            var end = samplesIn + (samples.count - offset)
            if tracksBeats {
                end = min(end, nextStart)
                for b in blocks { end = min(end, b.start + blockLength) }
            }
            let part = UnsafeBufferPointer(rebasing: samples[offset..<(offset + end - samplesIn)])
            if blocks.first?.start != 0 { tracker.process(part) }
            for b in blocks { b.analyzer.process(part) }
            offset += part.count
            samplesIn = end
            if tracksBeats, let first = blocks.first, samplesIn == first.start + blockLength {
                close(blocks.removeFirst())
            }
            if samplesIn == nextStart {
                blocks.append((nextStart, BeatAnalyzer(sampleRate: sampleRate)))
                nextStart += stride
            }
        }
    }

    /// Finishes a block and adds it to the result; the first block hands its tracker on.
    private func close(_ block: (start: Int, analyzer: BeatAnalyzer)) {
        if block.start == 0 {
            laterUpdates = block.analyzer.updates
            tracker.onUpdate = { [unowned self] in self.laterUpdates.append($0) }
        }
        let offset = Double(block.start) / Double(sampleRate)
        let overlapEnd = Double(block.start - stride + blockLength) / Double(sampleRate)
        var analysis = block.analyzer.finish(range: range)
        // Each block picks its metrical level; over the same tempo it keeps the one before it
        // (one steady track is reported at one level, as without blocks).
        if range == nil, let (bpm, factor) = stitcher.lastLevel, analysis.levelFactor != factor, let first = analysis.segments.first,
            abs(first.bpm / analysis.levelFactor - bpm / factor) <= Self.sameTempo * bpm / factor
        {
            analysis = block.analyzer.finish(range: (bpm / 2.squareRoot())...(bpm * 2.squareRoot()))
        }
        stitcher.add(analysis, offset: offset, overlapEnd: overlapEnd)
    }
    /// Folded tempi closer than this fraction are one tempo (for the level across a seam).
    static let sameTempo = 0.04

    /// Analyses everything heard (call once, at the end of the input).
    public func finish() -> BeatAnalysis {
        guard let last = blocks.first else { return stitcher.result(updates: laterUpdates) }
        // Only one block so far: exactly `BeatAnalyzer`'s analysis.
        if last.start == 0 { return last.analyzer.finish(range: range) }
        // The oldest live block has heard all that a younger one has, and more before it.
        blocks.removeAll()
        close(last)
        return stitcher.result(updates: laterUpdates)
    }
}
