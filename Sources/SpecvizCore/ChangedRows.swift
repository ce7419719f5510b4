/// The rows of a frame that may differ from the frame before it in the same sequence (what
/// compositors call damage): a few sorted, disjoint row ranges, held inline so that passing
/// them along with every frame allocates nothing. A sink that converts or copies frames can
/// then redo only these rows, and keep the rest from the frame before.
///
/// It may say more than changed, never less. When more than `capacity` ranges are inserted,
/// the two closest neighbours merge (the rows between them count as changed too).
public struct ChangedRows: Sendable, Equatable {
    /// How many separate ranges it holds before neighbours merge.
    public static let capacity = 8
    /// Bounds of range i: lower[i]..<upper[i], for i < count, sorted and disjoint.
    @usableFromInline var lower = SIMD8<Int32>(repeating: 0)
    @usableFromInline var upper = SIMD8<Int32>(repeating: 0)
    @usableFromInline var used = 0
    /// Every row (unknown, or a frame drawn whole).
    public private(set) var isAll: Bool

    /// Every row may have changed.
    public static let all = ChangedRows(all: true)
    /// No row changed.
    public static let none = ChangedRows(all: false)

    private init(all: Bool) { isAll = all }

    /// Separate ranges held (0 for `all`).
    public var count: Int { isAll ? 0 : used }
    public var isEmpty: Bool { !isAll && used == 0 }

    /// The ranges in order (empty for `all`: check `isAll` first).
    public func forEach(_ body: (Range<Int>) throws -> Void) rethrows {
        guard !isAll else { return }
        for i in 0..<used { try body(Int(lower[i])..<Int(upper[i])) }
    }

    /// Whether any of `rows` is in it.
    @inlinable
    public func intersects(_ rows: Range<Int>) -> Bool {
        if isAll { return !rows.isEmpty }
        for i in 0..<used where Int(lower[i]) < rows.upperBound && rows.lowerBound < Int(upper[i]) { return true }
        return false
    }

    /// How many of rows 0..<height it covers.
    public func rowCount(height: Int) -> Int {
        if isAll { return height }
        var n = 0
        forEach { n += max(0, min($0.upperBound, height) - max($0.lowerBound, 0)) }
        return n
    }

    /// Adds `rows` (merging it with any range it overlaps or touches).
    public mutating func insert(_ rows: Range<Int>) {
        guard !isAll, !rows.isEmpty else { return }
        var lo = Int32(clamping: rows.lowerBound), hi = Int32(clamping: rows.upperBound)
        // The ranges before the new one, then those it overlaps or touches (merged into
        // it), then those after: at most capacity + 1 ranges in the scratch vectors.
        var first = 0
        while first < used && upper[first] < lo { first += 1 }
        var last = first
        while last < used && lower[last] <= hi {
            lo = min(lo, lower[last])
            hi = max(hi, upper[last])
            last += 1
        }
        var l = SIMD16<Int32>(repeating: 0), u = SIMD16<Int32>(repeating: 0)
        var k = 0
        for i in 0..<first {
            l[k] = lower[i]
            u[k] = upper[i]
            k += 1
        }
        l[k] = lo
        u[k] = hi
        k += 1
        for i in last..<used {
            l[k] = lower[i]
            u[k] = upper[i]
            k += 1
        }
        if k > ChangedRows.capacity {
            // The two neighbours with the smallest gap become one.
            var j = 0
            for i in 1..<(k - 1) where l[i + 1] - u[i] < l[j + 1] - u[j] { j = i }
            u[j] = u[j + 1]
            for i in (j + 1)..<(k - 1) {
                l[i] = l[i + 1]
                u[i] = u[i + 1]
            }
            k -= 1
        }
        lower = l.lowHalf
        upper = u.lowHalf
        used = k
    }

    /// Adds every range of `other`.
    public mutating func formUnion(_ other: ChangedRows) {
        if other.isAll {
            self = .all
            return
        }
        other.forEach { insert($0) }
    }
}
