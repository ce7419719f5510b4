import Foundation
import Tuning

/// Groups the tuner's display timeline into the notes shown, for `specviz tune`'s
/// human-readable summary.
///
/// Each segment keeps running sums and only its first `settleHops` readings (the mean skips
/// up to that many hops of smoothing after the latch), so adding a hop costs O(1) time and
/// a held note of any length uses constant memory (issue 14 §6: the old summary copied the
/// growing segment every hop, quadratic in the note's length).
public struct TuneSummary: Sendable {
    /// Hops skipped at the start of a segment's mean (100 ms of smoothing at 512/48 k).
    public static let settleHops = 10

    public struct Segment: Sendable {
        public var note: Note
        public var target: Note
        public var start: Double
        public var end: Double
        /// Readings in the segment.
        public private(set) var count = 0
        /// Σ cents and Σ Hz over all readings.
        private var centsSum = 0.0, hzSum = 0.0
        /// The first `settleHops` readings (cents, Hz); fixed size.
        private var headCents = (0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0)
        private var headHz = (0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0)

        init(note: Note, target: Note, time: Double) {
            self.note = note; self.target = target; start = time; end = time
        }

        /// Readings the segment stores individually (≤ `settleHops`, whatever its length).
        public var storedReadings: Int { min(count, TuneSummary.settleHops) }

        mutating func append(cents: Double, hz: Double) {
            if count < TuneSummary.settleHops {
                withUnsafeMutableBytes(of: &headCents) { $0.bindMemory(to: Double.self)[count] = cents }
                withUnsafeMutableBytes(of: &headHz) { $0.bindMemory(to: Double.self)[count] = hz }
            }
            centsSum += cents; hzSum += hz
            count += 1
        }

        /// Mean cents and Hz over the settled part: the first min(count/2, settleHops)
        /// readings are skipped.
        public var settledMean: (cents: Double, hz: Double) {
            let skip = min(count / 2, TuneSummary.settleHops)
            var c = centsSum, h = hzSum
            withUnsafeBytes(of: headCents) { b in
                let v = b.bindMemory(to: Double.self)
                for i in 0..<skip { c -= v[i] }
            }
            withUnsafeBytes(of: headHz) { b in
                let v = b.bindMemory(to: Double.self)
                for i in 0..<skip { h -= v[i] }
            }
            let n = Double(max(count - skip, 1))
            return (c / n, h / n)
        }
    }

    public private(set) var segments: [Segment] = []

    public init() {}

    /// Adds one hop's display (nil = `---`) at media time `time` (s); `hop` is the hop
    /// duration (s). A gap of more than 2.5 hops or another note starts a new segment.
    public mutating func add(_ r: TunerReading?, time: Double, hop: Double) {
        guard let r else { return }
        let n = segments.count
        if n > 0, segments[n - 1].note == r.note, segments[n - 1].target == r.target,
            time - segments[n - 1].end <= 2.5 * hop
        {
            segments[n - 1].end = time
            segments[n - 1].append(cents: r.cents, hz: r.frequency)
        } else {
            var s = Segment(note: r.note, target: r.target, time: time)
            s.append(cents: r.cents, hz: r.frequency)
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
            let verdict = TuneSummary.verdict(cents: mc)
            let note = g.note.name(flats: flats).padding(toLength: 5, withPad: " ", startingAt: 0)
            let target = g.target.name(flats: flats).padding(toLength: 6, withPad: " ", startingAt: 0)
            s +=
                String(format: "  %7.2f  ", g.start) + note + " " + target
                + String(format: " %8.2f   %+7.1f ¢    %5.2f  ", mh, mc, g.end - g.start) + verdict + "\n"
        }
        return s
    }

    /// "in tune" within `TuningTolerance.inTune`, else "sharp" or "flat".
    public static func verdict(cents: Double) -> String {
        TuningTolerance.classify(cents: cents) == .inTune ? "in tune" : (cents > 0 ? "sharp" : "flat")
    }
}
