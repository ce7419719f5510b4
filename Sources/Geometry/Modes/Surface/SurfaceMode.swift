import Analysis
import SpecvizCore

/// The 3D waterfall, modes surface and surface+ (seed 000 Part 6 "Surface Mesh Generation"
/// and "Ridgeline Outlines"; SPEC §4).
///
/// The 60-row surface history (row 0 oldest) becomes a grid in world space (`SurfaceGrid`:
/// the history scrolled back by the frame's share of a row, the live spectrum in front,
/// so the waterfall moves on every video frame): band c at x = −1 + 2c/127 (log frequency
/// 20 Hz…20 kHz), mesh row j at z from −1 (oldest, at the back) to +1 (the live row, at the
/// front), amplitude v at y = v·yScale (0.6 compact … 1.2 full, from the orbit camera).
/// Each of the 60 × 127 cells is two triangles (j,c)→(j+1,c)→(j+1,c+1) and
/// (j,c)→(j+1,c+1)→(j,c+1) with flat face normals normalize((B−A)×(C−A)): 45,720 vertices.
/// Colours follow curve mode: the frequency gradient, dim at the floor (like the curve's
/// fill) and full at the peaks, fading slightly with depth so the distance reads as depth.
///
/// surface+ adds, along every mesh row's line, a ridgeline ribbon 0.008 world units thick
/// whose near edge sits 0.002 from the line, both measured square to the line in the row's
/// plane (mitred at the joints), so it keeps its width on steep faces instead of thinning to
/// dots; colour ×1.3, normal (0, 1, 0): 61 × 127 × 6 = 46,482 more vertices.
///
/// The scene is drawn into the spectrum area of the layout (full width in 3D, where the dB
/// scale has no meaning); frequency labels are projected along the front edge by the same MVP.
public struct SurfaceMode: ModeBuilder {
    public static let ridgeThickness: Float = 0.008
    public static let ridgeLift: Float = 0.002
    public static let ridgeBoost: Float = 1.3
    /// Vertex colour brightness at amplitude 0 (the curve fill's dim floor) and the age fade
    /// of the oldest row.
    public static let floorBrightness: Float = 0.22
    public static let oldestFade: Float = 0.55
    /// Very wide viewports (aspect above `stretchFrom`) are filled by projecting for a
    /// narrower aspect and stretching the picture horizontally by at most `maxStretch`:
    /// the mesh's own projected aspect is about 1.3, and filling a 2.6:1 strip at a fixed
    /// 45° fov would otherwise need a 90°-wide, fish-eyed view.
    public static let maxStretch: Float = 1.5
    public static let stretchFrom: Float = 1.6
    /// Tall viewports (portrait, square) are filled by the opposite stretch, vertically, by
    /// at most this factor.
    public static let maxTallStretch: Float = 1.8

    public var ridgelines: Bool
    public var palette: Palette

    public init(ridgelines: Bool = false, palette: Palette = .spectrum) {
        self.ridgelines = ridgelines
        self.palette = palette
    }

    /// Longest mitre of a ridgeline joint, in ribbon widths (sharp peaks are cut there).
    public static let maxMitre: Float = 3

    /// Vertices one frame emits for a history of `rows` (mesh rows: `rows` + 1): 45,720 for
    /// surface, 92,202 for surface+.
    public static func vertexCount(rows: Int, ridgelines: Bool, bands: Int = LogBands.count) -> Int {
        return rows * (bands - 1) * 6 + (ridgelines ? (rows + 1) * (bands - 1) * 6 : 0)
    }

    /// Where the 3D scene is drawn (clip space): the spectrum area's height, nearly the full width.
    public static func viewport(_ layout: Layout) -> Layout.Rect {
        let margin = 0.025 * Float(min(layout.width, layout.height)) * layout.clipPerPixel.x
        return Layout.Rect(x0: -1 + margin, y0: layout.spectrum.y0, x1: 1 - margin, y1: layout.spectrum.y1)
    }

