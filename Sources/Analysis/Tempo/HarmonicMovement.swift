import SpecvizCore

#if canImport(Glibc)
import Glibc
#endif

/// How much the pitch content of a stream moves from second to second (issue 37 item 2:
/// drumless music whose onsets are too soft to start a display).
///
/// Bowed strings change notes and chords on a grid, but with slow attacks: their spectral
/// flux is as flat across the beat as a held chord's, and the display never started. What
/// a held chord never does, however its partials beat, swell or loop, is change *which*
/// pitch classes sound. Per tracker frame the power of the bins from 500 Hz to 5 kHz
/// (where a bin of a 1024-point transform is about a semitone or less) adds to the pitch
/// class of its centre; the frames are summed into blocks of one second, and
///
///     movement = mean over neighbouring blocks a, b of  1 − cos(√a, √b)
///
/// over the newest `maxBlocks` blocks the history holds (amplitude chroma, so one loud
/// class does not stand for the rest). Development material (8 s windows every 0.5 s):
/// every beat-less track of dev-notempo (held organ, strings, pads, choir with noise, a
/// piano chord in reverb) reads ≤ 0.071, with a median ≤ 0.04; drumless pulse tracks
/// (dev-ext strings and piano, dev ballads, orchestral, waltz without drums) have medians
/// of 0.054–0.17, the bowed chorale `strings_03` 0.070 (its 10th percentile 0.051).
///
/// All buffers are allocated at construction; `push` allocates nothing.
final class HarmonicMovement {
    static let classes = 12
    /// Lowest and highest frequency (Hz) that counts.
    static let lowHz = 500.0
    static let highHz = 5000.0
    /// Block length (s) and how many blocks the measure reads at most (the 8 s history).
    static let blockSeconds = 1.0
    static let maxBlocks = 8

    /// Frames per block.
    let blockFrames: Int
    private let first: Int
    private let last: Int
    private let pitchClass: OwnedBuffer<Int> // class of bin first + i
    private let current: OwnedBuffer<Float> // the open block
    private let blocks: OwnedBuffer<Float> // ring of `maxBlocks` closed blocks
    private var framesInBlock = 0
    private var closed = 0 // closed blocks held (≤ maxBlocks)
    private var newest = -1 // ring index of the newest closed block

    /// - Parameters:
    ///   - binHz: width of a bin of the spectra (Hz).
    ///   - bins: the bins the spectra hold (`push` reads only these).
    ///   - frameRate: spectra per second.
    init(binHz: Double, bins: ClosedRange<Int>, frameRate: Double) {
        blockFrames = max(1, Int((Self.blockSeconds * frameRate).rounded()))
        first = max(bins.lowerBound, Int((Self.lowHz / binHz).rounded(.up)))
        last = max(first, min(bins.upperBound, Int(Self.highHz / binHz)))
        pitchClass = OwnedBuffer(zeroed: last - first + 1)
        for k in first...last { pitchClass[k - first] = ChromaStream.pitchClass(of: Double(k) * binHz) }
        current = OwnedBuffer(zeroed: Self.classes)
        blocks = OwnedBuffer(zeroed: Self.maxBlocks * Self.classes)
    }

    /// Forgets everything heard.
    func reset() {
        current.fill(0)
        framesInBlock = 0
        closed = 0
        newest = -1
    }

    /// Takes the newest magnitudes `m` (indexed by bin).
    func push(_ m: UnsafePointer<Float>) {
        let c = current.base
        for k in first...last { c[pitchClass[k - first]] += m[k] * m[k] }
        framesInBlock += 1
        guard framesInBlock == blockFrames else { return }
        newest = (newest + 1) % Self.maxBlocks
        let row = blocks.base + newest * Self.classes
        for q in 0..<Self.classes { row[q] = c[q].squareRoot() }
        current.fill(0)
        framesInBlock = 0
        closed = min(Self.maxBlocks, closed + 1)
    }

    /// Mean chroma distance of neighbouring blocks over the newest blocks within a history
    /// of `frames` frames (0 with fewer than two blocks or silent ones).
    func movement(historyFrames frames: Int) -> Double {
        let n = min(closed, frames / blockFrames)
        guard n >= 2 else { return 0 }
        var total = 0.0, pairs = 0
        for j in 0..<(n - 1) {
            let a = blocks.base + ((newest - j + Self.maxBlocks) % Self.maxBlocks) * Self.classes
            let b = blocks.base + ((newest - j - 1 + 2 * Self.maxBlocks) % Self.maxBlocks) * Self.classes
            guard let similarity = ChromaStream.cosineSimilarity(a, b, count: Self.classes) else { continue }
            total += 1 - Double(similarity)
            pairs += 1
        }
        return pairs > 0 ? total / Double(pairs) : 0
    }
}
