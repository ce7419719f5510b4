/// Joins the beat analyses of overlapping blocks of one input into one analysis
/// (`BlockBeatAnalyzer`): whatever model made each block's beats, the seams are cut where
/// the two blocks agree, tempo segments of the same tempo are joined across a seam, and the
/// bar positions are counted on through the seams, in the metre and phase of most beats.
struct BeatStitcher {
    /// Two beats closer than this (s) are one beat (the ±70 ms of the beat-tracking F-measure).
    static let sameBeat = 0.07

    /// The beats so far, in media time; positions are their blocks' own until `result`.
    private(set) var beats: [Beat] = []
    private(set) var segments: [TempoSegment] = []
    /// Every block's phase decisions, in media time (overlapping blocks both read their overlap).
    private(set) var phaseReadings: [BeatAnalyzer.PhaseReading] = []
    /// Whether any block was added.
    private(set) var isEmpty = true
    /// The tempo (BPM) of the last segment so far and its block's metrical level factor.
    private(set) var lastLevel: (bpm: Double, factor: Double)?
    /// The block with the most beats: the level (with the model's inputs and probabilities) and
    /// the compound reading come from it.
    private var best: BeatAnalysis?
    /// Where `best` starts (s).
    private var bestOffset = 0.0
    /// Beats of the blocks per (beats per bar, bar phase of index 0 in `beats`): the metre
    /// and the bar phase are those most beats were given.
    private var bars: [Int: [Int: Int]] = [:]
    /// Blocks with beats, and those of them whose tempo no display led (`fromWholeTrack`).
    private var blocksWithBeats = 0, heardBlocks = 0

    /// Adds the analysis of the next block, whose times count from `offset` (s). The blocks
    /// overlap over `offset ..< overlapEnd` (the end of the previous block).
    mutating func add(_ block: BeatAnalysis, offset: Double, overlapEnd: Double) {
        let new = block.beats.map { Beat(time: $0.time + offset, position: $0.position) }
        let cut = isEmpty ? (time: offset, old: beats.count, new: 0) : seam(new, from: offset, to: overlapEnd)
        isEmpty = false
        if !block.beats.isEmpty {
            blocksWithBeats += 1
            if block.fromWholeTrack { heardBlocks += 1 }
        }
        beats.removeSubrange(cut.old...)
        var first = cut.new
        if let last = beats.last, first < new.count, new[first].time - last.time < Self.sameBeat { first += 1 }
        let base = beats.count - first
        if first < new.count { beats.append(contentsOf: new[first...]) }
        join(block.segments.map { TempoSegment(start: $0.start + offset, end: $0.end + offset, bpm: $0.bpm) }, at: cut.time)
        if let last = block.segments.last { lastLevel = (last.bpm, block.levelFactor) }
        for var r in block.phaseReadings {
            r.beats = r.beats.map { $0 + offset }
            phaseReadings.append(r)
        }
        if block.beats.count > best?.beats.count ?? 0 { best = block; bestOffset = offset }
        // Any downbeat of the block gives the phase of its kept beats: index `j` of the
        // block is `base + j` here, whether or not beat `j` was kept.
        if let n = block.beatsPerBar, let j = block.beats.firstIndex(where: { $0.position == 1 }) {
            bars[n, default: [:]][((base + j) % n + n) % n, default: 0] += block.beats.count
        }
    }

    /// Where to cut between the beats so far and the `new` block's over the overlap
    /// `lo ..< hi`: the agreeing pair of beats (within `sameBeat`) nearest the overlap's
    /// middle (the earlier block has heard what follows it, the later one what precedes it),
    /// else the middle. Returns the time of the cut, how many old beats stay and the index
    /// of the first new beat to take. Where one side has no beats in the overlap, the
    /// other's are all kept.
    private func seam(_ new: [Beat], from lo: Double, to hi: Double) -> (time: Double, old: Int, new: Int) {
        let oldStart = beats.firstIndex { $0.time >= lo } ?? beats.count
        let newEnd = new.firstIndex { $0.time >= hi } ?? new.count
        let middle = (lo + hi) / 2
        if oldStart == beats.count { return (lo, beats.count, 0) }
        if newEnd == 0 { return (hi, beats.count, 0) }
        var pick: (i: Int, j: Int)?
        var distance = Double.infinity
        var j = 0
        for i in oldStart..<beats.count {
            let t = beats[i].time
            while j < newEnd && new[j].time < t - Self.sameBeat { j += 1 }
            guard j < newEnd, abs(new[j].time - t) <= Self.sameBeat, abs(t - middle) < distance else { continue }
            pick = (i, j)
            distance = abs(t - middle)
        }
        if let pick { return (beats[pick.i].time, pick.i + 1, pick.j + 1) }
        return (middle, beats.firstIndex { $0.time >= middle } ?? beats.count, new.firstIndex { $0.time >= middle } ?? new.count)
    }

    /// Appends a block's segments, cut at `time`: the old ones end there, the new ones start
    /// there, and the two either side of it become one when they are the same tempo.
    private mutating func join(_ new: [TempoSegment], at time: Double) {
        while let last = segments.last, last.start >= time { segments.removeLast() }
        if let last = segments.last, last.end > time { segments[segments.count - 1].end = time }
        for var s in new where s.end > time {
            s.start = max(s.start, time)
            if let last = segments.last, TempoSegment.sameTempo(last.bpm, s.bpm) {
                segments[segments.count - 1] = last.joined(with: s)
            } else {
                segments.append(s)
            }
        }
    }

    /// The joined analysis, with `updates` as its display timeline: the bars are numbered on
    /// through every seam in the metre and phase that most beats were given (ties: more
    /// beats per bar, the earlier phase).
    func result(updates: [TempoUpdate]) -> BeatAnalysis {
        var out = BeatAnalysis(updates: updates)
        out.segments = segments
        out.beats = beats
        out.phaseReadings = phaseReadings
        // Heard over the whole track only when no block's display led its beats.
        out.fromWholeTrack = blocksWithBeats > 0 && heardBlocks == blocksWithBeats
        guard let best else { return out }
        out.levelFactor = best.levelFactor
        out.compound = best.compound
        out.levelInputs = best.levelInputs
        out.levelProbabilities = best.levelProbabilities
        out.downbeatReading = best.downbeatReading.map { r in
            var r = r
            r.beats = r.beats.map { $0 + bestOffset }
            return r
        }
        let metre = bars.max { a, b in
            (a.value.values.reduce(0, +), a.key) < (b.value.values.reduce(0, +), b.key)
        }
        let phase = metre?.value.max { a, b in (a.value, b.key) < (b.value, a.key) }?.key
        out.beatsPerBar = metre?.key
        for k in out.beats.indices {
            if let n = metre?.key, let phase {
                out.beats[k].position = ((k - phase) % n + n) % n + 1
            } else {
                out.beats[k].position = nil
            }
        }
        return out
    }
}