    /// The camera for this layout (presets blended by the frame's aspect, fitted to the
    /// mesh's box including the highest possible peak, so nothing is ever clipped) and the
    /// full MVP into the frame: viewport · lens shift · projection · view.
    public static func camera(layout: Layout) -> (camera: OrbitCamera, mvp: Mat4) {
        var cam = OrbitCamera(aspect: Float(layout.width) / Float(max(layout.height, 1)))
        let rect = viewport(layout)
        let rectAspect = rect.width * Float(layout.width) / (rect.height * Float(layout.height))
        var aspect = min(rectAspect, max(rectAspect / maxStretch, stretchFrom))
        let lo = SIMD3<Float>(-1, 0, -1), hi = SIMD3<Float>(1, cam.yScale + ridgeLift + ridgeThickness, 1)
        cam.fit(min: lo, max: hi, aspect: aspect)
        // Viewports taller than the fitted mesh (portrait, square): fitting filled the width
        // and left bands above and below. Project for the mesh's own aspect instead (capped
        // at `maxTallStretch` × the viewport's) and let the viewport stretch it vertically,
        // so the picture fills the height too: it reads as a steeper, deeper waterfall.
        // The fitted distance changes the mesh's projected aspect a little: three rounds settle it.
        let rectTall = aspect
        for _ in 0..<3 {
            guard let e = cam.projectedExtent(min: lo, max: hi, aspect: aspect) else { break }
            let meshAspect = (e.z - e.x) * aspect / max(e.w - e.y, 1e-6)
            let wanted = min(max(meshAspect, rectTall), rectTall * maxTallStretch)
            guard abs(wanted - aspect) > aspect * 0.01 else { break }
            aspect = wanted
            cam.fit(min: lo, max: hi, aspect: aspect)
        }
        return (cam, OrbitCamera.viewport(rect) * cam.viewProjection(aspect: aspect))
    }

    public func build(_ state: VisualState, layout: Layout, into scene: inout Scene) {
        let (cam, mvp) = SurfaceMode.camera(layout: layout)
        let motion = state.surfaceMotion
        let grid = SurfaceGrid(history: state.surface, live: motion.live, phase: motion.phase)
        let rows = grid.count, bands = grid.history.bands
        let ys = cam.yScale
        let dx = 2 / Float(bands - 1)
        scene.vertices3D.reserveCapacity(
            scene.vertices3D.count + SurfaceMode.vertexCount(rows: grid.history.rows, ridgelines: ridgelines, bands: bands))

        @inline(__always) func point(_ j: Int, _ c: Int) -> SIMD3<Float> {
            SIMD3(-1 + Float(c) * dx, grid.value(j, c) * ys, grid.z(j))
        }
        @inline(__always) func color(_ j: Int, _ c: Int, _ y: Float) -> SIMD4<Float> {
            let g = palette.color(Float(c) / Float(bands - 1))
            let age = SurfaceMode.oldestFade + (1 - SurfaceMode.oldestFade) * (grid.z(j) + 1) / 2
            let k = (SurfaceMode.floorBrightness + (1 - SurfaceMode.floorBrightness) * y / ys) * age
            return SIMD4(g.x * k, g.y * k, g.z * k, 1)
        }
        @inline(__always) func triangle(
            _ a: SIMD3<Float>, _ b: SIMD3<Float>, _ c: SIMD3<Float>,
            _ ca: SIMD4<Float>, _ cb: SIMD4<Float>, _ cc: SIMD4<Float>
        ) {
            // (The live row's cell is flat in z when the history has just taken it: up.)
            let x = cross(b - a, c - a)
            let n = (x * x).sum() > 0 ? normalize(x) : SIMD3<Float>(0, 1, 0)
            scene.vertices3D.append(Vertex3D(a, n, ca))
            scene.vertices3D.append(Vertex3D(b, n, cb))
            scene.vertices3D.append(Vertex3D(c, n, cc))
        }

        // Rows are emitted front (newest) to back: the depth test LESS gives the same picture
        // in any order, and nearer triangles first let it reject hidden fragments before shading.
        scene.begin3D(mvp: mvp)
        for j in stride(from: rows - 2, through: 0, by: -1) {
            var a = point(j, 0), b = point(j + 1, 0)
            var ca = color(j, 0, a.y), cb = color(j + 1, 0, b.y)
            for c in 0..<(bands - 1) {
                let cc = point(j + 1, c + 1), d = point(j, c + 1)
                let ccol = color(j + 1, c + 1, cc.y), dcol = color(j, c + 1, d.y)
                triangle(a, b, cc, ca, cb, ccol)
                triangle(a, cc, d, ca, ccol, dcol)
                a = d; b = cc; ca = dcol; cb = ccol
            }
        }
        scene.end3D()

        guard ridgelines else { return }
        scene.begin3D(mvp: mvp)
        for j in stride(from: rows - 1, through: 0, by: -1) {
            ridge(row: j, bands: bands, point: point, color: color, into: &scene)
        }
        scene.end3D()
    }

