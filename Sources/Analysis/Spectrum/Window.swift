#if canImport(Glibc)
import Glibc
#endif

/// Window functions, computed once (periodic forms, as spectrum analysers use them).
public enum Window {
    /// The periodic Hann window w[n] = 0.5·(1 − cos(2πn/N)), n = 0 … N−1
    /// (vDSP_hann_window's default, seed 000 Part 1 stage 1).
    public static func hann(_ n: Int) -> [Float] {
        WindowKind.hann.make(n)
    }
}

/// The analysis window (`--window`). Coefficients of the cosine-sum windows from
/// Harris, "On the use of windows for harmonic analysis with the DFT" (Proc. IEEE 1978);
/// flat-top as in ISO 18431-2 / MATLAB `flattopwin` (5 terms); Kaiser with I0 by its series.
public enum WindowKind: Sendable, Equatable, CustomStringConvertible {
    case hann, hamming, blackman, blackmanHarris, flatTop, rect
    case kaiser(beta: Double)

    /// Parses `hann|hamming|blackman|blackman-harris|flat-top|kaiser[:BETA]|rect`.
    public init?(parsing text: String) {
        let t = text.lowercased()
        switch t {
        case "hann", "hanning": self = .hann
        case "hamming": self = .hamming
        case "blackman": self = .blackman
        case "blackman-harris", "blackmanharris": self = .blackmanHarris
        case "flat-top", "flattop": self = .flatTop
        case "rect", "rectangular", "none": self = .rect
        case "kaiser": self = .kaiser(beta: 9)
        default:
            guard t.hasPrefix("kaiser:"), let b = Double(t.dropFirst(7)), b >= 0, b <= 40 else { return nil }
            self = .kaiser(beta: b)
        }
    }

    /// The windows by the names `init(parsing:)` takes first (`kaiser` with its default β).
    public static let names: [String] =
        [WindowKind.hann, .hamming, .blackman, .blackmanHarris, .flatTop, .rect].map(\.description) + ["kaiser"]

    public var description: String {
        switch self {
        case .hann: return "hann"
        case .hamming: return "hamming"
        case .blackman: return "blackman"
        case .blackmanHarris: return "blackman-harris"
        case .flatTop: return "flat-top"
        case .rect: return "rect"
        case .kaiser(let b): return "kaiser:\(b)"
        }
    }

    /// The N coefficients (periodic: the DFT-even form).
    public func make(_ n: Int) -> [Float] {
        func cosineSum(_ a: [Double]) -> [Float] {
            (0..<n).map { i in
                let x = 2 * Double.pi * Double(i) / Double(n)
                var v = 0.0
                for (k, c) in a.enumerated() { v += (k % 2 == 0 ? c : -c) * cos(Double(k) * x) }
                return Float(v)
            }
        }
        switch self {
        case .hann: return (0..<n).map { Float(0.5 * (1 - cos(2 * Double.pi * Double($0) / Double(n)))) }
        case .hamming: return cosineSum([0.54, 0.46])
        case .blackman: return cosineSum([0.42, 0.5, 0.08])
        case .blackmanHarris: return cosineSum([0.35875, 0.48829, 0.14128, 0.01168])
        case .flatTop: return cosineSum([0.21557895, 0.41663158, 0.277263158, 0.083578947, 0.006947368])
        case .rect: return [Float](repeating: 1, count: n)
        case .kaiser(let beta):
            func i0(_ x: Double) -> Double {
                var sum = 1.0, term = 1.0, k = 1.0
                while term > 1e-12 * sum { term *= (x / (2 * k)) * (x / (2 * k)); sum += term; k += 1 }
                return sum
            }
            let d = i0(beta)
            return (0..<n).map { i in
                let r = 2 * Double(i) / Double(n) - 1
                return Float(i0(beta * sqrt(max(0, 1 - r * r))) / d)
            }
        }
    }
}
