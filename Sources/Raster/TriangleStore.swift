import CKernels

/// The set-up triangles of a frame, in submission order: a growable buffer that is reused
/// across frames and lets `Triangle.setUp` write each record in place (an `Array` append
/// would copy it). Triangles are plain data (no references), so nothing is deinitialised.
@usableFromInline
final class TriangleStore {
    @usableFromInline var base: UnsafeMutablePointer<Triangle>
    /// Each triangle's first and last row (minY, maxY), beside the ~270-byte records, so that
    /// binning reads 8 bytes per triangle instead of a cache line.
    @usableFromInline var rows: UnsafeMutablePointer<SIMD2<Int32>>
    @usableFromInline var count = 0
    @usableFromInline var capacity: Int

    @usableFromInline init() {
        capacity = 1024
        base = .allocate(capacity: capacity)
        rows = .allocate(capacity: capacity)
    }

    deinit {
        base.deallocate()
        rows.deallocate()
    }

    @inlinable func removeAll() { count = 0 }

    /// The next free slot (grown by doubling when full); `commit()` makes it part of the store.
    @inlinable func nextSlot() -> UnsafeMutablePointer<Triangle> {
        if count == capacity {
            let bigger = UnsafeMutablePointer<Triangle>.allocate(capacity: capacity * 2)
            bigger.moveInitialize(from: base, count: count)
            base.deallocate()
            base = bigger
            let biggerRows = UnsafeMutablePointer<SIMD2<Int32>>.allocate(capacity: capacity * 2)
            biggerRows.moveInitialize(from: rows, count: count)
            rows.deallocate()
            rows = biggerRows
            capacity *= 2
        }
        return base + count
    }

    @inlinable func commit() {
        rows[count] = SIMD2(base[count].raw.minY, base[count].raw.maxY)
        count += 1
    }

    @inlinable var buffer: UnsafeBufferPointer<Triangle> { UnsafeBufferPointer(start: base, count: count) }
    /// `rows` of the committed triangles.
    @inlinable var rowRanges: UnsafeBufferPointer<SIMD2<Int32>> { UnsafeBufferPointer(start: rows, count: count) }
}
