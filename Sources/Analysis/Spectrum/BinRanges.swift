/// Which FFT bins each band of a layout reads on the main spectrum: its first bin and bin
/// count, and for the band-power measure the fractional weights of its first and last bin
/// and its interpolation centre in bins (−1: not narrow). Built once, at construction.
struct BinRanges {
    var first: [Int]
    var count: [Int]
    var wFirst: [Float]
    var wLast: [Float]
    var centreBin: [Float]

    /// Bin k stands for [k − ½, k + ½)·binHz; a band takes every bin overlapping it (at
    /// least one). Bands at or above Nyquist keep bin 0, count 1. `half`: the last bin.
    init(layout lay: BandLayout, sampleRate sr: Int, binHz: Double, half: Int, seedLevels: Bool) {
        let b = lay.count
        var f = [Int](repeating: 0, count: b), c = [Int](repeating: 0, count: b)
        var w0 = [Float](repeating: 1, count: b), w1 = [Float](repeating: 1, count: b)
        var cb = [Float](repeating: -1, count: b)
        for i in 0..<b {
            let lo = lay.lower[i], hi = lay.upper[i]
            if lo >= Double(sr) / 2 { continue }
            let a = lo / binHz, z = min(hi / binHz, Double(half) + 0.5)
            let k0 = max(Int((a - 0.5).rounded(.down)) + 1, 0)
            let k1 = min(Int((z + 0.5).rounded(.up)) - 1, half)
            f[i] = min(k0, k1); c[i] = max(k1 - k0 + 1, 1)
            if !seedLevels {
                if c[i] == 1 {
                    w0[i] = Float(z - a); w1[i] = w0[i]
                } else {
                    w0[i] = Float(min(Double(f[i]) + 0.5, z) - a)
                    w1[i] = Float(z - (Double(f[i] + c[i] - 1) - 0.5))
                }
                if z - a < 3 { cb[i] = Float(min(max(lay.centers[i] / binHz, 1), Double(half - 1))) }
            }
        }
        first = f; count = c; wFirst = w0; wLast = w1; centreBin = cb
    }

    /// The band-power path's plan per band: these ranges on the main spectrum, or (with
    /// `useBass`) the decimated bass spectrum of `bassRate` Hz bins for bands below eight
    /// main bins and inside the bass path's flat range. `weightDB`: weighting at each centre.
    func plans(
        layout lay: BandLayout, sampleRate sr: Int, n: Int, weightDB bwDB: [Float], useBass: Bool, bassRate: Double
    ) -> [BandPlan] {
        (0..<lay.count).map { i in
            let lo = lay.lower[i], hi = lay.upper[i]
            if useBass && hi <= min(8 * (Double(sr) / Double(n)), 0.065 * Double(sr) / Double(BassSpectrum.factor)) {
                var p = BandPlan.make(lo: lo, hi: hi, centre: lay.centers[i], binHz: bassRate, lastBin: BassSpectrum.size / 2)
                p.weightDB = bwDB[i]
                p.bass = true
                return p
            }
            return BandPlan(
                first: Int32(first[i]), count: lo >= Double(sr) / 2 ? 0 : Int32(count[i]), wFirst: wFirst[i],
                wLast: wLast[i], centreBin: centreBin[i], weightDB: bwDB[i], bass: false)
        }
    }
}

extension SpectrumAnalyzer {
    /// The unit of the band levels for a weighting and measure.
    /// The level axis' unit, naming what was added to the band power: the weighting
    /// ("dB(A)") and any tilt ("dBFS, +3 dB/oct", "dBFS, auto tilt", "dB, seed tilt").
    static func levelUnit(_ weighting: Weighting, tilt: Tilt) -> String {
        let unit: String
        switch weighting {
        case .none: unit = tilt.usesSeedLevels ? "dB" : "dBFS"
        case .itu468: unit = "dB(468)"
        default: unit = "dB(\(weighting.rawValue))"
        }
        switch tilt {
        case .seedUntilted: return unit
        case .seed: return unit + ", seed tilt"
        case .auto: return unit + ", auto tilt"
        case .slope(let s):
            guard s != 0 else { return unit }
            let tenths = (s * 10).rounded() / 10
            let text = tenths == tenths.rounded() ? String(Int(tenths)) : "\(tenths)"
            return unit + ", \(s > 0 ? "+" : "")\(text) dB/oct"
        }
    }
}
