/// A `ByteSink` that keeps the bytes (tests, and documents built before they are sent).
public final class ByteBuffer: ByteSink {
    public private(set) var bytes: [UInt8] = []
    public init() {}
    public func write(_ bytes: UnsafeRawBufferPointer) throws { self.bytes.append(contentsOf: bytes) }
    /// The bytes as UTF-8 text.
    public var text: String { String(decoding: bytes, as: UTF8.self) }
}

/// Where a `JSONWriter` sends its bytes (standard output, a file being written).
public protocol ByteSink: AnyObject {
    /// Writes all of `bytes`, or throws.
    func write(_ bytes: UnsafeRawBufferPointer) throws
}
