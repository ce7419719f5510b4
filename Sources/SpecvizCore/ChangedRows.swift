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

/// The changed rows of the last few frames of a sequence, numbered from 0, to tell which
/// rows changed since an earlier frame: what a buffer that still holds that frame must
/// redo (the rasteriser's pooled pictures, the encoder's pooled YUV frames, the halves of a
/// framebuffer).
public struct ChangeHistory: Sendable {
    private var recent: [ChangedRows]
    /// The number of the last frame recorded (-1: none).
    public private(set) var last = -1

    /// Keeps the changed rows of the last `count` frames.
    public init(keeping count: Int) {
        recent = [ChangedRows](repeating: .all, count: max(1, count))
    }

    /// Records the next frame's changed rows (since the frame before) and returns its number.
    @discardableResult
    public mutating func record(_ changed: ChangedRows) -> Int {
        last += 1
        recent[last % recent.count] = changed
        return last
    }

    /// The rows that changed from frame `held` to the last one recorded: all when `held`
    /// is negative (nothing held), in the future, or `count` or more frames back.
    public func since(_ held: Int) -> ChangedRows {
        guard held >= 0, held <= last, last - held < recent.count else { return .all }
        var rows = ChangedRows.none
        for k in stride(from: held + 1, through: last, by: 1) { rows.formUnion(recent[k % recent.count]) }
        return rows
    }
}
