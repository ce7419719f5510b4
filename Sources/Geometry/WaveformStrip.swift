import Analysis
import SpecvizCore

/// The waveform strip beneath every mode (seed 000 Part 2): a dim white centre line and
/// 511 thin quads along the 512-sample waveform, cyan (0.3, 0.85, 1.0, 0.8).
public struct WaveformStrip {
    public static let color = SIMD4<Float>(0.3, 0.85, 1.0, 0.8)
    public static let centerLine = SIMD4<Float>(1, 1, 1, 0.18)

    public init() {}

    public func build(_ state: VisualState, layout: Layout, into scene: inout Scene) {
        let r = layout.waveform
        let mid = (r.y0 + r.y1) / 2
        let amp = r.height / 2
        let px = layout.clipPerPixel
        let lineHalf = max(0.5, 0.75 * layout.scale)
        scene.begin2D()
        scene.quad(
            x0: r.x0, y0: mid - lineHalf * px.y, x1: r.x1, y1: mid + lineHalf * px.y,
            bottom: WaveformStrip.centerLine, top: WaveformStrip.centerLine)
        let n = state.waveform.count
        let dx = r.width / Float(n - 1)
        let halfWidth = max(0.75, 1.5 * layout.scale)
        var prev = SIMD2<Float>(r.x0, mid + min(max(state.waveform[0], -1), 1) * amp)
        for i in 1..<n {
            let p = SIMD2<Float>(r.x0 + Float(i) * dx, mid + min(max(state.waveform[i], -1), 1) * amp)
            scene.segment(prev, p, halfWidthPixels: halfWidth, color: WaveformStrip.color)
            prev = p
        }
        scene.end2D()
    }
}
