#if canImport(Glibc)
import Glibc
#endif

/// The 128 logarithmic display bands from 20 Hz to 20 kHz (seed 000 Part 1 stage 6):
/// band i covers f_lo = 10^(log10 20 + 3·i/128) … f_hi = the same with i+1.
public struct LogBands: Sendable {
    public static let count = 128
    public static let lowHz: Double = 20
    public static let highHz: Double = 20_000

    /// Lower edge of band `i` (Hz); `edge(count)` is 20 kHz.
    public static func edge(_ i: Int) -> Double {
        pow(10, log10(lowHz) + 3 * Double(i) / Double(count))
    }

    /// Geometric centre of band `i` (Hz).
    public static func center(_ i: Int) -> Double {
        pow(10, log10(lowHz) + 3 * (Double(i) + 0.5) / Double(count))
    }

    /// The band holding frequency `hz` (may be out of 0..<count).
    public static func index(ofFrequency hz: Double) -> Int {
        Int(((log10(hz) - log10(lowHz)) / 3 * Double(count)).rounded(.down))
    }

    /// Position of `hz` along the log axis, 0 at 20 Hz and 1 at 20 kHz.
    public static func position(ofFrequency hz: Double) -> Double {
        (log10(hz) - log10(lowHz)) / 3
    }

    /// First FFT bin and bin count for each band: the bins whose extent (±½ bin around
    /// their centre frequency) overlaps the band, at least one (low bands share bins);
    /// bands above Nyquist have no bins.
    public let firstBin: [Int]
    public let binCount: [Int]

    /// - Parameters: fftSize (samples), sampleRate (Hz).
    public init(fftSize: Int, sampleRate: Int) {
        let binHz = Double(sampleRate) / Double(fftSize)
        let nyquistBin = fftSize / 2
        var first = [Int](repeating: 0, count: LogBands.count)
        var count = [Int](repeating: 0, count: LogBands.count)
        for i in 0..<LogBands.count {
            let lo = LogBands.edge(i), hi = LogBands.edge(i + 1)
            if lo >= Double(sampleRate) / 2 { continue }
            // Bin k stands for [k − ½, k + ½)·binHz; a band takes every bin overlapping it.
            let a = max(Int((lo / binHz - 0.5).rounded(.down)) + 1, 0)
            let b = min(Int((hi / binHz + 0.5).rounded(.up)) - 1, nyquistBin)
            first[i] = min(a, b); count[i] = max(b - a + 1, 1)
        }
        firstBin = first
        binCount = count
    }
}
