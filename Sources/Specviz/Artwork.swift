import Geometry
import Raster
import SpecvizCore

/// The pictures a render adds to every frame (issue 17): the cover, placed by
/// `ArtworkLayout` (a corner in landscape, the top in portrait), a logo in the bottom-right
/// corner, and a background picture or colour behind the visualisation.
public struct Artwork: Sendable {
    public var cover: PixelBuffer?
    public var logo: PixelBuffer?
    /// Scaled to fill the frame, then blurred by `backgroundBlur` (fraction of the short
    /// side) and dimmed by `backgroundDim` (0 keeps it, 1 is black).
    public var background: PixelBuffer?
    public var backgroundBlur: Double = 0
    public var backgroundDim: Float = 0.6
    /// The clear colour when there is no background picture (straight RGBA 0…1).
    public var backgroundColor = SIMD4<Float>(0, 0, 0, 1)

    public init() {}

    /// True when a cover, logo or background picture is set.
    public var hasPictures: Bool { cover != nil || logo != nil || background != nil }
}

/// The artwork at one frame size, scaled once: what the composer draws every frame.
struct ArtworkLayer {
    let layout: ArtworkLayout
    let cover: PixelBuffer?
    let coverOrigin: (x: Int, y: Int)
    let logo: PixelBuffer?
    let logoOrigin: (x: Int, y: Int)
    let background: PixelBuffer?

    init(_ art: Artwork, layout frame: Layout) {
        layout = ArtworkLayout(layout: frame, hasCover: art.cover != nil)
        if let c = art.cover, let r = layout.cover {
            cover = c.scaledToFill(width: Int(r.width), height: Int(r.height))
            coverOrigin = (Int(r.x0), Int(r.y0))
        } else {
            cover = nil
            coverOrigin = (0, 0)
        }
        if let l = art.logo {
            let box = layout.logo
            let fitted = l.scaledToFit(width: Int(box.width), height: Int(box.height))
            logo = fitted
            logoOrigin = (Int(box.x1) - fitted.width, Int(box.y1) - fitted.height)
        } else {
            logo = nil
            logoOrigin = (0, 0)
        }
        background = art.background.map { b in
            let filled = b.scaledToFill(width: frame.width, height: frame.height)
            let radius = Int((art.backgroundBlur * Double(min(frame.width, frame.height))).rounded())
            return (radius > 0 ? filled.blurred(radius: radius) : filled).dimmed(art.backgroundDim)
        }
    }

    /// Draws the cover and the logo over a rendered frame.
    func drawOver(_ picture: inout PixelBuffer) {
        if let cover { picture.draw(cover, x: coverOrigin.x, y: coverOrigin.y) }
        if let logo { picture.draw(logo, x: logoOrigin.x, y: logoOrigin.y, opacity: 0.9) }
    }
}
