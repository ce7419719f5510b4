import SpecvizCore
import Tuning

#if canImport(Glibc)
import Glibc
#endif

/// The tuner's vintage-instrument colours: P1 phosphor green, amber, LED red, and the
/// white of an in-tune glow (seed 004 §9's CRT glow), plus the bezel and glass tones.
enum TunerColors {
    static let background = SIMD4<Float>(0.035, 0.030, 0.027, 1)
    static let bezelTop = SIMD4<Float>(0.22, 0.19, 0.155, 1)
    static let bezelBottom = SIMD4<Float>(0.09, 0.08, 0.07, 1)
    static let screenCentre = SIMD4<Float>(0.045, 0.115, 0.075, 1)
    static let screenEdge = SIMD4<Float>(0.006, 0.022, 0.014, 1)
    static let phosphor = SIMD4<Float>(0.45, 1.0, 0.55, 1)
    static let amber = SIMD4<Float>(1.0, 0.72, 0.28, 1)
    static let red = SIMD4<Float>(1.0, 0.2, 0.1, 1)
    static let white = SIMD4<Float>(0.96, 1.0, 0.96, 1)
    static let dim = SIMD4<Float>(0.30, 0.55, 0.36, 0.55)
    static let unsure = SIMD4<Float>(0.6, 0.6, 0.6, 1)

    /// A reading's colour by its class (`TuningTolerance`), the same on every meter: the
    /// white in-tune glow, amber near, LED red far.
    /// The colour of a view's reading: its class's, or grey while the reading is unsure.
    static func reading(_ s: TunerViewState) -> SIMD4<Float> { s.unsure ? unsure : reading(s.tuningClass) }

    static func reading(_ c: TuningClass) -> SIMD4<Float> {
        switch c {
        case .inTune: white
        case .near: amber
        case .far: red
        }
    }

    /// `c` with alpha multiplied by `a`.
    @inline(__always) static func alpha(_ c: SIMD4<Float>, _ a: Float) -> SIMD4<Float> { SIMD4(c.x, c.y, c.z, c.w * a) }
    /// `c` with rgb multiplied by `k` (alpha kept).
    @inline(__always) static func scaled(_ c: SIMD4<Float>, _ k: Float) -> SIMD4<Float> { SIMD4(c.x * k, c.y * k, c.z * k, c.w) }
}

/// Pixel-space drawing (x right, y down) on top of the clip-space 2D pipeline. Glow is
/// made of soft alpha: feathered edges that fade to transparent, never a blur pass.
extension Scene {
    @inline(__always) func clip(_ p: SIMD2<Float>) -> SIMD2<Float> {
        SIMD2(p.x / Float(width) * 2 - 1, 1 - p.y / Float(height) * 2)
    }

    mutating func pxTriangle(
        _ a: SIMD2<Float>, _ b: SIMD2<Float>, _ c: SIMD2<Float>,
        _ ca: SIMD4<Float>, _ cb: SIMD4<Float>, _ cc: SIMD4<Float>
    ) {
        vertices2D.append(Vertex2D(clip(a), ca))
        vertices2D.append(Vertex2D(clip(b), cb))
        vertices2D.append(Vertex2D(clip(c), cc))
    }

    mutating func pxQuad(
        _ a: SIMD2<Float>, _ b: SIMD2<Float>, _ c: SIMD2<Float>, _ d: SIMD2<Float>,
        _ ca: SIMD4<Float>, _ cb: SIMD4<Float>, _ cc: SIMD4<Float>, _ cd: SIMD4<Float>
    ) {
        quad(clip(a), clip(b), clip(c), clip(d), ca, cb, cc, cd)
    }

    /// Axis-aligned rectangle with a vertical gradient (`top` colour at y0).
    mutating func pxRect(x0: Float, y0: Float, x1: Float, y1: Float, top: SIMD4<Float>, bottom: SIMD4<Float>) {
        pxQuad(SIMD2(x0, y0), SIMD2(x1, y0), SIMD2(x1, y1), SIMD2(x0, y1), top, top, bottom, bottom)
    }

