import Analysis
import SpecvizCore

/// The 3D waterfall, modes surface and surface+ (seed 000 Part 6 "Surface Mesh Generation"
/// and "Ridgeline Outlines"; SPEC §4).
///
/// The 60-row surface history (row 0 oldest) becomes a grid in world space: band c at
/// x = −1 + 2c/127 (log frequency 20 Hz…20 kHz), row r at z = −1 + 2r/59 (oldest at the
/// back, newest at the front, z = +1), amplitude v at y = v·yScale (0.6 compact … 1.2 full,
/// from the orbit camera). Each of the 59 × 127 cells is two triangles
/// (r,c)→(r+1,c)→(r+1,c+1) and (r,c)→(r+1,c+1)→(r,c+1) with flat face normals
/// normalize((B−A)×(C−A)): 44,958 vertices. Colours follow curve mode: the frequency
/// gradient, dim at the floor (like the curve's fill) and full at the peaks, fading
/// slightly with age so the distance reads as depth.
///
/// surface+ adds, along every row's top edge, ridgeline quads 0.008 world units tall whose
/// bottom sits 0.002 above the mesh, colour ×1.3, normal (0, 1, 0): 60 × 127 × 6 = 45,720
/// more vertices.
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

    /// Vertices one frame emits: 44,958 for surface, 90,678 for surface+.
    public static func vertexCount(rows: Int, ridgelines: Bool, bands: Int = LogBands.count) -> Int {
        return (rows - 1) * (bands - 1) * 6 + (ridgelines ? rows * (bands - 1) * 6 : 0)
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
        let history = state.surface
        let rows = history.rows, bands = history.bands
        let ys = cam.yScale
        let dx = 2 / Float(bands - 1), dz = 2 / Float(rows - 1)
        scene.vertices3D.reserveCapacity(scene.vertices3D.count + SurfaceMode.vertexCount(rows: rows, ridgelines: ridgelines, bands: bands))

        @inline(__always) func point(_ r: Int, _ c: Int) -> SIMD3<Float> {
            SIMD3(-1 + Float(c) * dx, min(max(history.value(row: r, band: c), 0), 1) * ys, -1 + Float(r) * dz)
        }
        @inline(__always) func color(_ r: Int, _ c: Int, _ y: Float) -> SIMD4<Float> {
            let g = palette.color(Float(c) / Float(bands - 1))
            let age = SurfaceMode.oldestFade + (1 - SurfaceMode.oldestFade) * Float(r) / Float(rows - 1)
            let k = (SurfaceMode.floorBrightness + (1 - SurfaceMode.floorBrightness) * y / ys) * age
            return SIMD4(g.x * k, g.y * k, g.z * k, 1)
        }
        @inline(__always) func triangle(
            _ a: SIMD3<Float>, _ b: SIMD3<Float>, _ c: SIMD3<Float>,
            _ ca: SIMD4<Float>, _ cb: SIMD4<Float>, _ cc: SIMD4<Float>
        ) {
            let n = normalize(cross(b - a, c - a))
            scene.vertices3D.append(Vertex3D(a, n, ca))
            scene.vertices3D.append(Vertex3D(b, n, cb))
            scene.vertices3D.append(Vertex3D(c, n, cc))
        }

        // Rows are emitted front (newest) to back: the depth test LESS gives the same picture
        // in any order, and nearer triangles first let it reject hidden fragments before shading.
        scene.begin3D(mvp: mvp)
        for r in stride(from: rows - 2, through: 0, by: -1) {
            var a = point(r, 0), b = point(r + 1, 0)
            var ca = color(r, 0, a.y), cb = color(r + 1, 0, b.y)
            for c in 0..<(bands - 1) {
                let cc = point(r + 1, c + 1), d = point(r, c + 1)
                let ccol = color(r + 1, c + 1, cc.y), dcol = color(r, c + 1, d.y)
                triangle(a, b, cc, ca, cb, ccol)
                triangle(a, cc, d, ca, ccol, dcol)
                a = d; b = cc; ca = dcol; cb = ccol
            }
        }
        scene.end3D()

        guard ridgelines else { return }
        let up = SIMD3<Float>(0, 1, 0)
        let lift = SIMD3<Float>(0, SurfaceMode.ridgeLift, 0)
        let top = SIMD3<Float>(0, SurfaceMode.ridgeLift + SurfaceMode.ridgeThickness, 0)
        let boost = SIMD4<Float>(SurfaceMode.ridgeBoost, SurfaceMode.ridgeBoost, SurfaceMode.ridgeBoost, 1)
        scene.begin3D(mvp: mvp)
        for r in stride(from: rows - 1, through: 0, by: -1) {
            var p = point(r, 0)
            var cp = color(r, 0, p.y) * boost
            for c in 0..<(bands - 1) {
                let q = point(r, c + 1)
                let cq = color(r, c + 1, q.y) * boost
                // Quad p+lift, q+lift, q+top, p+top as two triangles, all facing up for the light.
                scene.vertices3D.append(Vertex3D(p + lift, up, cp))
                scene.vertices3D.append(Vertex3D(q + lift, up, cq))
                scene.vertices3D.append(Vertex3D(q + top, up, cq))
                scene.vertices3D.append(Vertex3D(p + lift, up, cp))
                scene.vertices3D.append(Vertex3D(q + top, up, cq))
                scene.vertices3D.append(Vertex3D(p + top, up, cp))
                p = q; cp = cq
            }
        }
        scene.end3D()
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
