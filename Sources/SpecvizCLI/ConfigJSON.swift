/// A strict parser for the config file's shape: one JSON object (RFC 8259) whose values
/// are strings, numbers, booleans or null, with the line of every key and of the first
/// error (Foundation's JSON errors do not reliably give a line on Linux).
struct FlatJSON {
    enum Value: Equatable { case string(String), number(Double), bool(Bool), null }
    struct Field { var key: String; var value: Value; var line: Int }
    struct Failure: Error { var line: Int; var message: String }

    private let bytes: [UInt8]
    private var i = 0
    private var line = 1

    init(text: String) { bytes = Array(text.utf8) }

    mutating func parseObject() throws -> [Field] {
        skipSpace()
        try expect(UInt8(ascii: "{"), "expected '{' at the start")
        var fields: [Field] = []
        skipSpace()
        if peek == UInt8(ascii: "}") {
            i += 1
        } else {
            while true {
                skipSpace()
                let keyLine = line
                guard peek == UInt8(ascii: "\"") else { throw fail("expected a quoted key") }
                let key = try parseString()
                skipSpace()
                try expect(UInt8(ascii: ":"), "expected ':' after \"\(key)\"")
                skipSpace()
                let value = try parseValue(key)
                fields.append(Field(key: key, value: value, line: keyLine))
                skipSpace()
                if peek == UInt8(ascii: ",") { i += 1; continue }
                try expect(UInt8(ascii: "}"), "expected ',' or '}' after the value of \"\(key)\"")
                break
            }
        }
        skipSpace()
        if i < bytes.count { throw fail("unexpected text after the closing '}'") }
        return fields
    }

    private var peek: UInt8? { i < bytes.count ? bytes[i] : nil }

    private func fail(_ message: String) -> Failure { Failure(line: line, message: message) }

    private mutating func expect(_ b: UInt8, _ message: String) throws {
        guard peek == b else { throw fail(message) }
        i += 1
    }

    private mutating func skipSpace() {
        while let b = peek, b == 0x20 || b == 0x09 || b == 0x0A || b == 0x0D {
            if b == 0x0A { line += 1 }
            i += 1
        }
    }

    private mutating func parseValue(_ key: String) throws -> Value {
        guard let b = peek else { throw fail("missing value of \"\(key)\"") }
        switch b {
        case UInt8(ascii: "\""): return .string(try parseString())
        case UInt8(ascii: "t"): try literal("true"); return .bool(true)
        case UInt8(ascii: "f"): try literal("false"); return .bool(false)
        case UInt8(ascii: "n"): try literal("null"); return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            let start = i
            while let c = peek,
                c == UInt8(ascii: "-") || c == UInt8(ascii: "+") || c == UInt8(ascii: ".")
                    || c == UInt8(ascii: "e") || c == UInt8(ascii: "E") || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(c)
            { i += 1 }
            guard let v = Double(String(decoding: bytes[start..<i], as: UTF8.self)) else { throw fail("bad number for \"\(key)\"") }
            return .number(v)
        case UInt8(ascii: "{"), UInt8(ascii: "["): throw fail("\"\(key)\" must be a plain value, not an object or array")
        default: throw fail("unexpected character '\(Character(Unicode.Scalar(b)))' in the value of \"\(key)\"")
        }
    }

    private mutating func literal(_ word: StaticString) throws {
        let w = word.withUTF8Buffer { Array($0) }
        guard i + w.count <= bytes.count, Array(bytes[i..<i + w.count]) == w else { throw fail("unknown word (expected \(word))") }
        i += w.count
    }

    private mutating func parseString() throws -> String {
        i += 1 // opening quote
        var out: [UInt8] = []
        while true {
            guard let b = peek else { throw fail("unterminated string") }
            i += 1
            switch b {
            case UInt8(ascii: "\""): return String(decoding: out, as: UTF8.self)
            case 0x0A: throw fail("line break inside a string")
            case UInt8(ascii: "\\"):
                guard let e = peek else { throw fail("unterminated string") }
                i += 1
                switch e {
                case UInt8(ascii: "n"): out.append(0x0A)
                case UInt8(ascii: "t"): out.append(0x09)
                case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): out.append(e)
                case UInt8(ascii: "u"):
                    guard i + 4 <= bytes.count, let code = UInt32(String(decoding: bytes[i..<i + 4], as: UTF8.self), radix: 16),
                        let scalar = Unicode.Scalar(code)
                    else { throw fail("bad \\u escape") }
                    out.append(contentsOf: Array(String(Character(scalar)).utf8))
                    i += 4
                default: throw fail("bad escape '\\\(Character(Unicode.Scalar(e)))'")
                }
            default: out.append(b)
            }
        }
    }
}
