import SpecvizCore

/// The newest `size` samples of a stream, advanced `hop` samples at a time: `push` shifts
/// the input in and, each time a hop completes with the window full, hands the window
/// (oldest sample first) to the caller. Allocates nothing after `init`.
final class SlidingWindow {
    let size: Int
    let hop: Int
    private let samples: OwnedBuffer<Float>
    private var filled = 0
    private var sinceHop = 0

    /// - Parameters: size ≥ hop ≥ 1.
    init(size: Int, hop: Int) {
        precondition(size >= hop && hop >= 1, "a window holds at least one hop")
        self.size = size
        self.hop = hop
        samples = OwnedBuffer(zeroed: size)
    }

    func push(_ input: UnsafeBufferPointer<Float>, onHop: (UnsafePointer<Float>) -> Void) {
        guard let base = input.baseAddress else { return }
        var i = 0
        while i < input.count {
            // Shift in up to the rest of the hop.
            let n = min(hop - sinceHop, input.count - i)
            samples.base.update(from: samples.base + n, count: size - n)
            (samples.base + (size - n)).update(from: base + i, count: n)
            filled = min(size, filled + n)
            sinceHop += n
            i += n
            if sinceHop == hop {
                sinceHop = 0
                if filled == size { onHop(UnsafePointer(samples.base)) }
            }
        }
    }
}
