import Analysis
import SpecvizCore

#if canImport(Glibc)
import Glibc
#endif

/// Circular (seed 000 Part 2, "Circular Mode"): 128 bars radiating from the centre of the
/// spectrum area, band i at angle 2π·(i + ½)/128 measured clockwise from the top, from
/// the fixed inner radius 0.20 out to 0.20 + 0.20·v, with a thin white arc at the peak (the
/// seed's 0.10 + 0.30·v left the ring a small knot at music's usual levels: issue 39).
///
/// Radii are in ring units: one unit is `unitPixels` pixels, chosen so the largest ring
/// (plus its frequency labels) fits the spectrum area. Offsets are computed in pixels and
/// converted to clip space per axis (the seed's "multiply x-offsets by height / width"),
/// so the ring is round at every frame size. The band centre (i + ½) rather than the
/// seed's i puts each bar exactly under its log-frequency position, as in bars and curve.
/// Each bar is a wedge 80% of its angular slot wide (inner corners at 35% brightness);
/// a dim base ring marks the inner radius. 128 × 18 vertices.
public struct CircularMode: ModeBuilder {
    public static let innerRadius: Float = 0.20
    public static let radiusRange: Float = 0.20
    /// Radius (ring units) at which the frequency labels sit.
    public static let labelRadius: Float = 0.45
    public static let baseBrightness: Float = 0.35
    /// Fraction of each band's angular slot the bar fills.
    public static let fill: Float = 0.8

    public var palette: Palette

    public init(palette: Palette = .spectrum) { self.palette = palette }

    /// Where the ring sits: centre (clip space) and the size of one ring unit in pixels.
    public struct Geometry: Sendable {
        public var center: SIMD2<Float>
        public var unitPixels: Float
    }

    public static func geometry(layout: Layout) -> Geometry {
        // Centred on the frame horizontally (the spectrum area's margins are not symmetric).
        // The ring has no dB scale on the left and its labels are radial, so it may use the
        // frame's width (small symmetric margins) and the frequency-label band beneath the
        // spectrum area, down to the waveform label (issue 39: it fills most of the short side).
        let r = layout.spectrum
        let w = Float(layout.width), h = Float(layout.height)
        let side = layout.labels ? layout.fontSize * 0.6 : 0.02 * w
        let top = (1 - r.y1) * 0.5 * h
        let bottomSpec = (1 - r.y0) * 0.5 * h
        let bottomFree = layout.labels ? layout.waveformLabelOrigin.y - layout.fontSize * 1.2 : bottomSpec
        let bottom = max(bottomFree, bottomSpec)
        let halfW = w * 0.5 - side
        var (room, ringTop) = (min(halfW, (bottom - top) * 0.5), top)
        if let items = layout.headerItems {
            // The ring may rise into the header where its box stays clear of what the header
            // holds: the highest top (in whole pixels) whose square is widest wins.
            let margin = layout.labels ? layout.fontSize * 0.5 : 0.02 * h
            var t = top.rounded(.down)
            while t >= margin {
                var fit = min(halfW, (bottom - t) * 0.5)
                for b in items where b.y1 > t && b.y0 < t + 2 * fit {
                    fit = min(fit, b.x0 >= w * 0.5 ? b.x0 - w * 0.5 : b.x1 <= w * 0.5 ? w * 0.5 - b.x1 : 0)
                }
                if fit > room { (room, ringTop) = (fit, t) }
                t -= 1
            }
        }
        let centerY = 1 - (ringTop + bottom) / h
        let unit = layout.labels ? (room - layout.fontSize * 1.1) / labelRadius : room / 0.42
        return Geometry(center: SIMD2(0, centerY), unitPixels: max(unit, 1))
    }

    /// Unit direction (x right, y up) of log-frequency position t ∈ 0…1: clockwise from the top.
    @inlinable
    public static func direction(position t: Float) -> SIMD2<Float> {
        let a = 2 * Float.pi * t
        return SIMD2(sin(a), cos(a))
    }

    /// Band index whose bar points along `direction` (x right, y up), for tests and picking.
    public static func band(atDirection d: SIMD2<Float>) -> Int {
        var a = atan2(d.x, d.y)
        if a < 0 { a += 2 * Float.pi }
        return min(Int(a / (2 * Float.pi) * Float(LogBands.count)), LogBands.count - 1)
    }

    public func build(_ state: VisualState, layout: Layout, into scene: inout Scene) {
        let g = CircularMode.geometry(layout: layout)
        let n = state.display.count
        // Pixel → clip conversion per axis: the aspect correction.
        let k = SIMD2<Float>(g.unitPixels * 2 / Float(layout.width), g.unitPixels * 2 / Float(layout.height))
        let c = g.center
        let halfAngle = Float.pi / Float(n) * CircularMode.fill
        let ringHalf = max(0.6, 1.2 * layout.scale) / g.unitPixels
        let peakDepth = max(2, 3 * layout.scale) / g.unitPixels
        let white = SIMD4<Float>(1, 1, 1, 0.9)
        let r0 = CircularMode.innerRadius
        scene.begin2D()
        state.display.withUnsafeBufferPointer { display in
            state.peaks.withUnsafeBufferPointer { peaks in
                for i in 0..<n {
                    let t = (Float(i) + 0.5) / Float(n)
                    let a = 2 * Float.pi * t
                    let dl = SIMD2<Float>(sin(a - halfAngle), cos(a - halfAngle)) * k
                    let dr = SIMD2<Float>(sin(a + halfAngle), cos(a + halfAngle)) * k
                    let top = palette.color(t)
                    let dim = SIMD4(
                        top.x * CircularMode.baseBrightness, top.y * CircularMode.baseBrightness,
                        top.z * CircularMode.baseBrightness, top.w)
                    // Base ring: the full slot width so neighbouring pieces close the circle.
                    let fl = SIMD2<Float>(sin(a - .pi / Float(n)), cos(a - .pi / Float(n))) * k
                    let fr = SIMD2<Float>(sin(a + .pi / Float(n)), cos(a + .pi / Float(n))) * k
                    let ringColor = SIMD4(dim.x, dim.y, dim.z, 0.7)
                    scene.quad(
                        c + fl * (r0 - ringHalf), c + fr * (r0 - ringHalf), c + fr * (r0 + ringHalf), c + fl * (r0 + ringHalf),
                        ringColor, ringColor, ringColor, ringColor)
                    let v = display[i]
                    if v > 0.001 {
                        let r1 = r0 + v * CircularMode.radiusRange
                        let tip = dim + (top - dim) * min(1, v)
                        scene.quad(c + dl * r0, c + dr * r0, c + dr * r1, c + dl * r1, dim, dim, tip, tip)
                    }
                    let p = peaks[i]
                    if p > 0.002 {
                        let rp = r0 + p * CircularMode.radiusRange
                        scene.quad(
                            c + dl * rp, c + dr * rp, c + dr * (rp + peakDepth), c + dl * (rp + peakDepth),
                            white, white, white, white)
                    }
                }
            }
        }
        scene.end2D()
    }
}
