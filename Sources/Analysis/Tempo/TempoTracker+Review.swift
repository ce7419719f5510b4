// The live beats' phase reviewed by the offline analysis of the last seconds (`PhaseReview`).
//
// The off-beat audit (`auditOffBeat`) and the programme's veto on jumps of half a beat
// (`gridHoldsTheBeat`) read 8–16 predicted beats of the live envelopes; on an off-beat groove
// that evidence is mixed, the grid slides between the beat and the off-beat within a few bars,
// and a reading of it is half of each. The offline analysis reads its whole window with
// look-ahead and decides the phase as it does for a file. Every `reviewUpdates` tempo updates
// (~2 s) one starts on the newest `PhaseReview.seconds` of audio; at the next update its beats
// of the last `reviewSeconds` are laid against the live grid. Where most fall half a beat off
// it, the grid moves there, unless the kicks mark it (as no jump of the programme leaves beats
// the kicks mark: `gridHoldsTheBeat`); where most fall on it or it moved, neither the audit nor
// the programme moves it by half a beat for `reviewHold` seconds (the next review renews that).
// Where the review's beats keep another tempo or level, it says nothing and the rules act. At a
// doubled level (drum & bass) the review judges the doubled grid as it judges any other, against
// the offline analysis's own snare-on-the-beat rule and phase model.
//
// Development sets, causal beat F: dev3 0.923 → 0.9225, dev5 0.886 → 0.911, dev6 0.898 → 0.909;
// training copies +0.007 to +0.034. A window's analysis now and then reads a groove on its
// off-beat for one review and the next reads it right: a move waiting for two reviews in a row
// lost 0.0005–0.004 on every training copy; the kicks' veto costs nothing measurable there.
extension TempoTracker {
    /// Tempo updates between reviews (~2 s).
    static let reviewUpdates = 4
    /// The newest seconds of a review's window whose beats are laid against the grid.
    static let reviewSeconds = 8.0
    /// The least of its beats there.
    static let reviewBeats = 4
    /// The review's median beat interval within this share of the grid's period, or no verdict.
    static let reviewTempo = 0.08
    /// The least share of the review's beats that must fall on the grid (within 0.2 of a period)
    /// or half a beat off it (beyond 0.3) for a verdict.
    static let reviewShare = 0.75
    /// Seconds a verdict holds the phase against the rules' moves of half a beat.
    static let reviewHold = 4.0

    /// At each tempo update: the pending review's verdict, then a new review when one is due.
    func reviewPhase() {
        guard let review else { return }
        if let done = review.take() { applyReview(done.beats, end: done.end) }
        updatesSinceReview += 1
        guard updatesSinceReview >= Self.reviewUpdates, filter.display != nil, nextBeatFrame != nil, review.canStart
        else { return }
        updatesSinceReview = 0
        review.start()
    }

    /// Lays the review's beats (media time, s) within `reviewSeconds` of `end` against the grid
    /// of the next beat: moves it half a beat where they fall half-way and the kicks do not
    /// mark it, and holds it.
    func applyReview(_ all: [Double], end: Double) {
        guard let shown = filter.display, let next = nextBeatFrame else { return }
        let period = 60 * frameRate / (shown.bpm * level)
        let seconds = period * Double(hop) / Double(sampleRate)
        let beats = all.filter { $0 >= end - Self.reviewSeconds }
        guard beats.count >= Self.reviewBeats else { return }
        var intervals = zip(beats.dropFirst(), beats).map { $0 - $1 }
        intervals.sort()
        guard abs(intervals[intervals.count / 2] / seconds - 1) < Self.reviewTempo else { return }
        let due = (next + Self.beatOffset + attackLead) * Double(hop) / Double(sampleRate)
        var on = 0, off = 0
        for b in beats {
            var phase = ((b - due) / seconds).truncatingRemainder(dividingBy: 1)
            if phase < -0.5 { phase += 1 } else if phase >= 0.5 { phase -= 1 }
            if abs(phase) < 0.2 { on += 1 } else if abs(phase) > 0.3 { off += 1 }
        }
        let need = Int((Self.reviewShare * Double(beats.count)).rounded(.up))
        guard on >= need || off >= need else { return }
        if off >= need {
            guard !gridHoldsTheBeat(next: next, period: period, kicksOnly: true) else { return }
            nextBeatFrame = next + 0.5 * period
            halfShift = halfShift == 0 ? 0.5 : 0
            offBeatVotes = 0
            // Beats already announced stay; the history's beats must not vote again.
            auditFrom = framesIn
        }
        reviewHoldsUntil = framesIn + Int(Self.reviewHold * frameRate)
    }

    /// Whether a review holds the beats' phase now.
    var reviewHolds: Bool { framesIn < reviewHoldsUntil }
}
