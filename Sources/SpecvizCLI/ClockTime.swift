import ArgumentParser

/// A time in the input, as ffmpeg writes one: `[[hh:]mm:]ss[.frac]` (`1:30` is 90 s,
/// `1:02:03.5` is 3723.5 s) or plain seconds (`42.5`, also `42.5s`, `500ms`, `250us`).
/// Parsed once, at the edge, for --from, --to and --at: minutes and seconds after a colon
/// are two digits below 60; the leading field may be any size (`90:00` is 90 minutes).
/// Negative, non-finite and absurd times (over `maxSeconds`) are refused.
struct ClockTime: OptionValue, Equatable {
    static let noun = "time"
    /// The longest time accepted: 100 days.
    static let maxSeconds = 8_640_000.0

    var seconds: Double

    init(seconds: Double) { self.seconds = seconds }

    init(parsing text: String) throws {
        if text.hasPrefix("-"), Self.seconds(in: String(text.dropFirst())) != nil {
            throw ValidationError("must be a time from 0 to \(InputChecks.format(Self.maxSeconds)) s (got \(text))")
        }
        guard let s = Self.seconds(in: text) else {
            throw ValidationError("not a time: give seconds (42.5) or [[hh:]mm:]ss[.frac] (1:30, 1:02:03.5)")
        }
        guard s.isFinite, (0...Self.maxSeconds).contains(s) else {
            throw ValidationError("must be a time from 0 to \(InputChecks.format(Self.maxSeconds)) s (got \(text))")
        }
        seconds = s
    }

    /// The seconds `text` spells, or nil when it is not a time.
    static func seconds(in text: String) -> Double? {
        let fields = text.split(separator: ":", omittingEmptySubsequences: false)
        guard (1...3).contains(fields.count) else { return nil }
        if fields.count == 1 { return plainSeconds(text) }
        // Every field but the last is a whole number; the last is ss[.frac], below 60.
        var total = 0.0
        for (i, field) in fields.dropLast().enumerated() {
            guard let n = wholeNumber(field, twoDigits: i > 0), i == 0 || n < 60 else { return nil }
            total = total * 60 + Double(n)
        }
        let last = fields[fields.count - 1]
        let whole = last.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)
        guard let ss = wholeNumber(whole[0], twoDigits: true), ss < 60 else { return nil }
        if whole.count == 2 {
            guard !whole[1].isEmpty, whole[1].utf8.allSatisfy(isDigit) else { return nil }
        }
        guard let value = Double(last) else { return nil }
        return total * 60 + value
    }

    /// `42.5`, `42.5s`, `500ms`, `250us`, `1e3`: a decimal number without a sign (no hex, inf
    /// or nan, which Double would take), with ffmpeg's unit suffixes.
    private static func plainSeconds(_ text: String) -> Double? {
        var body = Substring(text), scale = 1.0
        for (suffix, factor) in [("ms", 1e-3), ("us", 1e-6), ("s", 1.0)] where body.hasSuffix(suffix) {
            body = body.dropLast(suffix.count)
            scale = factor
            break
        }
        let allowed = Set(".eE+-".utf8)
        guard let first = body.utf8.first, isDigit(first) || first == UInt8(ascii: "."),
            body.utf8.allSatisfy({ isDigit($0) || allowed.contains($0) }), let v = Double(body)
        else { return nil }
        return v * scale
    }

    private static func wholeNumber(_ field: Substring, twoDigits: Bool) -> Int? {
        guard !field.isEmpty, !twoDigits || field.utf8.count <= 2, field.utf8.count <= 9, field.utf8.allSatisfy(isDigit) else {
            return nil
        }
        return Int(field)
    }

    private static func isDigit(_ c: UInt8) -> Bool { c >= UInt8(ascii: "0") && c <= UInt8(ascii: "9") }
}

extension ClockTime {
    /// For `@Option(transform:)` on a `Double` of seconds.
    static let secondsOption: @Sendable (String) throws -> Double = { try ClockTime(parsing: $0).seconds }
}
