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

/// The artwork at one frame size, scaled once (the cover and logo when first drawn): what
/// the composer draws every frame.
struct ArtworkLayer {
    let layout: ArtworkLayout
    let art: Artwork
    private(set) var cover: PixelBuffer?
    private(set) var coverOrigin = (x: 0, y: 0)
    private(set) var logo: PixelBuffer?
    private(set) var logoOrigin = (x: 0, y: 0)
    private var scaled = false
    let background: PixelBuffer?

    init(_ art: Artwork, layout: ArtworkLayout, width: Int, height: Int) {
        self.layout = layout
        self.art = art
        background = art.background.map { b in
            let filled = b.scaledToFill(width: width, height: height)
            let radius = Int((art.backgroundBlur * Double(min(width, height))).rounded())
            return (radius > 0 ? filled.blurred(radius: radius) : filled).dimmed(art.backgroundDim)
        }
    }

    /// Scales the cover and the logo to their boxes (once).
    mutating func scale() {
        guard !scaled else { return }
        scaled = true
        if let c = art.cover, let r = layout.cover {
            cover = c.scaledToFill(width: Int(r.width), height: Int(r.height))
            coverOrigin = (Int(r.x0), Int(r.y0))
        }
        if let l = art.logo, let box = layout.logo {
            let fitted = l.scaledToFit(width: Int(box.width), height: Int(box.height))
            logo = fitted
            logoOrigin = (Int(box.x1) - fitted.width, Int(box.y1) - fitted.height)
        }
    }

    /// Draws the cover and the logo over a rendered frame.
    mutating func drawOver(_ picture: inout PixelBuffer) {
        scale()
        if let cover { picture.draw(cover, x: coverOrigin.x, y: coverOrigin.y) }
        if let logo { picture.draw(logo, x: logoOrigin.x, y: logoOrigin.y, opacity: 0.9) }
    }
}

extension FrameComposer {
    /// The frame's layout, a stereo frame's halves, and where the artwork goes: the layouts
    /// keep room for the cover, the lines and the logo (`Layout.Reserve`), so that they
    /// never lie on the picture. In a stereo frame the top half's header holds the cover and
    /// the lines, and the bottom half keeps the logo's box at the frame's bottom edge (its
    /// strip's end when split, its header's end when mirrored).
    static func layouts(
        _ settings: RenderSettings, labels: Bool, artwork: Bool, stereo: StereoLayout?
    ) -> (layout: Layout, halves: (top: Layout, bottom: Layout)?, artwork: ArtworkLayout?) {
        let w = settings.width, h = settings.height
        let art = settings.artwork
        let logoAspect = art.logo.map { Float($0.width) / Float(max($0.height, 1)) }
        let hasLines = settings.title?.isEmpty == false || settings.artist?.isEmpty == false
        let hasCover = art.cover != nil
        guard let stereo else {
            guard artwork else { return (Layout(width: w, height: h, labels: labels), nil, nil) }
            let (layout, placed) = ArtworkLayout.frame(
                width: w, height: h, labels: labels, hasCover: hasCover, hasLines: hasLines, logoAspect: logoAspect)
            return (layout, nil, placed)
        }
        let layout = Layout(width: w, height: h, labels: labels)
        let half = h / 2
        guard artwork else {
            return (layout, (Layout(width: w, height: half, labels: labels), Layout(width: w, height: h - half, labels: labels)), nil)
        }
        var (top, placed) = ArtworkLayout.frame(
            width: w, height: half, labels: labels, hasCover: hasCover, hasLines: hasLines, logoAspect: nil)
        let mirror = stereo == .mirror
        let bottom = Layout(
            width: w, height: h - half, labels: labels, reserve: Layout.Reserve(logoAspect: logoAspect, logoInHeader: mirror))
        placed.logo = bottom.logoBox.map { b in
            mirror
                ? Layout.Rect(x0: b.x0, y0: Float(h) - b.y1, x1: b.x1, y1: Float(h) - b.y0)
                : Layout.Rect(x0: b.x0, y0: b.y0 + Float(half), x1: b.x1, y1: b.y1 + Float(half))
        }
        return (layout, (top, bottom), placed)
    }

    /// What the header of a one-plot frame holds (`Layout.headerItems`): the overlay slots
    /// the mode shows, and the cover and lines, or the title in its slot.
    static func headerItems(_ settings: RenderSettings, layout: Layout, artwork: ArtworkLayout?) -> [Layout.Rect] {
        var items: [Layout.Rect] = []
        if settings.mode.traits.overlays {
            if settings.tunerOverlay { items.append(layout.tunerSlot) }
            if settings.tempoOverlay { items.append(layout.tempoSlot) }
        }
        if let artwork {
            items += artwork.headerBoxes(title: settings.title, artist: settings.artist)
        } else if let title = Labels.titleBox(settings.title, layout: layout) {
            items.append(title)
        }
        return items
    }
}
