import SpecvizCore

/// New energy in a stream of magnitude spectra (issue 37: "no beats" on beat-less music).
///
/// A held chord whose partials beat or swell (an organ, a pad's tremolo) can be as
/// periodic as a beat in the onset signal, but it only raises the level of partials that
/// were already sounding. A note, a drum or a chord struck again brings energy the
/// spectrum did not have a moment before: new partials or a broadband attack. Per frame:
///
///     flux[n]  = Σ_k max(0, m_n[k] − m_{n−1}[k])                       (raw spectral flux)
///     novel[n] = Σ_k max(0, m_n[k] − ratio · max_{j=1…frames} m_{n−j}[k])
///
/// i.e. only the part of a bin that rises at least `ratio` (6 dB) above everything it held
/// over the previous `frames` frames (~90 ms at ~43 frames/s). A sinusoidal swell rises
/// that fast only near its nulls, where the magnitudes are small, so it adds almost
/// nothing; an attack from a decayed or empty bin adds most of its flux.
///
/// All buffers are allocated at construction; `push` allocates nothing.
final class SpectralNovelty {
    /// Frames the reference looks back.
    static let frames = 4
    /// How far above the reference a bin must rise to count as new.
    static let ratio: Float = 2

    /// The newest frame's raw flux (linear magnitude units; 0 on the first frame).
    private(set) var flux: Float = 0
    /// The newest frame's new energy (same units; 0 on the first frame).
    private(set) var novel: Float = 0

    private let bins: ClosedRange<Int>
    private let width: Int
    private let rows: OwnedBuffer<Float> // `frames` rows of magnitudes, a ring
    private var row = 0
    private var seen = 0

    /// - Parameter bins: the bins of the spectra that count.
    init(bins: ClosedRange<Int>) {
        self.bins = bins
        width = bins.upperBound + 1
        rows = OwnedBuffer(zeroed: Self.frames * width)
    }

    /// Forgets the previous spectra.
    func reset() {
        for i in 0..<rows.count { rows[i] = 0 }
        row = 0; seen = 0
        flux = 0; novel = 0
    }

    /// Takes the newest magnitudes `m` (indexed by bin) and updates `flux` and `novel`.
    func push(_ m: UnsafePointer<Float>) {
        let frames = Self.frames, ratio = Self.ratio, w = width
        let last = rows.base + ((row + frames - 1) % frames) * w
        var rise: Float = 0, fresh: Float = 0
        for k in bins {
            var held: Float = 0
            for r in 0..<frames { held = max(held, rows[r * w + k]) }
            let d = m[k] - last[k]
            if d > 0 { rise += d }
            let n = m[k] - ratio * held
            if n > 0 { fresh += n }
        }
        let newest = rows.base + row * w
        for k in bins { newest[k] = m[k] }
        row = (row + 1) % frames
        flux = seen > 0 ? rise : 0
        novel = seen > 0 ? fresh : 0
        seen += 1
    }
}
