/// A seeded byte mutator for fuzz loops in the test suite (issue 14): the same seed gives
/// the same inputs on every run, so a failure is reproducible from its iteration number.
public struct Mutator {
    private var random: SeededRandom

    public init(seed: UInt64) { random = SeededRandom(seed: seed) }

    /// The next 64 random bits (SplitMix64, the test signals' generator).
    public mutating func next() -> UInt64 { random.next() }

    public mutating func below(_ n: Int) -> Int { n <= 0 ? 0 : Int(next() % UInt64(n)) }

    /// 1–8 random edits: flip bits, set interesting bytes, overwrite 32-bit words with
    /// extreme values (lengths, float NaN/inf), insert, delete, truncate.
    public mutating func mutate(_ input: [UInt8]) -> [UInt8] {
        var b = input
        let interesting: [UInt32] = [0, 1, 0x7FFF_FFFF, 0xFFFF_FFFF, 0x8000_0000, 0x7FC0_0000, 0x7F80_0000, 0xFF80_0000, 65536, 0xFFFF]
        for _ in 0...below(8) {
            guard !b.isEmpty else { b = [UInt8(truncatingIfNeeded: next())]; continue }
            switch below(7) {
            case 0: b[below(b.count)] ^= UInt8(1 << below(8))
            case 1: b[below(b.count)] = [0, 0xFF, 0x7F, 0x80, 1][below(5)]
            case 2:
                let at = below(max(1, b.count - 3))
                let v = interesting[below(interesting.count)]
                for k in 0..<min(4, b.count - at) { b[at + k] = UInt8(truncatingIfNeeded: v >> (8 * UInt32(k))) }
            case 3: b.insert(UInt8(truncatingIfNeeded: next()), at: below(b.count + 1))
            case 4: b.remove(at: below(b.count))
            case 5: b.removeLast(below(b.count))
            default:
                let from = below(b.count), to = below(b.count), n = min(below(64), b.count - max(from, to))
                if n > 0 { b.replaceSubrange(to..<(to + n), with: b[from..<(from + n)]) }
            }
        }
        return b
    }

    /// Iterations for a fuzz test: `default` in CI, more with SPECVIZ_FUZZ_ITERATIONS=N.
    public static func iterations(default n: Int) -> Int {
        if let v = getenv("SPECVIZ_FUZZ_ITERATIONS"), let k = Int(String(cString: v)), k > 0 { return k }
        return n
    }
}

#if canImport(Glibc)
import Glibc
#endif
