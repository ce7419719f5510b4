/// How close a reading is to its target note: the one set of limits every tuner display
/// (overlay, LED arc, wheel, ruler, strobe info bar), `tune`'s verdicts and the `--report`
/// chart share, so no two of them disagree about the same reading.
public enum TuningClass: Sendable, Equatable, CaseIterable {
    /// Within ±`TuningTolerance.inTune` cents: green (white on the CRT tuner), "in tune".
    case inTune
    /// Within ±`TuningTolerance.near` cents: amber, close enough to finish by ear.
    case near
    /// Beyond: red.
    case far
}

/// The in-tune and near limits in cents.
///
/// ±5 ¢ in tune: the just-noticeable difference for pitch on sustained tones is about
/// 5–10 ¢, and hardware tuners (Peterson, Boss, TC) light their centre at ±1–5 ¢, so a reading
/// inside ±5 ¢ sounds in tune and anything the display calls in tune is. ±15 ¢ near: beyond
/// that a mistuning beats audibly against a reference within a second (about 4 Hz at A4), the
/// point where a player reaches for the peg rather than adjusting by lip or finger.
public enum TuningTolerance {
    /// In tune within ±5 ¢ (inclusive).
    public static let inTune = 5.0
    /// Near within ±15 ¢ (inclusive); beyond is far.
    public static let near = 15.0

    /// The class of a reading `cents` off its target (non-finite readings are far).
    public static func classify(cents: Double) -> TuningClass {
        let a = abs(cents)
        guard a.isFinite else { return .far }
        return a <= inTune ? .inTune : a <= near ? .near : .far
    }
}
