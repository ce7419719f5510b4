import SpecvizCore

/// Where the cover picture, the title and artist lines and the logo go (issue 17): the
/// cover in the top-right corner in landscape with the two lines right-aligned beside it,
/// at the top centre in portrait and square frames with the lines centred under it; the
/// logo in the bottom-right corner. Pixel boxes, y down. Pure: the pictures themselves are
/// scaled and drawn by the renderer.
public struct ArtworkLayout: Sendable, Equatable {
    /// The cover's square box, when there is a cover.
    public var cover: Layout.Rect?
    /// The box the logo is fitted into (keeping its shape, right- and bottom-aligned).
    public var logo: Layout.Rect
    /// Title and artist lines: baseline origin, size, anchor.
    public var titleOrigin: SIMD2<Float>
    public var titleSize: Float
    public var artistOrigin: SIMD2<Float>
    public var artistSize: Float
    public var anchor: TextRun.Anchor
    /// Widest a line may be (pixels) before it is shortened with "…".
    public var lineWidth: Float
    /// Pixels the spectrum area should start lower so that the cover and its lines do not
    /// cover it (portrait and square frames with a cover; 0 otherwise).
    public var topInset: Float = 0

    public init(layout: Layout, hasCover: Bool) {
        let w = Float(layout.width), h = Float(layout.height), f = layout.fontSize
        let short = min(w, h)
        let margin = (0.035 * short).rounded()
        let slot = layout.titleSlot
        logo = Layout.Rect(x0: w - margin - 0.3 * w, y0: h - margin - 0.1 * short, x1: w - margin, y1: h - margin)
        if !layout.portrait && w > h * 1.2 {
            // Landscape: the cover in the corner, the lines to its left in the header.
            let side = (0.17 * h).rounded()
            cover = hasCover ? Layout.Rect(x0: w - margin - side, y0: margin, x1: w - margin, y1: margin + side) : nil
            let right = cover.map { $0.x0 - f * 0.7 } ?? slot.x1
            titleSize = min(f * 1.2, slot.height * 0.9)
            artistSize = titleSize * 0.8
            let baseline = hasCover ? margin + titleSize * 0.9 : slot.y1 - (slot.height - titleSize * 0.72) * 0.5
            titleOrigin = SIMD2(right, baseline)
            artistOrigin = SIMD2(right, baseline + titleSize * 1.3)
            anchor = .right
            lineWidth = max(0, right - slot.x0)
        } else {
            // Portrait and square: the cover at the top centre under the header, the lines
            // centred below it.
            let side = (0.3 * w).rounded()
            let top = slot.y1 + f * 0.8
            cover = hasCover ? Layout.Rect(x0: ((w - side) / 2).rounded(), y0: top, x1: ((w + side) / 2).rounded(), y1: top + side) : nil
            titleSize = f * 1.3
            artistSize = titleSize * 0.8
            let baseline = (cover?.y1 ?? top) + titleSize * 1.4
            titleOrigin = SIMD2(w / 2, baseline)
            artistOrigin = SIMD2(w / 2, baseline + titleSize * 1.3)
            anchor = .center
            lineWidth = w - 2 * margin
            if hasCover {
                let spectrumTop = (1 - layout.spectrum.y1) * 0.5 * h
                topInset = max(0, artistOrigin.y + artistSize * 0.8 - spectrumTop)
            }
        }
    }

    /// The title and artist lines as text runs (either may be missing), each shortened with
    /// "…" to fit; a line cut to a stub is left out.
    public func addLines(title: String?, artist: String?, into scene: inout Scene) {
        func fit(_ s: String, size: Float) -> String? { Layout.fitted(s, size: size, width: lineWidth) }
        if let title, !title.isEmpty, let t = fit(title, size: titleSize) {
            scene.addText(TextRun(t, at: titleOrigin, size: titleSize, color: Labels.titleColor, anchor: anchor))
        }
        if let artist, !artist.isEmpty, let a = fit(artist, size: artistSize) {
            let origin = title?.isEmpty == false ? artistOrigin : titleOrigin
            scene.addText(TextRun(a, at: origin, size: artistSize, color: Labels.textColor, anchor: anchor))
        }
    }
}
