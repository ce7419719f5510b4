import Analysis
import SpecvizCore

/// Bars (seed 000 Part 2): one quad per band, the bottom at 35% brightness and the top at
/// full colour of the frequency gradient, and a thin white quad at the band's peak.
/// 128 × 12 vertices.
public struct BarsMode: ModeBuilder {
    public static let baseBrightness: Float = 0.35
    /// Fraction of each band's slot the bar fills (the rest is the gap).
    public static let fill: Float = 0.78
    public var palette: Palette

    public init(palette: Palette = .spectrum) { self.palette = palette }

    public func build(_ state: VisualState, layout: Layout, into scene: inout Scene) {
        let r = layout.spectrum
        let n = state.display.count
        let slot = r.width / Float(n)
        let half = slot * BarsMode.fill * 0.5
        let peakHeight = max(2, 3 * layout.scale) * layout.clipPerPixel.y
        scene.begin2D()
        for i in 0..<n {
            let t = (Float(i) + 0.5) / Float(n)
            let top = palette.color(t)
            let bottom = SIMD4(
                top.x * BarsMode.baseBrightness, top.y * BarsMode.baseBrightness,
                top.z * BarsMode.baseBrightness, top.w)
            let xc = r.x0 + (Float(i) + 0.5) * slot
            let v = state.display[i]
            if v > 0 {
                let yTop = r.y0 + v * r.height
                // The bottom colour is scaled to the bar's height so short bars stay dim.
                scene.quad(
                    x0: xc - half, y0: r.y0, x1: xc + half, y1: yTop,
                    bottom: bottom, top: bottom + (top - bottom) * min(1, v * 1.0 + 0.0))
            }
            let p = state.peaks[i]
            if p > 0.002 {
                let y = r.y0 + p * r.height
                let white = SIMD4<Float>(1, 1, 1, 0.9)
                scene.quad(x0: xc - half, y0: y, x1: xc + half, y1: min(y + peakHeight, r.y1), bottom: white, top: white)
            }
        }
        scene.end2D()
    }
}
