#if canImport(Glibc)
import Glibc
#endif

/// How display bands are spaced along the frequency axis (`--scale`).
///
/// The continuous scales (`log`, `linear`, `mel`, `bark`, `erb`) split the range into N
/// bands of equal width on their warped axis. `notes` is one band per equal-tempered
/// semitone (A4 = 440 Hz, edges a quarter tone either side of each note); `octave(N)` is
/// the IEC 61260-1 base-10 fractional-octave series with N bands per octave
/// (G = 10^(3/10), f_r = 1000 Hz; midband f_m = f_r·G^(x/N) for odd N, f_r·G^((2x+1)/(2N))
/// for even N; edges f_m·G^(∓1/(2N))).
public enum FrequencyScale: Sendable, Equatable, CustomStringConvertible {
    case log, linear, mel, bark, erb, notes
    case octave(Int)

    /// The fractional-octave subdivisions `octave:N` accepts.
    public static let octaveFractions = [1, 2, 3, 6, 12, 24]

    /// Every scale, as `init(parsing:)` reads it back from its description.
    public static let all: [FrequencyScale] = [.log, .linear, .mel, .bark, .erb, .notes] + octaveFractions.map { .octave($0) }

    /// Parses `log|linear|mel|bark|erb|notes|octave:N`; nil when unknown.
    public init?(parsing text: String) {
        let t = text.lowercased()
        switch t {
        case "log": self = .log
        case "linear", "lin": self = .linear
        case "mel": self = .mel
        case "bark": self = .bark
        case "erb": self = .erb
        case "notes", "note": self = .notes
        default:
            guard t.hasPrefix("octave:"), let n = Int(t.dropFirst(7)), FrequencyScale.octaveFractions.contains(n) else { return nil }
            self = .octave(n)
        }
    }

    public var description: String {
        switch self {
        case .log: return "log"
        case .linear: return "linear"
        case .mel: return "mel"
        case .bark: return "bark"
        case .erb: return "erb"
        case .notes: return "notes"
        case .octave(let n): return "octave:\(n)"
        }
    }

    /// True for the scales whose band count is set by `--bands`.
    public var isContinuous: Bool {
        switch self {
        case .notes, .octave: return false
        default: return true
        }
    }

    /// The warped axis value of `hz` (monotonic increasing). Log-like series (`notes`,
    /// `octave`) use log2.
    ///  - mel: O'Shaughnessy, 2595·log10(1 + f/700);
    ///  - bark: Traunmüller (1990), 26.81·f/(1960 + f) − 0.53;
    ///  - erb: Glasberg & Moore (1990) ERB-rate, 21.4·log10(1 + 0.00437·f).
    public func warp(_ hz: Double) -> Double {
        switch self {
        case .log, .notes, .octave: return log2(max(hz, 1e-9))
        case .linear: return hz
        case .mel: return 2595 * log10(1 + hz / 700)
        case .bark: return 26.81 * hz / (1960 + hz) - 0.53
        case .erb: return 21.4 * log10(1 + 0.00437 * hz)
        }
    }

    /// The inverse of `warp`.
    public func unwarp(_ v: Double) -> Double {
        switch self {
        case .log, .notes, .octave: return exp2(v)
        case .linear: return v
        case .mel: return 700 * (pow(10, v / 2595) - 1)
        case .bark: return 1960 * (v + 0.53) / (26.28 - v)
        case .erb: return (pow(10, v / 21.4) - 1) / 0.00437
        }
    }
}

/// The display's frequency axis: where a frequency sits across the spectrum, 0 at the
/// lower edge of the first band and 1 at the upper edge of the last. Small and fixed-size
/// (no arrays), so frames carry it for free.
public struct FrequencyAxis: Sendable, Equatable {
    public var scale: FrequencyScale
    /// The axis ends (Hz): lower edge of band 0, upper edge of the last band.
    public var lowHz: Double
    public var highHz: Double

    public init(scale: FrequencyScale, lowHz: Double, highHz: Double) {
        self.scale = scale
        self.lowHz = lowHz
        self.highHz = highHz
    }

    /// The seed's axis: log, 20 Hz … 20 kHz.
    public static let standard = FrequencyAxis(scale: .log, lowHz: 20, highHz: 20_000)

    /// Position of `hz` along the axis (0 … 1 inside the range).
    public func position(ofFrequency hz: Double) -> Double {
        let a = scale.warp(lowHz), b = scale.warp(highHz)
        return (scale.warp(hz) - a) / (b - a)
    }

    /// The frequency at axis position `t`.
    public func frequency(atPosition t: Double) -> Double {
        let a = scale.warp(lowHz), b = scale.warp(highHz)
        return scale.unwarp(a + t * (b - a))
    }
}
