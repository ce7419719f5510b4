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

    /// Band power (dB) from bin powers `p` and their dB `db` (for the interpolation of a
    /// tonal peak, `tonalDB` with `reach`), `inv` = 1/ENBW, plus the centre weighting.
    @inline(__always)
    func level(_ p: UnsafeBufferPointer<Float>, _ db: UnsafeBufferPointer<Float>, _ inv: Float, reach: Int) -> Float {
        let f = Int(first), c = Int(count)
        if c == 0 { return -200 }
        var acc = p[f] * wFirst
        if c > 1 {
            acc += p[f + c - 1] * wLast
            if c > 2 { for k in (f + 1)..<(f + c - 1) { acc += p[k] } }
        }
        var value = fastDecibels(acc * inv)
        if centreBin >= 0 {
            let interp = tonalDB(db, at: centreBin, reach: reach)
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

/// Least dB by which a tonal peak's bin stands above the bins `reach` away on either side.
let tonalProminence: Float = 10

/// `interpolatedDB` where the spectrum at `x` is a tonal peak, else −200: the louder of
/// the two bins around x is a local maximum standing `tonalProminence` dB above the bins
/// `reach` away (just outside the window's main lobe) on both sides. A sine passes (a Hann
/// main lobe falls 14 dB or more from its peak bin 2 bins away), noise seldom does
/// (about 1.5 % of hops), so a band narrower than the resolution reads a sine's level
/// but noise's band power: pink noise reads flat instead of rising by the resolution
/// bandwidth over the band's width (issue 39).
@inline(__always)
func tonalDB(_ db: UnsafeBufferPointer<Float>, at x: Float, reach: Int) -> Float {
    let k0 = min(Int(x), db.count - 2)
    let k = min(max(db[k0 + 1] > db[k0] ? k0 + 1 : k0, 1), db.count - 2)
    let m = db[k]
    guard m >= db[k - 1] && m >= db[k + 1] else { return -200 }
    let floor = max(k >= reach ? db[k - reach] : -200, k + reach < db.count ? db[k + reach] : -200)
    guard m - floor >= tonalProminence else { return -200 }
    return interpolatedDB(db, at: x)
}
