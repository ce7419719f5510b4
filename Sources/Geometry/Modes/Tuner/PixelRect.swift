import SpecvizCore

/// A rectangle in pixels (y down) for the sub-meter panel.
struct PixelRect {
    var x0: Float, y0: Float, x1: Float, y1: Float
    var width: Float { x1 - x0 }
    var height: Float { y1 - y0 }
    var midX: Float { (x0 + x1) / 2 }
    var midY: Float { (y0 + y1) / 2 }
}

extension PixelRect {
    func inset(_ d: Float) -> PixelRect { PixelRect(x0: x0 + d, y0: y0 + d, x1: x1 - d, y1: y1 - d) }
}
