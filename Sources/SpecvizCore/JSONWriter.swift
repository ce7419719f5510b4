#if canImport(Glibc)
import Glibc
#endif

/// Writes one JSON document incrementally: objects, arrays, keys and values go into a small
/// buffer that is handed to the sink whenever it fills (and at `flush`), so a document of
/// any length never exists whole in memory.
///
/// Strings are escaped (`"`, `\` and control characters below U+0020 as `\u00XX`); numbers
/// are written with a fixed number of decimals (no exponent; rounded as `DecimalRounding`
/// says) or of significant digits (`%.Ng`), and a non-finite number is `null`. Layout is the
/// caller's: `separators` say what goes between the items of a container and after a key
/// (", " and ": ", or "," and ":"), and `newline()` asks for a line break where the next
/// item (or the container's close) begins — after the comma, when there is one.
public final class JSONWriter {
    /// What separates items, and a key from its value.
    public struct Separators: Sendable {
        public var item: String
        public var key: String
        public init(item: String, key: String) {
            self.item = item
            self.key = key
        }
        /// `{"a":1,"b":[1,2]}`
        public static let compact = Separators(item: ",", key: ":")
        /// `{"a": 1, "b": [1, 2]}`
        public static let spaced = Separators(item: ", ", key: ": ")
    }

    private let sink: ByteSink
    private let separators: Separators
    /// The item separator without its trailing spaces (before a line break).
    private let itemBeforeBreak: String
    private var buffer: [UInt8] = []
    private let capacity: Int
    private let rounding: DecimalRounding
    /// Per open container: whether it has an item yet.
    private var started: [Bool] = []
    /// A key was just written: the value follows without a separator.
    private var afterKey = false
    /// Line breaks asked for at the next item or close.
    private var pendingNewlines = 0
    /// Scratch for number formatting.
    private var digits = [CChar](repeating: 0, count: 64)

    /// `capacity`: bytes gathered before they go to the sink. `rounding`: how numbers with
    /// decimals are rounded.
    public init(
        to sink: ByteSink, separators: Separators = .compact, rounding: DecimalRounding = .correctly,
        capacity: Int = 1 << 16
    ) {
        self.sink = sink
        self.rounding = rounding
        self.separators = separators
        itemBeforeBreak = String(separators.item.reversed().drop { $0 == " " }.reversed())
        self.capacity = capacity
        buffer.reserveCapacity(capacity + 256)
        started.reserveCapacity(8)
    }

    // MARK: Structure

    public func beginObject() throws { try open(UInt8(ascii: "{")) }
    public func endObject() throws { try close(UInt8(ascii: "}")) }
    public func beginArray() throws { try open(UInt8(ascii: "[")) }
    public func endArray() throws { try close(UInt8(ascii: "]")) }

    /// A member's key (inside an object); its value comes next.
    public func key(_ name: String) throws {
        try beginItem()
        appendString(name)
        append(separators.key)
        afterKey = true
        try spill()
    }

    /// A line break where the next item or close begins (several calls, several breaks).
    public func newline() { pendingNewlines += 1 }

    // MARK: Values

    public func value(_ text: String) throws {
        try beginItem()
        appendString(text)
        try spill()
    }

    public func value(_ number: Int) throws {
        try beginItem()
        append(String(number))
        try spill()
    }

    public func value(_ flag: Bool) throws {
        try beginItem()
        append(flag ? "true" : "false")
        try spill()
    }

    /// `number` with `decimals` digits after the point; `null` when not finite.
    public func value(_ number: Double, decimals: Int) throws {
        try beginItem()
        if !number.isFinite {
            append("null")
        } else if rounding == .correctly {
            appendFormatted(number, conversion: "f", precision: decimals)
        } else {
            DecimalRounding.appendHalfAwayFromZero(number, decimals: decimals, to: &buffer)
        }
        try spill()
    }

    /// `number` with `significant` digits, trailing zeros dropped (`%.Ng`); `null` when not
    /// finite.
    public func value(_ number: Double, significant: Int) throws {
        try beginItem()
        appendFormatted(number, conversion: "g", precision: significant)
        try spill()
    }

    public func null() throws {
        try beginItem()
        append("null")
        try spill()
    }

    /// `name: value` pairs in one call.
    public func member(_ name: String, _ text: String) throws {
        try key(name)
        try value(text)
    }

    public func member(_ name: String, _ number: Double, decimals: Int) throws {
        try key(name)
        try value(number, decimals: decimals)
    }

    /// Hands everything written so far (and any line breaks asked for at the top level) to
    /// the sink.
    public func flush() throws {
        if started.isEmpty { writeNewlines() }
        guard !buffer.isEmpty else { return }
        try buffer.withUnsafeBytes { try sink.write($0) }
        buffer.removeAll(keepingCapacity: true)
    }

    // MARK: Internals

    private func open(_ bracket: UInt8) throws {
        try beginItem()
        buffer.append(bracket)
        started.append(false)
    }

    private func close(_ bracket: UInt8) throws {
        precondition(!started.isEmpty, "JSONWriter: close without open")
        started.removeLast()
        writeNewlines()
        buffer.append(bracket)
        try spill()
    }

