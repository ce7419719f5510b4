/// What the band-power path needs per band, packed (first bin, bin count — 0 above
/// Nyquist —, fractional weights of the first and last bin, interpolation centre in bins
/// or −1, weighting at the centre in dB).
struct BandPlan {
    var first: Int32
    var count: Int32
    var wFirst: Float
    var wLast: Float
    var centreBin: Float
    var weightDB: Float
    /// Read from the decimated bass spectrum.
    var bass: Bool
}

extension BandPlan {
    /// The plan of band [lo, hi] (Hz) on a spectrum of `binHz` bins 0 … lastBin, unweighted
    /// per bin (the weighting goes in at the centre).
    static func make(lo: Double, hi: Double, centre: Double, binHz: Double, lastBin: Int) -> BandPlan {
        let a = lo / binHz, z = min(hi / binHz, Double(lastBin) + 0.5)
        let k0 = max(Int((a - 0.5).rounded(.down)) + 1, 0)
        let k1 = min(Int((z + 0.5).rounded(.up)) - 1, lastBin)
        let first = min(k0, k1), count = max(k1 - k0 + 1, 1)
        var w0: Float = 1, w1: Float = 1
        if count == 1 {
            w0 = Float(z - a); w1 = w0
        } else {
            w0 = Float(min(Double(first) + 0.5, z) - a)
            w1 = Float(z - (Double(first + count - 1) - 0.5))
        }
        let cb: Float = z - a < 3 ? Float(min(max(centre / binHz, 1), Double(lastBin - 1))) : -1
        return BandPlan(first: Int32(first), count: Int32(count), wFirst: w0, wLast: w1, centreBin: cb, weightDB: 0, bass: false)
    }

    /// Band power (dB) from bin powers `p` and their dB `db` (for the interpolation),
    /// `inv` = 1/ENBW, plus the centre weighting.
    @inline(__always)
    func level(_ p: UnsafeBufferPointer<Float>, _ db: UnsafeBufferPointer<Float>, _ inv: Float) -> Float {
        let f = Int(first), c = Int(count)
        if c == 0 { return -200 }
        var acc = p[f] * wFirst
        if c > 1 {
            acc += p[f + c - 1] * wLast
            if c > 2 { for k in (f + 1)..<(f + c - 1) { acc += p[k] } }
        }
        var value = fastDecibels(acc * inv)
        if centreBin >= 0 {
            let interp = interpolatedDB(db, at: centreBin)
            if interp > value { value = interp }
        }
        return value + weightDB
    }
}

/// The spectrum in dB at fractional bin `x` (≥ 1): a parabola through the louder of the
/// two bins around x and its neighbours (the shape of the window's main lobe near a
/// peak), or the straight line between the two bins where that parabola opens upward.
@inline(__always)
func interpolatedDB(_ db: UnsafeBufferPointer<Float>, at x: Float) -> Float {
    let k0 = min(Int(x), db.count - 2)
    let k = min(max(db[k0 + 1] > db[k0] ? k0 + 1 : k0, 1), db.count - 2)
    let l = db[k - 1], m = db[k], r = db[k + 1]
    let curve = l - 2 * m + r
    if curve >= 0 {
        let t = x - Float(k0)
        return db[k0] + t * (db[k0 + 1] - db[k0])
    }
    let t = x - Float(k)
    return m + 0.5 * t * (r - l) + 0.5 * t * t * curve
}
