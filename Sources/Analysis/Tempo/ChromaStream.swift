import SpecvizCore

#if canImport(Glibc)
import Glibc
#endif

/// Pitch-class energies of a stream, for telling where the bar lines are: chords change on
/// them, and a 12-bin chroma sees a chord change that the coarse band levels of
/// `OnsetStrength` blur (their bands are about three semitones wide, and the drums, which
/// repeat every bar, fill them too).
///
/// A Hann-windowed transform of about 93 ms (4096 samples at 44.1 or 48 kHz, so a bin is
/// under a semitone from about 180 Hz), windows end to end; each bin from 60 Hz to 5 kHz adds
/// its power to the pitch class of its centre frequency (A = 440 Hz tuning).
final class ChromaStream {
    static let classes = 12
    /// Transform size, also the hop (samples).
    let size: Int
    private let sampleRate: Int
    private let fft: RealFFT
    private let hann: OwnedBuffer<Float>
    private let window: SlidingWindow
    private let windowed: OwnedBuffer<Float>
    private let re: OwnedBuffer<Float>
    private let im: OwnedBuffer<Float>
    /// Pitch class of each bin in `firstBin...lastBin`.
    private var pitchClass: [Int] = []
    private let firstBin: Int
    private let lastBin: Int
    /// `classes` raw energies per frame, oldest first.
    private(set) var frames: [Float] = []

    init(sampleRate: Int) {
        self.sampleRate = sampleRate
        var n = 1024
        while Double(n * 2) <= 0.1 * Double(sampleRate) { n *= 2 }
        size = n
        fft = RealFFT(size: n)
        hann = OwnedBuffer(zeroed: n)
        window = SlidingWindow(size: n, hop: n)
        windowed = OwnedBuffer(zeroed: n)
        re = OwnedBuffer(zeroed: n / 2 + 1)
        im = OwnedBuffer(zeroed: n / 2 + 1)
        for i in 0..<n { hann[i] = Float(0.5 * (1 - cos(2 * Double.pi * Double(i) / Double(n)))) }
        let binHz = Double(sampleRate) / Double(n)
        firstBin = max(1, Int((60 / binHz).rounded(.up)))
        lastBin = max(firstBin, min(n / 2, Int(5000 / binHz)))
        for k in firstBin...lastBin { pitchClass.append(Self.pitchClass(of: Double(k) * binHz)) }
    }

    /// Number of frames so far.
    var count: Int { frames.count / Self.classes }

    /// Media time (s) of the centre of frame `j`.
    func frameTime(_ j: Int) -> Double { Double(size / 2 + j * size) / Double(sampleRate) }

    func process(_ input: UnsafeBufferPointer<Float>) {
        window.push(input) { samples in
            for i in 0..<size { windowed[i] = samples[i] * hann[i] }
            fft.forward(UnsafePointer(windowed.base), re: re.base, im: im.base)
            let start = frames.count
            frames.append(contentsOf: repeatElement(0, count: Self.classes))
            frames.withUnsafeMutableBufferPointer { f in
                pitchClass.withUnsafeBufferPointer { pc in
                    for k in firstBin...lastBin { f[start + pc[k - firstBin]] += re[k] * re[k] + im[k] * im[k] }
                }
            }
        }
    }

    /// Per beat k (envelope times `times`, ascending) and per span in `spans`: the cosine
    /// distance between the mean log chroma of the `span` beats before it and of the `span`
    /// beats after it, divided by its mean over the beats (1 everywhere when the chroma is
    /// silent). Beats whose span runs past the first or last beat extend by the first
    /// interval.
    func changes(at times: [Double], spans: [Int]) -> [[Double]] {
        let m = count, c = Self.classes
        let flat = [Double](repeating: 1, count: times.count)
        guard m > 0, times.count >= 2 else { return spans.map { _ in flat } }
        // log(1 + 100·E / mean frame energy): level-independent, compressed.
        var total: Double = 0
        for v in frames { total += Double(v) }
        let mean = total / Double(m)
        guard mean > 0 else { return spans.map { _ in flat } }
        // Running sums of the log chroma per class, so that a span's mean is two lookups.
        var prefix = [Double](repeating: 0, count: (m + 1) * c)
        for j in 0..<m {
            for q in 0..<c { prefix[(j + 1) * c + q] = prefix[j * c + q] + Double(Float(log1p(100 * Double(frames[j * c + q]) / mean))) }
        }
        // First frame whose centre is at or after time t.
        let t0 = frameTime(0), step = Double(size) / Double(sampleRate)
        func frame(_ t: Double) -> Int { min(m, max(0, Int(((t - t0) / step).rounded(.up)))) }
        let interval = times[1] - times[0]
        return spans.map { span in
            var out = [Double](repeating: 0, count: times.count)
            var valid = [Bool](repeating: false, count: times.count)
            for k in times.indices {
                let a = k - span >= 0 ? times[k - span] : times[k] - Double(span) * interval
                let b = k + span < times.count ? times[k + span] : times[k] + Double(span) * interval
                let ja = frame(a), jk = frame(times[k]), jb = frame(b)
                guard jk > ja, jb > jk else { continue }
                var dot = 0.0, na = 0.0, nb = 0.0
                for q in 0..<c {
                    let x = (prefix[jk * c + q] - prefix[ja * c + q]) / Double(jk - ja)
                    let y = (prefix[jb * c + q] - prefix[jk * c + q]) / Double(jb - jk)
                    dot += x * y
                    na += x * x
                    nb += y * y
                }
                guard na > 0, nb > 0 else { continue }
                out[k] = 1 - dot / (na * nb).squareRoot()
                valid[k] = true
            }
            let kept = out.indices.filter { valid[$0] }
            let avg = kept.reduce(0.0) { $0 + out[$1] } / Double(max(1, kept.count))
            guard avg > 0 else { return flat }
            return out.indices.map { valid[$0] ? out[$0] / avg : 1 }
        }
    }

    /// The pitch class (0 = A) of the nearest equal-tempered note to `hz` (A4 = 440 Hz).
    static func pitchClass(of hz: Double) -> Int {
        let semitones = Int((12 * log2(hz / 440)).rounded())
        return ((semitones % 12) + 12) % 12
    }

    /// The cosine similarity a·b / (|a| |b|) of two `count`-long vectors, nil when either is
    /// zero (sums in the order of the elements).
    static func cosineSimilarity(_ a: UnsafePointer<Float>, _ b: UnsafePointer<Float>, count: Int) -> Float? {
        var dot: Float = 0, na: Float = 0, nb: Float = 0
        for q in 0..<count {
            dot += a[q] * b[q]
            na += a[q] * a[q]
            nb += b[q] * b[q]
        }
        guard na > 0, nb > 0 else { return nil }
        return dot / (na * nb).squareRoot()
    }
}
