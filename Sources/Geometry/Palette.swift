/// Colour ramps, as named tables of evenly spaced stops (straight RGBA, 0…1).
public struct Palette: Sendable {
    public let name: String
    public let stops: [SIMD4<Float>]

    public init(name: String, stops: [SIMD4<Float>]) {
        precondition(stops.count >= 2)
        self.name = name
        self.stops = stops
    }

    /// The colour at position t (clamped to 0…1), linear between neighbouring stops.
    @inlinable
    public func color(_ t: Float) -> SIMD4<Float> {
        let x = min(max(t, 0), 1) * Float(stops.count - 1)
        let i = min(Int(x), stops.count - 2)
        let f = x - Float(i)
        return stops[i] + (stops[i + 1] - stops[i]) * f
    }

    /// Seed 000's frequency gradient: blue → cyan → green → yellow → red.
    public static let spectrum = Palette(name: "spectrum", stops: [
        SIMD4(0, 0, 1, 1), SIMD4(0, 1, 1, 1), SIMD4(0, 1, 0, 1), SIMD4(1, 1, 0, 1), SIMD4(1, 0, 0, 1),
    ])

    /// Seed 000's spectrogram heatmap: black → dark blue → cyan → yellow → red.
    public static let heat = Palette(name: "heat", stops: [
        SIMD4(0, 0, 0, 1), SIMD4(0, 0, 0.8, 1), SIMD4(0, 1, 1, 1), SIMD4(1, 1, 0, 1), SIMD4(1, 0.3, 0, 1),
    ])
}
