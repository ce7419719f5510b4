/// Joins the beat analyses of overlapping blocks of one input into one analysis
/// (`BlockBeatAnalyzer`): whatever model made each block's beats, the seams are cut where
/// the two blocks agree, tempo segments of the same tempo are joined across a seam, and the
/// bar positions are counted on through the seams.
struct BeatStitcher {
    /// Two beats closer than this (s) are one beat (the ±70 ms of the beat-tracking F-measure).
    static let sameBeat = 0.07
    /// Segments whose tempi differ by less than this (BPM) are one segment across a seam.
    static let sameTempo = 2.0

    /// The beats so far, in media time; positions are their blocks' own until `result`.
    private(set) var beats: [Beat] = []
    private(set) var segments: [TempoSegment] = []
    /// Whether any block was added.
    private(set) var isEmpty = true
    /// The block with the most beats: the metre, level and compound reading come from it,
    /// and `anchor`, the index in `beats` of one of its downbeats, sets the bar phase.
    /// The tempo (BPM) of the last segment so far and its block's metrical level factor.
    private(set) var lastLevel: (bpm: Double, factor: Double)?
    private var best: (count: Int, perBar: Int?, levelFactor: Double, compound: Bool, anchor: Int?)?

    /// Adds the analysis of the next block, whose times count from `offset` (s). The blocks
    /// overlap over `offset ..< overlapEnd` (the end of the previous block).
    mutating func add(_ block: BeatAnalysis, offset: Double, overlapEnd: Double) {
        let new = block.beats.map { Beat(time: $0.time + offset, position: $0.position) }
        let cut = isEmpty ? (time: offset, old: beats.count, new: 0) : seam(new, from: offset, to: overlapEnd)
        isEmpty = false
        beats.removeSubrange(cut.old...)
        var first = cut.new
        if let last = beats.last, first < new.count, new[first].time - last.time < Self.sameBeat { first += 1 }
        let base = beats.count - first
        if first < new.count { beats.append(contentsOf: new[first...]) }
        join(block.segments.map { TempoSegment(start: $0.start + offset, end: $0.end + offset, bpm: $0.bpm) }, at: cut.time)
        if let last = block.segments.last { lastLevel = (last.bpm, block.levelFactor) }
        if block.beats.count > best?.count ?? 0 {
            // Any downbeat of the block fixes the phase of its kept beats: index `j` of the
            // block is `base + j` here, whether or not beat `j` was kept.
            let anchor = block.beats.firstIndex { $0.position == 1 }.map { base + $0 }
            best = (block.beats.count, block.beatsPerBar, block.levelFactor, block.compound, anchor)
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
    /// there, and the two either side of it become one when their tempi are within `sameTempo`.
    private mutating func join(_ new: [TempoSegment], at time: Double) {
        while let last = segments.last, last.start >= time { segments.removeLast() }
        if let last = segments.last, last.end > time { segments[segments.count - 1].end = time }
        for var s in new where s.end > time {
            s.start = max(s.start, time)
            if let last = segments.last, abs(last.bpm - s.bpm) < Self.sameTempo {
                let a = max(0, last.end - last.start), b = max(0, s.end - s.start)
                let bpm = a + b > 0 ? (last.bpm * a + s.bpm * b) / (a + b) : (last.bpm + s.bpm) / 2
                segments[segments.count - 1] = TempoSegment(start: last.start, end: s.end, bpm: bpm)
            } else {
                segments.append(s)
            }
        }
    }

    /// The joined analysis, with `updates` as its display timeline: the bars are numbered on
    /// from the anchor block's phase through every seam.
    func result(updates: [TempoUpdate]) -> BeatAnalysis {
        var out = BeatAnalysis(updates: updates)
        out.segments = segments
        out.beats = beats
        guard let best else { return out }
        out.levelFactor = best.levelFactor
        out.compound = best.compound
        out.beatsPerBar = best.perBar
        for k in out.beats.indices {
            if let n = out.beatsPerBar, let anchor = best.anchor {
                out.beats[k].position = ((k - anchor) % n + n) % n + 1
            } else {
                out.beats[k].position = nil
            }
        }
        return out
    }
}
