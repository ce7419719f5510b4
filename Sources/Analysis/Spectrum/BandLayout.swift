#if canImport(Glibc)
import Glibc
#endif

/// The display bands of one analysis: centre and edge frequencies (Hz) per band, from a
/// `FrequencyScale`, a band count (continuous scales) and a frequency range.
///
/// `log`, 128 bands, 20 Hz … 20 kHz is exactly the seed's `LogBands`. For `notes` and
/// `octave:N` the bands are those of the series whose centre lies inside the range
/// (octave bands within 1 %, so 20:20000 holds the nominal 20 Hz and 20 kHz third-octaves).
public struct BandLayout: Sendable, Equatable {
    public let scale: FrequencyScale
    public let centers: [Double]
    public let lower: [Double]
    public let upper: [Double]

    public var count: Int { centers.count }

    /// The display axis from the first band's lower edge to the last band's upper edge.
    public var axis: FrequencyAxis { FrequencyAxis(scale: scale, lowHz: lower.first ?? 20, highHz: upper.last ?? 20_000) }

    /// The seed's 128 log bands from 20 Hz to 20 kHz.
    /// (Computed with `LogBands`' own formulas, so the seed's numbers are exact.)
    public static let standard = BandLayout(
        scale: .log, centers: (0..<LogBands.count).map(LogBands.center),
        lower: (0..<LogBands.count).map(LogBands.edge),
        upper: (0..<LogBands.count).map { LogBands.edge($0 + 1) })

    private init(scale: FrequencyScale, centers: [Double], lower: [Double], upper: [Double]) {
        self.scale = scale
        self.centers = centers
        self.lower = lower
        self.upper = upper
    }

    /// - Parameters: bands (continuous scales only, ≥ 1), lowHz < highHz (Hz).
    public init(scale: FrequencyScale, bands: Int, lowHz: Double, highHz: Double) {
        self.scale = scale
        var c: [Double] = [], lo: [Double] = [], hi: [Double] = []
        switch scale {
        case .notes:
            // MIDI note m: 440·2^((m − 69)/12), edges ±50 cents.
            let first = Int((12 * log2(lowHz / 440) + 69).rounded(.up))
            let last = Int((12 * log2(highHz / 440) + 69).rounded(.down))
            if first <= last {
                for m in first...last {
                    let f = 440 * exp2(Double(m - 69) / 12)
                    c.append(f); lo.append(f * exp2(-1 / 24)); hi.append(f * exp2(1 / 24))
                }
            }
        case .octave(let n):
            let g = pow(10, 0.3)
            let b = Double(n)
            func mid(_ x: Int) -> Double {
                n % 2 == 1 ? 1000 * pow(g, Double(x) / b) : 1000 * pow(g, Double(2 * x + 1) / (2 * b))
            }
            // x range: solve mid(x) within [lowHz, highHz].
            var x = Int((b * log(lowHz / 1000) / log(g)).rounded(.down)) - 2
            // Centres within 1 % of the range count (the nominal 20 Hz band's centre is 19.95 Hz).
            while mid(x) < lowHz * 0.99 { x += 1 }
            while mid(x) <= highHz * 1.01 {
                let f = mid(x)
                c.append(f); lo.append(f * pow(g, -1 / (2 * b))); hi.append(f * pow(g, 1 / (2 * b)))
                x += 1
            }
        default:
            let a = scale.warp(lowHz), z = scale.warp(highHz)
            for i in 0..<bands {
                let u0 = a + (z - a) * Double(i) / Double(bands)
                let u1 = a + (z - a) * Double(i + 1) / Double(bands)
                lo.append(scale.unwarp(u0)); hi.append(scale.unwarp(u1))
                c.append(scale == .linear ? 0.5 * (scale.unwarp(u0) + scale.unwarp(u1)) : scale.unwarp(0.5 * (u0 + u1)))
            }
        }
        centers = c
        lower = lo
        upper = hi
    }

    /// The IEC 61260-1 nominal (rounded) midband frequency name of an exact midband
    /// frequency, e.g. 31.62… → "31.5", 1995 → "2k" (for labels).
    public static func nominalName(_ hz: Double) -> String {
        // Preferred numbers (R10 series) per decade, as IEC 61260 / ISO 266 round them.
        let r10: [Double] = [1, 1.25, 1.6, 2, 2.5, 3.15, 4, 5, 6.3, 8, 10]
        let r40: [Double] = [
            1, 1.06, 1.12, 1.18, 1.25, 1.32, 1.4, 1.5, 1.6, 1.7, 1.8, 1.9, 2, 2.12, 2.24, 2.36, 2.5, 2.65,
            2.8, 3, 3.15, 3.35, 3.55, 3.75, 4, 4.25, 4.5, 4.75, 5, 5.3, 5.6, 6, 6.3, 6.7, 7.1, 7.5, 8, 8.5,
            9, 9.5, 10,
        ]
        let decade = pow(10, (log10(hz)).rounded(.down))
        let m = hz / decade
        let table = r10.contains(where: { abs(log($0 / m)) < 0.02 }) ? r10 : r40
        let best = table.min { abs(log($0 / m)) < abs(log($1 / m)) }!
        let v = best * decade
        if v >= 1000 {
            let k = v / 1000
            return k == k.rounded() ? "\(Int(k))k" : trimmed(k) + "k"
        }
        return v == v.rounded() ? "\(Int(v))" : trimmed(v)
    }

    private static func trimmed(_ v: Double) -> String {
        let c = Int((v * 100).rounded())
        var s = "\(c / 100)." + (c % 100 < 10 ? "0" : "") + "\(c % 100)"
        while s.hasSuffix("0") { s.removeLast() }
        if s.hasSuffix(".") { s.removeLast() }
        return s
    }

    /// Note name of a MIDI note number, e.g. 69 → "A4", 24 → "C1".
    public static func noteName(midi: Int) -> String {
        let names = ["C", "C#", "D", "D#", "E", "F", "F#", "G", "G#", "A", "A#", "B"]
        let octave = Int((Double(midi) / 12).rounded(.down)) - 1
        return names[((midi % 12) + 12) % 12] + "\(octave)"
    }
}
