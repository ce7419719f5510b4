/// The set-up triangles of a frame, in submission order: a growable buffer that is reused
/// across frames and lets `Triangle.setUp` write each record in place (an `Array` append
/// would copy it). Triangles are plain data (no references), so nothing is deinitialised.
@usableFromInline
final class TriangleStore {
    @usableFromInline var base: UnsafeMutablePointer<Triangle>
    @usableFromInline var count = 0
    @usableFromInline var capacity: Int

    @usableFromInline init() {
        capacity = 1024
        base = .allocate(capacity: capacity)
    }

    deinit { base.deallocate() }

    @inlinable func removeAll() { count = 0 }

    /// The next free slot (grown by doubling when full); `commit()` makes it part of the store.
    @inlinable func nextSlot() -> UnsafeMutablePointer<Triangle> {
        if count == capacity {
            let bigger = UnsafeMutablePointer<Triangle>.allocate(capacity: capacity * 2)
            bigger.moveInitialize(from: base, count: count)
            base.deallocate()
            base = bigger
            capacity *= 2
        }
        return base + count
    }

    @inlinable func commit() { count += 1 }

    @inlinable var buffer: UnsafeBufferPointer<Triangle> { UnsafeBufferPointer(start: base, count: count) }
}
