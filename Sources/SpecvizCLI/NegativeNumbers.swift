/// Negative numbers after an option, as the README writes them (`--transpose -3`,
/// `--gain -6`, `--from -1` for its range error): ArgumentParser reads a word starting
/// with `-` as an option, so before parsing, a word that starts with `-` and a digit
/// (`-3`, `-.5`, `-90:0`) right after a long option without `=` is joined to it
/// (`--transpose=-3`). No option name starts with a digit, so nothing else changes meaning;
/// words after `--` are left alone.
enum NegativeNumbers {
    static func attach(_ arguments: [String]) -> [String] {
        var out: [String] = []
        out.reserveCapacity(arguments.count)
        var terminated = false
        for word in arguments {
            if !terminated, isNumber(word), let last = out.last, last.hasPrefix("--"), last.count > 2, !last.contains("=") {
                out[out.count - 1] = last + "=" + word
                continue
            }
            if word == "--" { terminated = true }
            out.append(word)
        }
        return out
    }

    /// `-` followed by a digit, or by `.` and a digit.
    static func isNumber(_ word: String) -> Bool {
        let u = Array(word.utf8.prefix(3))
        guard u.count >= 2, u[0] == UInt8(ascii: "-") else { return false }
        let digit = { (c: UInt8) in c >= UInt8(ascii: "0") && c <= UInt8(ascii: "9") }
        return digit(u[1]) || (u.count == 3 && u[1] == UInt8(ascii: ".") && digit(u[2]))
    }
}
