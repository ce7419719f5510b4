/// Where things go in a frame of any size: the spectrum area, the waveform strip beneath
/// it, and the label margins, all scaled with the frame so landscape, portrait and square
/// outputs are each laid out for their shape.
///
/// Rectangles are in clip space (x, y in −1…1, y up); sizes in pixels are given separately.
public struct Layout: Sendable {
    public struct Rect: Sendable, Equatable {
        public var x0: Float, y0: Float, x1: Float, y1: Float
        public init(x0: Float, y0: Float, x1: Float, y1: Float) { self.x0 = x0; self.y0 = y0; self.x1 = x1; self.y1 = y1 }
        public var width: Float { x1 - x0 }
        public var height: Float { y1 - y0 }
        public var center: SIMD2<Float> { SIMD2((x0 + x1) / 2, (y0 + y1) / 2) }
    }

    public let width: Int
    public let height: Int
    public let labels: Bool
    /// Pixel scale relative to a 1080-pixel short side.
    public let scale: Float
    /// Label text size (pixels).
    public let fontSize: Float
    public let spectrum: Rect
    public let waveform: Rect
    /// True when height > width (vertical video).
    public let portrait: Bool

    public init(width: Int, height: Int, labels: Bool = true) {
        self.width = width
        self.height = height
        self.labels = labels
        let w = Float(width), h = Float(height)
        portrait = h > w
        scale = min(w, h) / 1080
        fontSize = max(10, (portrait ? 30 : 26) * scale)
        // Margins in pixels.
        let left = labels ? fontSize * 3.2 : 0.02 * w
        let right = labels ? fontSize * 1.2 : 0.02 * w
        let top = labels ? fontSize * 2.6 : 0.03 * h
        let freqLabelBand = labels ? fontSize * 1.8 : 0.01 * h
        let stripFraction: Float = portrait ? 0.14 : 0.20
        let strip = stripFraction * h
        let bottom = (labels ? fontSize * 1.6 : 0.02 * h)
        // Convert pixel edges to clip space.
        func cx(_ px: Float) -> Float { px / w * 2 - 1 }
        func cy(_ py: Float) -> Float { 1 - py / h * 2 }
        let specTop = top, specBottom = h - bottom - strip - freqLabelBand
        spectrum = Rect(x0: cx(left), y0: cy(specBottom), x1: cx(w - right), y1: cy(specTop))
        waveform = Rect(x0: cx(left), y0: cy(h - bottom), x1: cx(w - right), y1: cy(h - bottom - strip * 0.85))
    }

    /// Clip-space point → pixel position (y down).
    public func pixel(_ p: SIMD2<Float>) -> SIMD2<Float> {
        SIMD2((p.x + 1) * 0.5 * Float(width), (1 - p.y) * 0.5 * Float(height))
    }

    /// Clip units per pixel along x and y.
    public var clipPerPixel: SIMD2<Float> { SIMD2(2 / Float(width), 2 / Float(height)) }
}