    /// One ridgeline ribbon along mesh row `j`: at each point the offset square to the line
    /// (the mean of the two segments' normals in the row's plane, lengthened to keep the
    /// width across the joint, at most `maxMitre`), from `ridgeLift` to `ridgeLift` +
    /// `ridgeThickness`. A flat stretch gets the seed's straight-up quads.
    private func ridge(
        row j: Int, bands: Int, point: (Int, Int) -> SIMD3<Float>, color: (Int, Int, Float) -> SIMD4<Float>,
        into scene: inout Scene
    ) {
        let up = SIMD3<Float>(0, 1, 0)
        let boost = SIMD4<Float>(SurfaceMode.ridgeBoost, SurfaceMode.ridgeBoost, SurfaceMode.ridgeBoost, 1)
        let lift = SurfaceMode.ridgeLift, top = SurfaceMode.ridgeLift + SurfaceMode.ridgeThickness
        /// The unit normal (pointing up) of the segment a → b in the x-y plane.
        @inline(__always) func normal(_ a: SIMD3<Float>, _ b: SIMD3<Float>) -> SIMD2<Float> {
            let d = SIMD2(b.x - a.x, b.y - a.y)
            let l = (d * d).sum().squareRoot()
            return l > 0 ? SIMD2(-d.y / l, d.x / l) : SIMD2(0, 1)
        }
        @inline(__always) func offset(_ before: SIMD2<Float>, _ after: SIMD2<Float>) -> SIMD3<Float> {
            if before == after { return SIMD3(before.x, before.y, 0) }
            let m = before + after
            let l = (m * m).sum().squareRoot()
            guard l > 1e-6 else { return SIMD3(0, SurfaceMode.maxMitre, 0) }
            let n = m / l
            let scale = min(1 / max((n * after).sum(), 1e-6), SurfaceMode.maxMitre)
            return SIMD3(n.x * scale, n.y * scale, 0)
        }
        var p = point(j, 0), q = point(j, 1)
        var seg = normal(p, q)
        var op = offset(seg, seg)
        var cp = color(j, 0, p.y) * boost
        for c in 0..<(bands - 1) {
            let r = c + 2 < bands ? point(j, c + 2) : q
            let next = c + 2 < bands ? normal(q, r) : seg
            let oq = offset(seg, next)
            let cq = color(j, c + 1, q.y) * boost
            // Quad p+lift, q+lift, q+top, p+top as two triangles, all facing up for the light.
            scene.vertices3D.append(Vertex3D(p + op * lift, up, cp))
            scene.vertices3D.append(Vertex3D(q + oq * lift, up, cq))
            scene.vertices3D.append(Vertex3D(q + oq * top, up, cq))
            scene.vertices3D.append(Vertex3D(p + op * lift, up, cp))
            scene.vertices3D.append(Vertex3D(q + oq * top, up, cq))
            scene.vertices3D.append(Vertex3D(p + op * top, up, cp))
            p = q; op = oq; cp = cq; seg = next; q = r
        }
    }

    /// The text of the 3D modes, drawn after the waveform strip: frequency labels along the
    /// front edge (y = 0, z = +1) projected with the scene's MVP, the waveform label and the
    /// title. No dB scale: heights in perspective have no single scale.
    public static func labels(_ state: VisualState, layout: Layout, into scene: inout Scene, title: String? = nil) {
        guard layout.labels else { return }
        let f = layout.fontSize
        let (_, mvp) = camera(layout: layout)
        // Left to right; a label that would touch the previous one is skipped (estimated
        // width 0.6 em per character plus a 0.6 em gap).
        var lastRight = -Float.infinity
        for (hz, text) in state.frequencyLabels {
            let x = -1 + 2 * Float(state.axis.position(ofFrequency: hz))
            let c = mvp * SIMD4(x, 0, 1, 1)
            guard c.w > 0 else { continue }
            let p = layout.pixel(SIMD2(c.x / c.w, c.y / c.w))
            let half = 0.3 * f * Float(text.count)
            guard p.x - half >= lastRight + 0.6 * f else { continue }
            lastRight = p.x + half
            scene.addText(TextRun(text, at: SIMD2(p.x, p.y + f * 1.15), size: f, color: Labels.textColor, anchor: .center))
        }
        scene.addText(TextRun("waveform", at: layout.waveformLabelOrigin, size: f * 0.75, color: Labels.dimColor))
        if let title { Labels.title(title, layout: layout, into: &scene) }
    }
}
