/// Colour ramps, as named tables of evenly spaced stops (straight RGBA, 0…1).
///
/// The seed's two ramps are the defaults (seed 000 Part 2: the frequency gradient of
/// bars/curve/circular/surface and the spectrogram heatmap). The alternatives are
/// perceptually uniform maps from matplotlib (van der Walt & Smith, "A Better Default
/// Colormap for Matplotlib", SciPy 2015), sampled at evenly spaced points of the
/// published 256-entry tables.
public struct Palette: Sendable, Equatable {
    public let name: String
    public let stops: [SIMD4<Float>]

    public init(name: String, stops: [SIMD4<Float>]) {
        precondition(stops.count >= 2)
        self.name = name
        self.stops = stops
    }

    /// The colour at position t (clamped to 0…1), linear between neighbouring stops.
    /// Piecewise-linear and branch-light; does not allocate.
    @inlinable
    public func color(_ t: Float) -> SIMD4<Float> {
        let x = (t > 0 ? min(t, 1) : 0) * Float(stops.count - 1) // NaN → 0
        let i = min(Int(x), stops.count - 2)
        let f = x - Float(i)
        return stops.withUnsafeBufferPointer { s in s[i] + (s[i + 1] - s[i]) * f }
    }

    /// Seed 000's frequency gradient: blue → cyan → green → yellow → red.
    public static let spectrum = Palette(
        name: "spectrum",
        stops: [
            SIMD4(0, 0, 1, 1), SIMD4(0, 1, 1, 1), SIMD4(0, 1, 0, 1), SIMD4(1, 1, 0, 1), SIMD4(1, 0, 0, 1),
        ])

    /// Seed 000's spectrogram heatmap: black → dark blue (0,0,0.8) → cyan → yellow → red (1,0.3,0).
    public static let heat = Palette(
        name: "heat",
        stops: [
            SIMD4(0, 0, 0, 1), SIMD4(0, 0, 0.8, 1), SIMD4(0, 1, 1, 1), SIMD4(1, 1, 0, 1), SIMD4(1, 0.3, 0, 1),
        ])

    /// matplotlib "magma": black → purple → orange → pale yellow (perceptually uniform).
    public static let magma = Palette(
        name: "magma",
        stops: [
            SIMD4(0.001, 0.000, 0.014, 1), SIMD4(0.078, 0.054, 0.212, 1), SIMD4(0.232, 0.060, 0.437, 1),
            SIMD4(0.390, 0.100, 0.502, 1), SIMD4(0.550, 0.161, 0.506, 1), SIMD4(0.716, 0.215, 0.475, 1),
            SIMD4(0.868, 0.288, 0.409, 1), SIMD4(0.967, 0.439, 0.360, 1), SIMD4(0.994, 0.624, 0.427, 1),
            SIMD4(0.987, 0.991, 0.750, 1),
        ])

    /// matplotlib "viridis": dark purple → blue → green → yellow (perceptually uniform).
    public static let viridis = Palette(
        name: "viridis",
        stops: [
            SIMD4(0.267, 0.005, 0.329, 1), SIMD4(0.283, 0.141, 0.458, 1), SIMD4(0.254, 0.265, 0.530, 1),
            SIMD4(0.207, 0.372, 0.553, 1), SIMD4(0.164, 0.471, 0.558, 1), SIMD4(0.128, 0.567, 0.551, 1),
            SIMD4(0.135, 0.659, 0.518, 1), SIMD4(0.267, 0.749, 0.441, 1), SIMD4(0.478, 0.821, 0.318, 1),
            SIMD4(0.741, 0.873, 0.150, 1), SIMD4(0.993, 0.906, 0.144, 1),
        ])

    /// matplotlib "inferno": black → purple → red-orange → pale yellow (perceptually uniform).
    public static let inferno = Palette(
        name: "inferno",
        stops: [
            SIMD4(0.001, 0.000, 0.014, 1), SIMD4(0.090, 0.047, 0.235, 1), SIMD4(0.258, 0.039, 0.406, 1),
            SIMD4(0.416, 0.090, 0.433, 1), SIMD4(0.578, 0.148, 0.404, 1), SIMD4(0.735, 0.216, 0.330, 1),
            SIMD4(0.865, 0.317, 0.226, 1), SIMD4(0.955, 0.469, 0.099, 1), SIMD4(0.988, 0.645, 0.040, 1),
            SIMD4(0.988, 0.998, 0.645, 1),
        ])

    /// A neon sweep for the frequency gradient: magenta → violet → cyan → mint.
    public static let neon = Palette(
        name: "neon",
        stops: [
            SIMD4(1, 0.1, 0.6, 1), SIMD4(0.55, 0.2, 1, 1), SIMD4(0.1, 0.6, 1, 1), SIMD4(0.1, 1, 0.9, 1), SIMD4(0.7, 1, 0.6, 1),
        ])

    /// Greyscale, for print and for checking a picture's luminance.
    public static let gray = Palette(name: "gray", stops: [SIMD4(0, 0, 0, 1), SIMD4(1, 1, 1, 1)])

    /// Every named palette, as `--palette NAME` offers them.
    public static let all: [Palette] = [spectrum, heat, magma, viridis, inferno, neon, gray]

    /// The palette called `name` (case-insensitive), or nil.
    public static func named(_ name: String) -> Palette? {
        let key = name.lowercased()
        return all.first { $0.name == key }
    }
}
