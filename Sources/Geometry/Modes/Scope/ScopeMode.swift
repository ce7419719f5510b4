import Analysis
import SpecvizCore

/// Oscilloscope (`scope`; issue 17): the triggered waveform (`ScopeTrigger`) as a bright
/// line over a grid, with phosphor-like persistence: the traces of the last
/// `ScopeTraces.persistence` seconds stay, fading with age (alpha 0.5·(1 − age/0.15 s)²),
/// and the newest is drawn on top with a soft glow.
///
/// The scope takes the spectrum area and the waveform strip's place (it is a waveform):
/// x spans the trigger window (25 ms, 10 divisions of 2.5 ms) centred on the trigger,
/// y = sample value × the trigger's display gain, full scale at 90% of the half height,
/// clamped. 8 vertical divisions.
/// Lines are thin quads through the 2D pipeline (`Scene.segment`): 511 segments per trace.
///
/// For stereo (`--channels stereo`) a vector scope (goniometer) takes a square on the right
/// of `area`: the last pairs of samples as x = (L − R)/√2, y = (L + R)/√2, joined by a faint
/// line (mono sound is a vertical line, out-of-phase sound a horizontal one), with the L and
/// R axes at ±45°.
public struct ScopeMode: ModeBuilder {
    public static let divisionsX = 10
    public static let divisionsY = 8
    public static let traceColor = SIMD4<Float>(0.45, 1, 0.72, 1)
    public static let gridColor = SIMD4<Float>(0.3, 0.45, 0.4, 0.35)
    public static let axisColor = SIMD4<Float>(0.35, 0.55, 0.48, 0.6)
    /// Full scale (|sample| = 1) as a fraction of the half height.
    public static let fullScale: Float = 0.9

    public init() {}

    /// Where the scope is drawn (clip space): from the top of the spectrum area to the
    /// bottom of the waveform strip, or to the spectrum area's bottom when a logo keeps the
    /// strip's end.
    public static func area(_ layout: Layout) -> Layout.Rect {
        let bottom = layout.logoBox != nil && !layout.reserve.logoInHeader ? layout.spectrum.y0 : layout.waveform.y0
        return Layout.Rect(x0: layout.spectrum.x0, y0: bottom, x1: layout.spectrum.x1, y1: layout.spectrum.y1)
    }

    /// Clip-space y of sample value `v`.
    @inlinable
    public static func y(_ v: Float, in area: Layout.Rect) -> Float {
        area.center.y + min(max(v, -1), 1) * fullScale * area.height * 0.5
    }

    public func build(_ state: VisualState, layout: Layout, into scene: inout Scene) {
        var a = ScopeMode.area(layout)
        let px = max(0.6, layout.scale)
        scene.begin2D()
        if !state.vector.isEmpty {
            // The vector scope: a square at the right of the area (in pixels), the trace left of it.
            let w = Float(layout.width), h = Float(layout.height)
            let sidePx = min(a.height * 0.5 * h, a.width * 0.5 * w * 0.42)
            let v = Layout.Rect(
                x0: a.x1 - sidePx * 2 / w, y0: a.y0 + (a.height - sidePx * 2 / h) / 2, x1: a.x1,
                y1: a.y0 + (a.height + sidePx * 2 / h) / 2)
            a.x1 = v.x0 - 0.04 * a.width
            ScopeMode.vectorScope(state.vector, in: v, px: px, into: &scene)
        }
        // Grid: divisions, with the centre lines brighter.
        for i in 0...ScopeMode.divisionsX {
            let x = a.x0 + a.width * Float(i) / Float(ScopeMode.divisionsX)
            let c = i == ScopeMode.divisionsX / 2 ? ScopeMode.axisColor : ScopeMode.gridColor
            ScopeMode.hairline(SIMD2(x, a.y0), SIMD2(x, a.y1), px: px, color: c, into: &scene)
        }
        for j in 0...ScopeMode.divisionsY {
            let y = a.y0 + a.height * Float(j) / Float(ScopeMode.divisionsY)
            let c = j == ScopeMode.divisionsY / 2 ? ScopeMode.axisColor : ScopeMode.gridColor
            ScopeMode.hairline(SIMD2(a.x0, y), SIMD2(a.x1, y), px: px, color: c, into: &scene)
        }
        // Older traces first, the newest last (on top).
        let traces = state.scope
        let newest = traces.count - 1
        for k in 0..<traces.count {
            let age = state.time - traces.time(k)
            let isNewest = k == newest
            guard isNewest || age <= ScopeTraces.persistence else { continue }
            var color = ScopeMode.traceColor
            if isNewest {
                var glow = color
                glow.w = 0.22
                line(traces, k, area: a, halfWidth: 2.5 * px, color: glow, into: &scene)
            } else {
                let fade = Float(max(0, 1 - age / ScopeTraces.persistence))
                color.w = 0.5 * fade * fade
            }
            line(traces, k, area: a, halfWidth: (isNewest ? 1.0 : 0.8) * px, color: color, into: &scene)
        }
        scene.end2D()
        guard layout.labels else { return }
        let f = layout.fontSize
        let corner = layout.pixel(SIMD2(a.x0, a.y1))
        let ms = ScopeTrigger.windowSeconds * 1000 / Double(ScopeMode.divisionsX)
        scene.addText(
            TextRun(
                "\(ms) ms/div", at: SIMD2(corner.x + f * 0.3, corner.y + f * 1.0), size: f * 0.75,
                color: Labels.dimColor))
    }

