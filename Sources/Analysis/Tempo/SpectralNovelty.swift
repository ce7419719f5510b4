import CKernels
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
/// **Spread.** A frame's new energy counts only when it is spread over octaves: the
/// participation ratio of its octave bands (bins 2^j … 2^(j+1) − 1),
///
///     spread[n] = (Σ_b new_b)² / Σ_b new_b²                   (1 = one band, B = B equal bands)
///
/// must reach `minSpread`. An attack brings new energy to many bins in the same frame (a
/// drum is broadband; a note or a struck chord starts several harmonics at once), whereas
/// the partials of voices detuned against each other by a few Hz (a chorused pad, a
/// detuned string section holding a chord) leave and re-enter their nulls one at a time,
/// the k-th partials at k times the detune, out of step: their rises, new by the 6 dB test
/// above (a 90 ms reference samples a 10 Hz beating aliased), sit in one band per frame.
///
/// All buffers are allocated at construction; `push` allocates nothing.
final class SpectralNovelty {
    /// Frames the reference looks back.
    static let frames = 4
    /// How far above the reference a bin must rise to count as new.
    static let ratio: Float = 2
    /// Least octave spread (participation ratio of the bands) of a frame's new energy:
    /// 1.2 = a second band holding at least ~10 % of the first's. The beating partials of a
    /// detuned chord read 1.00 in every frame that has new energy.
    static let minSpread: Float = 1.2
    /// Octave bands: bin k (≥ 1) is in band ⌊log₂ k⌋.
    private static let bandCount = Int.bitWidth

    /// The newest frame's raw flux (linear magnitude units; 0 on the first frame).
    private(set) var flux: Float = 0
    /// The newest frame's new energy (same units; 0 on the first frame).
    private(set) var novel: Float = 0

    private let bins: ClosedRange<Int>
    private let width: Int
    private let rows: OwnedBuffer<Float> // `frames` rows of magnitudes, a ring
    private let bands: OwnedBuffer<Float> // the newest frame's new energy per octave band
    private var row = 0
    private var seen = 0

    /// - Parameter bins: the bins of the spectra that count.
    init(bins: ClosedRange<Int>) {
        self.bins = bins
        width = bins.upperBound + 1
        rows = OwnedBuffer(zeroed: Self.frames * width)
        bands = OwnedBuffer(zeroed: Self.bandCount)
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
        var fresh: Float = 0
        for b in 0..<bands.count { bands[b] = 0 }
        // What each bin held over the rows, and the rises, eight bins at a time (`spv_novelty`).
        let rise = spv_novelty(
            m, last, rows.base, Int32(frames), Int32(w), ratio, Int32(bins.lowerBound), Int32(bins.upperBound), bands.base, &fresh)
        let newest = rows.base + row * w
        for k in bins { newest[k] = m[k] }
        row = (row + 1) % frames
        flux = seen > 0 ? rise : 0
        novel = seen > 0 && spread(of: fresh) >= Self.minSpread ? fresh : 0
        seen += 1
    }

    /// Participation ratio of the newest frame's band energies (`fresh` is their sum).
    private func spread(of fresh: Float) -> Float {
        guard fresh > 0 else { return 0 }
        var squares: Float = 0
        for b in 0..<bands.count { squares += bands[b] * bands[b] }
        return fresh * fresh / squares
    }
}
