import Foundation
import Tuning

/// Groups the tuner's display timeline into the notes shown, for `specviz tune`'s
/// human-readable summary. A note's mean is taken over its sure detections only (the
/// detection of each hop whose reading was sure and measured, not the display's smoothed
/// pitch); a note with too few of them (`Segment.isSure`) is reported "unsure", without cents.
///
/// Each segment keeps running sums and only its first `settleHops` readings (the mean skips
/// up to that many hops of smoothing after the latch), so adding a hop costs O(1) time and
/// a held note of any length uses constant memory (issue 14 §6: the old summary copied the
/// growing segment every hop, quadratic in the note's length).
public struct TuneSummary: Sendable {
    /// Hops skipped at the start of a segment's mean (100 ms of smoothing at 512/48 k).
    public static let settleHops = 10
    /// Sure readings a note needs for its cents to be reported.
    public static let minSure = 5

    public struct Segment: Sendable {
        public var note: Note
        public var target: Note
        public var start: Double
        public var end: Double
        /// Readings in the segment, and those of them that were sure (`TunerReading.unsure`).
        public private(set) var count = 0
        public private(set) var sureCount = 0
        /// Σ cents and Σ Hz over the sure readings.
        private var centsSum = 0.0, hzSum = 0.0
        /// The first `settleHops` sure readings (cents, Hz); fixed size.
        private var headCents = (0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0)
        private var headHz = (0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0)

        init(note: Note, target: Note, time: Double) {
            self.note = note; self.target = target; start = time; end = time
        }

        /// Readings the segment stores individually (≤ `settleHops`, whatever its length).
        public var storedReadings: Int { min(sureCount, TuneSummary.settleHops) }

        /// Whether the note was measured: sure on at least `minSure` hops and a quarter of
        /// the segment. Else the summary gives no cents (an unsure note, e.g. a bass under
        /// a kick on every beat).
        public var isSure: Bool { sureCount >= TuneSummary.minSure && 4 * sureCount >= count }

        mutating func append(cents: Double, hz: Double, sure: Bool = true) {
            count += 1
            guard sure else { return }
            if sureCount < TuneSummary.settleHops {
                withUnsafeMutableBytes(of: &headCents) { $0.bindMemory(to: Double.self)[sureCount] = cents }
                withUnsafeMutableBytes(of: &headHz) { $0.bindMemory(to: Double.self)[sureCount] = hz }
            }
            centsSum += cents; hzSum += hz
            sureCount += 1
        }

        /// Mean cents and Hz over the settled part of the sure readings: the first
        /// min(sureCount/2, settleHops) of them are skipped.
        public var settledMean: (cents: Double, hz: Double) {
            let skip = min(sureCount / 2, TuneSummary.settleHops)
            var c = centsSum, h = hzSum
            withUnsafeBytes(of: headCents) { b in
                let v = b.bindMemory(to: Double.self)
                for i in 0..<skip { c -= v[i] }
            }
            withUnsafeBytes(of: headHz) { b in
                let v = b.bindMemory(to: Double.self)
                for i in 0..<skip { h -= v[i] }
            }
            let n = Double(max(sureCount - skip, 1))
            return (c / n, h / n)
        }
    }

    public private(set) var segments: [Segment] = []

    public init() {}

    /// Adds one hop's display (nil = `---`) at media time `time` (s); `hop` is the hop
    /// duration (s). A gap of more than 2.5 hops or another note starts a new segment.
    public mutating func add(_ r: TunerReading?, time: Double, hop: Double) {
        guard let r else { return }
        // A note is measured on its own detections, not on the display's smoothed pitch: that
        // lags them (a bass note's first sure reading under a kick's tail, 7 cents flat, was
        // kept for the rest of the note), and hops that only hold it say nothing.
        let sure = !r.unsure && r.measured
        let hz = sure ? r.detection : r.frequency
        let cents = sure ? r.cents + 1200 * log2(r.detection / r.frequency) : r.cents
        let n = segments.count
        if n > 0, segments[n - 1].note == r.note, segments[n - 1].target == r.target,
            time - segments[n - 1].end <= 2.5 * hop
        {
            segments[n - 1].end = time
            segments[n - 1].append(cents: cents, hz: hz, sure: sure)
        } else {
            var s = Segment(note: r.note, target: r.target, time: time)
            s.append(cents: cents, hz: hz, sure: sure)
            segments.append(s)
        }
    }

    /// Segments long enough to report (held ≥ 0.1 s).
    public var shown: [Segment] { segments.filter { $0.end - $0.start >= 0.1 } }

    /// The summary text: one line per note held at least 100 ms.
    public func report(
        file: String, duration: Double, preset: TuningPreset, reference: Double, flats: Bool,
        system: TuningSystem = .equal
    ) -> String {
        var s = String(format: "%@: %.2f s, preset %@, A4 = %g Hz", file, duration, preset.id, reference)
        if system.temperament.id != "equal" { s += ", \(system.temperament.id) on \(Note.sharpNames[system.tonic])" }
        if system.transpose != 0 { s += String(format: ", written pitch (%+d semitones)", system.transpose) }
        s += "\n"
        let shown = self.shown
        if shown.isEmpty { return s + "  no pitch detected\n" }
        s += "  start s  note  target   mean Hz   mean cents  held s\n"
        for g in shown {
            let (mc, mh) = g.settledMean
            let note = g.note.name(flats: flats).padding(toLength: 5, withPad: " ", startingAt: 0)
            let target = g.target.name(flats: flats).padding(toLength: 6, withPad: " ", startingAt: 0)
            let measured =
                g.isSure
                ? String(format: " %8.2f   %+7.1f ¢    %5.2f  ", mh, mc, g.end - g.start) + TuneSummary.verdict(cents: mc)
                : String(format: "        –         – ¢    %5.2f  ", g.end - g.start) + "unsure"
            s += String(format: "  %7.2f  ", g.start) + note + " " + target + measured + "\n"
        }
        return s
    }

    /// "in tune" within `TuningTolerance.inTune`, else "sharp" or "flat".
    public static func verdict(cents: Double) -> String {
        TuningTolerance.classify(cents: cents) == .inTune ? "in tune" : (cents > 0 ? "sharp" : "flat")
    }
}
