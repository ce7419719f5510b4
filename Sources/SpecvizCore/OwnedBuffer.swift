// A fixed-size, zero-initialised, uniquely owned buffer for hot loops.
//
// Analysis and synthesis keep their working storage in these: allocated once at
// construction, freed by the owner's lifetime, never copied (the type is ~Copyable), and
// read and written without ARC or bounds-check traffic inside loops.

/// Contiguous storage for `count` trivial elements, allocated and zeroed once.
///
/// The buffer is `~Copyable`: it has exactly one owner and is freed when that owner goes
/// away, so no type needs a hand-written `deinit` for its scratch memory. Hot loops take
/// the pointer once through `withUnsafeMutableBufferPointer` (or `base` inside a type that
/// owns the buffer) and index it directly.
public struct OwnedBuffer<Element: BitwiseCopyable>: ~Copyable {
    /// Start of the storage; valid for `count` elements while the buffer lives.
    /// For use inside the owning type's own loops; do not let it escape the owner.
    public let base: UnsafeMutablePointer<Element>
    /// Number of elements.
    public let count: Int

    /// Allocates `count` elements, each set to `value`.
    public init(count: Int, repeating value: Element) {
        precondition(count >= 0, "OwnedBuffer: negative count")
        self.count = count
        base = .allocate(capacity: max(count, 1))
        base.initialize(repeating: value, count: count)
    }

    deinit { base.deallocate() }

    /// Element `i`; checked in debug builds only.
    @inline(__always) public subscript(i: Int) -> Element {
        get { assert(i >= 0 && i < count, "OwnedBuffer index out of range"); return base[i] }
        nonmutating set { assert(i >= 0 && i < count, "OwnedBuffer index out of range"); base[i] = newValue }
    }

    /// The whole buffer as a read-only buffer pointer.
    @inline(__always)
    public func withUnsafeBufferPointer<R, E: Error>(_ body: (UnsafeBufferPointer<Element>) throws(E) -> R) throws(E) -> R {
        try body(UnsafeBufferPointer(start: base, count: count))
    }

    /// The whole buffer as a mutable buffer pointer.
    @inline(__always)
    public func withUnsafeMutableBufferPointer<R, E: Error>(_ body: (UnsafeMutableBufferPointer<Element>) throws(E) -> R) throws(E) -> R {
        try body(UnsafeMutableBufferPointer(start: base, count: count))
    }

    /// Sets every element to `value`.
    @inline(__always) public func fill(_ value: Element) {
        base.update(repeating: value, count: count)
    }
}

extension OwnedBuffer where Element: AdditiveArithmetic {
    /// Allocates `count` elements set to zero.
    public init(zeroed count: Int) { self.init(count: count, repeating: .zero) }
}
