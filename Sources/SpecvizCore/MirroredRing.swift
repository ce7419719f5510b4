/// The newest `count` samples of a stream, stored twice over so that any span of the newest
/// samples is contiguous, oldest first, with no copy: a sliding analysis window reads it
/// in place instead of linearising a ring every hop. Each write costs a second store.
/// Starts as `count` zeros. Allocates once; nothing after `init` does.
public struct MirroredRing: ~Copyable {
    /// Samples held.
    public let count: Int
    /// Each sample at `i` and `i + count`.
    private let storage: OwnedBuffer<Float>
    /// Where the next sample goes.
    private var next = 0

    /// A ring of `count` (≥ 1) zeros.
    public init(count: Int) {
        precondition(count >= 1, "a ring holds at least one sample")
        self.count = count
        storage = OwnedBuffer(zeroed: 2 * count)
    }

    /// Appends one sample.
    @inline(__always) public mutating func append(_ x: Float) {
        storage.base[next] = x
        storage.base[next + count] = x
        next = next + 1 == count ? 0 : next + 1
    }

    /// Appends `n` samples from `source`.
    public mutating func append(_ source: UnsafePointer<Float>, count n: Int) {
        var done = 0
        while done < n {
            let part = min(n - done, count - next)
            (storage.base + next).update(from: source + done, count: part)
            (storage.base + next + count).update(from: source + done, count: part)
            next = (next + part) % count
            done += part
        }
    }

    /// The newest `n` (≤ `count`) samples, oldest first; valid until the next write.
    @inline(__always) public func latest(_ n: Int) -> UnsafePointer<Float> {
        assert(n >= 0 && n <= count, "MirroredRing: span out of range")
        return UnsafePointer(storage.base + next + count - n)
    }

    /// Back to `count` zeros.
    public mutating func reset() {
        storage.fill(0)
        next = 0
    }
}