    /// A grid line `px` pixels wide, drawn at least one pixel wide with its alpha scaled by
    /// the width it stands for: a line thinner than a pixel covers no pixel centre wherever it
    /// falls between two, and a grid of them loses lines at random on small frames.
    static func hairline(_ p: SIMD2<Float>, _ q: SIMD2<Float>, px: Float, color: SIMD4<Float>, into scene: inout Scene) {
        var c = color
        c.w *= min(1, px)
        scene.segment(p, q, halfWidthPixels: max(0.5, 0.5 * px), color: c)
    }

    /// The goniometer in square `v` (clip space).
    static func vectorScope(_ points: [SIMD2<Float>], in v: Layout.Rect, px: Float, into scene: inout Scene) {
        let c = v.center, rx = v.width * 0.5 * fullScale, ry = v.height * 0.5 * fullScale
        func at(_ p: SIMD2<Float>) -> SIMD2<Float> { SIMD2(c.x + min(max(p.x, -1), 1) * rx, c.y + min(max(p.y, -1), 1) * ry) }
        // Frame, the mid/side axes and the L and R diagonals.
        hairline(SIMD2(v.x0, c.y), SIMD2(v.x1, c.y), px: px, color: gridColor, into: &scene)
        hairline(SIMD2(c.x, v.y0), SIMD2(c.x, v.y1), px: px, color: axisColor, into: &scene)
        hairline(at(SIMD2(-1, -1)), at(SIMD2(1, 1)), px: px, color: gridColor, into: &scene)
        hairline(at(SIMD2(-1, 1)), at(SIMD2(1, -1)), px: px, color: gridColor, into: &scene)
        for (p, q) in [
            (SIMD2(v.x0, v.y0), SIMD2(v.x1, v.y0)), (SIMD2(v.x1, v.y0), SIMD2(v.x1, v.y1)),
            (SIMD2(v.x1, v.y1), SIMD2(v.x0, v.y1)), (SIMD2(v.x0, v.y1), SIMD2(v.x0, v.y0)),
        ] {
            hairline(p, q, px: px, color: gridColor, into: &scene)
        }
        var color = traceColor
        color.w = 0.45
        var last = at(points[0])
        for p in points.dropFirst() {
            let q = at(p)
            scene.segment(last, q, halfWidthPixels: 0.7 * px, color: color)
            last = q
        }
    }

    private func line(
        _ traces: ScopeTraces, _ k: Int, area a: Layout.Rect, halfWidth: Float, color: SIMD4<Float>,
        into scene: inout Scene
    ) {
        traces.withTrace(k) { t in
            let n = t.count
            let dx = a.width / Float(n - 1)
            var p = SIMD2(a.x0, ScopeMode.y(t[0], in: a))
            for i in 1..<n {
                let q = SIMD2(a.x0 + Float(i) * dx, ScopeMode.y(t[i], in: a))
                scene.segment(p, q, halfWidthPixels: halfWidth, color: color)
                p = q
            }
        }
    }
}

/// The scope's persistence: the last `capacity` traces and their media times, oldest
/// first. Storage is allocated on the first push and reused.
public struct ScopeTraces: Sendable {
    public static let capacity = 16
    /// Seconds an old trace stays visible (fading).
    public static let persistence = 0.15
    @usableFromInline var storage: [Float] = []
    @usableFromInline var times = [Double](repeating: 0, count: ScopeTraces.capacity)
    @usableFromInline var next = 0
    public private(set) var count = 0

    public init() {}

    /// Appends a trace (`ScopeTrigger.traceLength` values) × `gain`, taken at media time `time`.
    public mutating func push(_ trace: [Float], gain: Float = 1, time: Double) {
        let n = ScopeTrigger.traceLength
        if storage.isEmpty { storage = [Float](repeating: 0, count: ScopeTraces.capacity * n) }
        storage.withUnsafeMutableBufferPointer { s in
            trace.withUnsafeBufferPointer { t in
                for i in 0..<min(n, t.count) { s[next * n + i] = t[i] * gain }
            }
        }
        times[next] = time
        next = (next + 1) % ScopeTraces.capacity
        count = min(count + 1, ScopeTraces.capacity)
    }

    @usableFromInline func slot(_ k: Int) -> Int {
        (next - count + k + ScopeTraces.capacity) % ScopeTraces.capacity
    }

    /// Media time of trace `k` (0 = oldest kept).
    public func time(_ k: Int) -> Double { times[slot(k)] }

    /// Calls `body` with trace `k` (0 = oldest kept).
    public func withTrace<R>(_ k: Int, _ body: (UnsafeBufferPointer<Float>) -> R) -> R {
        let n = ScopeTrigger.traceLength
        return storage.withUnsafeBufferPointer { body(UnsafeBufferPointer(rebasing: $0[(slot(k) * n)..<(slot(k) * n + n)])) }
    }
}
