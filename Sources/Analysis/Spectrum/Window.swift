#if canImport(Glibc)
import Glibc
#endif

/// Window functions, computed once.
public enum Window {
    /// The periodic Hann window w[n] = 0.5·(1 − cos(2πn/N)), n = 0 … N−1
    /// (vDSP_hann_window's default, seed 000 Part 1 stage 1).
    public static func hann(_ n: Int) -> [Float] {
        (0..<n).map { Float(0.5 * (1 - cos(2 * Double.pi * Double($0) / Double(n)))) }
    }
}