    /// The separator (unless first in its container or after a key) and any line breaks.
    private func beginItem() throws {
        if afterKey {
            afterKey = false
            return
        }
        if let last = started.indices.last {
            if started[last] {
                // No trailing space before a line break.
                if pendingNewlines > 0 {
                    append(itemBeforeBreak)
                } else {
                    append(separators.item)
                }
            }
            started[last] = true
        }
        writeNewlines()
    }

    private func writeNewlines() {
        while pendingNewlines > 0 {
            buffer.append(UInt8(ascii: "\n"))
            pendingNewlines -= 1
        }
    }

    private func spill() throws {
        if buffer.count >= capacity { try flush() }
    }

    private func append(_ text: String) {
        var text = text
        text.withUTF8 { buffer.append(contentsOf: $0) }
    }

    private func appendString(_ text: String) {
        buffer.append(UInt8(ascii: "\""))
        for b in text.utf8 {
            switch b {
            case UInt8(ascii: "\""): buffer.append(UInt8(ascii: "\\")); buffer.append(b)
            case UInt8(ascii: "\\"): buffer.append(UInt8(ascii: "\\")); buffer.append(b)
            case 0..<0x20:
                buffer.append(UInt8(ascii: "\\"))
                buffer.append(UInt8(ascii: "u"))
                buffer.append(UInt8(ascii: "0"))
                buffer.append(UInt8(ascii: "0"))
                buffer.append(UInt8(ascii: "0") + (b >> 4))
                buffer.append((b & 15) < 10 ? UInt8(ascii: "0") + (b & 15) : UInt8(ascii: "a") + (b & 15) - 10)
            default: buffer.append(b)
            }
        }
        buffer.append(UInt8(ascii: "\""))
    }

    /// `%.<precision><conversion>` in the C locale (the process never sets another).
    private func appendFormatted(_ v: Double, conversion: Character, precision: Int) {
        guard v.isFinite else { return append("null") }
        let format = conversion == "f" ? "%.*f" : "%.*g"
        let n = digits.withUnsafeMutableBufferPointer { out in
            withVaList([Int32(precision), v]) { vsnprintf(out.baseAddress, out.count, format, $0) }
        }
        if n >= 0 && Int(n) < digits.count {
            digits.withUnsafeBufferPointer { p in
                p.baseAddress!.withMemoryRebound(to: UInt8.self, capacity: Int(n)) {
                    buffer.append(contentsOf: UnsafeBufferPointer(start: $0, count: Int(n)))
                }
            }
        } else {
            // Longer than the scratch (|v| ≥ 1e60 with decimals): the shortest exact form.
            append(String(v))
        }
    }
}

/// How a number is rounded to a fixed count of decimals.
public enum DecimalRounding: Sendable {
    /// As C's `%.Nf`: the exact binary value correctly rounded (a tie to even), "-0.00" for a
    /// small negative number.
    case correctly
    /// The value times 10^N rounded half away from zero, the sign dropped when that is 0
    /// (`analyze`'s numbers since issue 17: -53.125 → "-53.13", -0.001 → "0.00"); beyond
    /// 9e15 after scaling, Swift's shortest form.
    case halfAwayFromZero

    /// `v` (finite) with `decimals` digits after the point, rounded half away from zero.
    public static func appendHalfAwayFromZero(_ v: Double, decimals: Int, to out: inout [UInt8]) {
        var scale = 1.0
        for _ in 0..<decimals { scale *= 10 }
        let r = (abs(v) * scale).rounded()
        guard r < 9e15 else {
            out.append(contentsOf: Array(String(v).utf8))
            return
        }
        let n = Int(r), s = Int(scale)
        if v < 0 && n != 0 { out.append(UInt8(ascii: "-")) }
        appendDigits(n / s, minimumCount: 1, to: &out)
        if decimals > 0 {
            out.append(UInt8(ascii: "."))
            appendDigits(n % s, minimumCount: decimals, to: &out)
        }
    }

    /// `v` as text, as `appendHalfAwayFromZero` writes it; "null" when not finite.
    public static func halfAwayFromZero(_ v: Double, decimals: Int) -> String {
        guard v.isFinite else { return "null" }
        var out: [UInt8] = []
        appendHalfAwayFromZero(v, decimals: decimals, to: &out)
        return String(decoding: out, as: UTF8.self)
    }

    /// The decimal digits of `n` ≥ 0, zero-padded on the left to `minimumCount`.
    private static func appendDigits(_ n: Int, minimumCount: Int, to out: inout [UInt8]) {
        var digits = 1, p = 10
        while p <= n && digits < 19 { digits += 1; p = p &* 10 }
        for _ in digits..<max(digits, minimumCount) { out.append(UInt8(ascii: "0")) }
        var div = 1
        for _ in 1..<digits { div *= 10 }
        var rest = n
        while div > 0 {
            out.append(UInt8(ascii: "0") + UInt8(rest / div))
            rest %= div
            div /= 10
        }
    }
}