    /// A line of width `w` pixels with feathered sides `feather` pixels wide (alpha → 0).
    mutating func pxLine(_ p: SIMD2<Float>, _ q: SIMD2<Float>, width w: Float, color: SIMD4<Float>, feather: Float = 1) {
        let d = q - p
        let len = (d * d).sum().squareRoot()
        guard len > 1e-4 else { return }
        let n = SIMD2(-d.y, d.x) / len
        let h = w * 0.5
        let clear = TunerColors.alpha(color, 0)
        pxQuad(p - n * h, q - n * h, q + n * h, p + n * h, color, color, color, color)
        if feather > 0 {
            let f = h + feather
            pxQuad(p + n * h, q + n * h, q + n * f, p + n * f, color, color, clear, clear)
            pxQuad(p - n * f, q - n * f, q - n * h, p - n * h, clear, clear, color, color)
        }
    }

    /// A soft round glow: full `color` at the centre fading to transparent at `radius`.
    mutating func pxGlow(_ c: SIMD2<Float>, radius: Float, color: SIMD4<Float>, segments: Int = 24) {
        let clear = TunerColors.alpha(color, 0)
        var prev = c + SIMD2(radius, 0)
        for i in 1...segments {
            let a = Float(i) / Float(segments) * 2 * Float.pi
            let p = c + SIMD2(cos(a), sin(a)) * radius
            pxTriangle(c, prev, p, color, clear, clear)
            prev = p
        }
    }

    /// A convex quad (corners in order) filled with `color`, plus a feathered halo of
    /// `glow` pixels around it fading from `halo` to transparent.
    mutating func pxGlowingQuad(
        _ q: (SIMD2<Float>, SIMD2<Float>, SIMD2<Float>, SIMD2<Float>), color: SIMD4<Float>,
        glow: Float, halo: SIMD4<Float>
    ) {
        let centre = (q.0 + q.1 + q.2 + q.3) * 0.25
        if glow > 0 {
            pxHalo(q.0, q.1, centre: centre, glow: glow, halo: halo)
            pxHalo(q.1, q.2, centre: centre, glow: glow, halo: halo)
            pxHalo(q.2, q.3, centre: centre, glow: glow, halo: halo)
            pxHalo(q.3, q.0, centre: centre, glow: glow, halo: halo)
        }
        pxQuad(q.0, q.1, q.2, q.3, color, color, color, color)
    }

    /// The edge a–b pushed outward from `centre` by `glow` pixels, fading to transparent.
    mutating func pxHalo(_ a: SIMD2<Float>, _ b: SIMD2<Float>, centre: SIMD2<Float>, glow: Float, halo: SIMD4<Float>) {
        let da = a - centre, db = b - centre
        let ao = a + da / max((da * da).sum().squareRoot(), 1e-3) * glow
        let bo = b + db / max((db * db).sum().squareRoot(), 1e-3) * glow
        let clear = TunerColors.alpha(halo, 0)
        pxQuad(a, b, bo, ao, halo, halo, clear, clear)
    }

    /// A filled triangle with a feathered glow edge.
    mutating func pxGlowingTriangle(_ a: SIMD2<Float>, _ b: SIMD2<Float>, _ c: SIMD2<Float>, color: SIMD4<Float>, glow: Float) {
        if glow > 0 {
            let m = (a + b + c) / 3
            let halo = TunerColors.alpha(color, 0.45)
            pxHalo(a, b, centre: m, glow: glow, halo: halo)
            pxHalo(b, c, centre: m, glow: glow, halo: halo)
            pxHalo(c, a, centre: m, glow: glow, halo: halo)
        }
        pxTriangle(a, b, c, color, color, color)
    }

    /// Text with a CRT glow: two faint offset copies under the main run (the seed's
    /// "shadow layers for the CRT-glow effect").
    mutating func glowText(
        _ text: String, at p: SIMD2<Float>, size: Float, color: SIMD4<Float>,
        anchor: TextRun.Anchor = .center, glow: Float = 0.22
    ) {
        let o = max(1, size * 0.05)
        addText(TextRun(text, at: p + SIMD2(-o, 0), size: size, color: TunerColors.alpha(color, glow), anchor: anchor))
        addText(TextRun(text, at: p + SIMD2(o, 0), size: size, color: TunerColors.alpha(color, glow), anchor: anchor))
        addText(TextRun(text, at: p, size: size, color: color, anchor: anchor))
    }
}
