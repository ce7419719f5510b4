import SpecvizCore

/// Text of the tuner's readouts without Foundation: `+12.3¢`, `440.2 Hz`.
enum TunerFormat {
    /// Cents with sign and one decimal, e.g. `+12.3¢`, `−4.7¢` (U+2212 minus), `0.0¢`.
    static func cents(_ c: Double) -> String {
        let tenths = Int(saturating: (abs(c) * 10).rounded())
        let sign = tenths == 0 ? "" : (c < 0 ? "\u{2212}" : "+")
        return "\(sign)\(tenths / 10).\(tenths % 10)\u{00A2}"
    }

    /// Frequency with one decimal, e.g. `440.2 Hz`.
    static func hertz(_ f: Double) -> String {
        let tenths = Int(saturating: (f * 10).rounded())
        return "\(tenths / 10).\(tenths % 10) Hz"
    }
}
