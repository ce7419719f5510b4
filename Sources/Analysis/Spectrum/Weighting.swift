#if canImport(Glibc)
import Glibc
#endif

/// Frequency weighting of the band levels (`--weighting`), in dB as a function of Hz;
/// every curve is normalised to exactly 0 dB at 1 kHz.
///
/// - A, C: IEC 61672-1:2013 eq. (E.1)–(E.6): poles f1 = 20.598997, f2 = 107.65265,
///   f3 = 737.86223, f4 = 12194.217 Hz.
/// - B: the IEC 60651 B curve: the C poles plus a pole at 158.48932 Hz.
/// - D: IEC 60537 (aircraft noise) in its usual closed form.
/// - itu468: ITU-R BS.468-4 weighting in its 1 kHz-referenced form (0 dB at 1 kHz,
///   +12.2 dB at 6.3 kHz), from the standard's network response.
public enum Weighting: String, Sendable, CaseIterable {
    case none, a = "A", b = "B", c = "C", d = "D", itu468

    /// Parses `none|A|B|C|D|itu468` (any case; `468` also accepted).
    public init?(parsing text: String) {
        switch text.lowercased() {
        case "none", "z", "off": self = .none
        case "a": self = .a
        case "b": self = .b
        case "c": self = .c
        case "d": self = .d
        case "itu468", "468", "itu-r468", "itu-468": self = .itu468
        default: return nil
        }
    }

    /// The weighting in dB at `hz`, exactly 0 at 1 kHz.
    public func gain(_ hz: Double) -> Double {
        self == .none ? 0 : raw(hz) - raw(1000)
    }

    private func raw(_ hz: Double) -> Double {
        let f = max(hz, 1e-3)
        let f2 = f * f
        let p1 = 20.598997 * 20.598997, p4 = 12194.217 * 12194.217
        switch self {
        case .none: return 0
        case .a:
            let p2 = 107.65265 * 107.65265, p3 = 737.86223 * 737.86223
            let r = p4 * f2 * f2 / ((f2 + p1) * sqrt((f2 + p2) * (f2 + p3)) * (f2 + p4))
            return 20 * log10(r)
        case .b:
            let p5 = 158.48932 * 158.48932
            let r = p4 * f2 * f / ((f2 + p1) * sqrt(f2 + p5) * (f2 + p4))
            return 20 * log10(r)
        case .c:
            let r = p4 * f2 / ((f2 + p1) * (f2 + p4))
            return 20 * log10(r)
        case .d:
            let h = (pow(1037918.48 - f2, 2) + 1080768.16 * f2) / (pow(9837328 - f2, 2) + 11723776 * f2)
            let r = f / 6.8966888496476e-5 * sqrt(h / ((f2 + 79919.29) * (f2 + 1345600)))
            return 20 * log10(r)
        case .itu468:
            let h1 = -4.737338981378384e-24 * f2 * f2 * f2 + 2.043828333606125e-15 * f2 * f2 - 1.363894795463638e-7 * f2 + 1
            let h2 = 1.306612257412824e-19 * f2 * f2 * f - 2.118150887518656e-11 * f2 * f + 5.559488023498642e-4 * f
            let r = 1.246332637532143e-4 * f / sqrt(h1 * h1 + h2 * h2)
            return 20 * log10(r)
        }
    }
}
