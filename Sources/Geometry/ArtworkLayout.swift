import SpecvizCore

/// Where the cover picture, the title and artist lines and the logo go (issues 17, 39), each
/// in a box of its own that the picture does not use: the `Layout` is made with a `Reserve`
/// for them (`ArtworkLayout.frame`). Landscape and square frames: the cover in the top-right
/// corner inside a header grown to hold it, the lines right-aligned beside it. Portrait
/// frames: the cover at the top centre under the overlays, the lines centred under it, the
/// header grown down to them. The cover's side follows the frame's shape and is shrunk so
/// the plot keeps at least 30 % of the height. The logo sits at the waveform strip's right
/// end, which is shortened for it. Pixel boxes, y down. Pure: the pictures themselves are
/// scaled and drawn by the renderer.
public struct ArtworkLayout: Sendable, Equatable {
    /// The cover's square box, when there is a cover.
    public var cover: Layout.Rect?
    /// The box the logo is fitted into (keeping its shape), when there is a logo.
    public var logo: Layout.Rect?
    /// Title and artist lines: baseline origin, size, anchor.
    public var titleOrigin: SIMD2<Float>
    public var titleSize: Float
    public var artistOrigin: SIMD2<Float>
    public var artistSize: Float
    public var anchor: TextRun.Anchor
    /// Widest a line may be (pixels) before it is shortened with "…".
    public var lineWidth: Float
    /// The header height the cover and lines need (pixels from the frame's top).
    public var headerNeeded: Float

    /// The frame's layout with room kept for the artwork, and where the artwork goes.
    /// - logoAspect: the logo's width over its height (nil: no logo).
    public static func frame(
        width: Int, height: Int, labels: Bool, hasCover: Bool, hasLines: Bool, logoAspect: Float?
    ) -> (Layout, ArtworkLayout) {
        let base = Layout(width: width, height: height, labels: labels, reserve: Layout.Reserve(logoAspect: logoAspect))
        let probe = ArtworkLayout(layout: base, hasCover: hasCover, hasLines: hasLines)
        let layout = Layout(
            width: width, height: height, labels: labels,
            reserve: Layout.Reserve(header: probe.headerNeeded, logoAspect: logoAspect))
        return (layout, ArtworkLayout(layout: layout, hasCover: hasCover, hasLines: hasLines))
    }

    /// The artwork's boxes in `layout` (made with the reserve `frame` computes; the logo's
    /// box is the layout's).
    public init(layout: Layout, hasCover: Bool, hasLines: Bool = true) {
        let w = Float(layout.width), h = Float(layout.height), f = layout.fontSize
        let short = min(w, h)
        let margin = (0.035 * short).rounded()
        let slot = layout.titleSlot
        logo = layout.logoBox
        // The plot's bottom (pixels): the header may grow down to 30 % of the height above it.
        let plotBottom = (1 - layout.spectrum.y0) * 0.5 * h
        let headerLimit = max(0, plotBottom - 0.3 * h)
        if !layout.portrait {
            // Landscape and square: the cover in the corner, the lines to its left.
            titleSize = min(f * 1.2, max(slot.height * 0.9, f))
            artistSize = titleSize * 0.8
            let linesBottom = margin + titleSize * 2.2 + artistSize * 0.3
            var side = (min(0.16 * h, 0.2 * w)).rounded()
            side = min(side, (headerLimit - margin * 1.5).rounded(.down))
            cover =
                hasCover && side >= 8 ? Layout.Rect(x0: w - margin - side, y0: margin, x1: w - margin, y1: margin + side) : nil
            let right = cover.map { $0.x0 - f * 0.7 } ?? slot.x1
            let baseline = cover != nil || hasLines ? margin + titleSize * 0.9 : slot.y1 - (slot.height - titleSize * 0.72) * 0.5
            titleOrigin = SIMD2(right, baseline)
            artistOrigin = SIMD2(right, baseline + titleSize * 1.3)
            anchor = .right
            lineWidth = max(0, right - slot.x0)
            headerNeeded = max(cover.map { $0.y1 + margin * 0.5 } ?? 0, hasLines && layout.labels ? linesBottom + f * 0.3 : 0)
        } else {
            // Portrait: the cover at the top centre under the overlays, the lines under it.
            titleSize = f * 1.3
            artistSize = titleSize * 0.8
            let top = slot.y1 + f * 0.8
            let lines = hasLines && layout.labels ? titleSize * 2.7 + artistSize * 0.3 : 0
            var side = (min(0.3 * w, 0.17 * h)).rounded()
            side = min(side, (headerLimit - top - lines - f * 0.6).rounded(.down))
            cover =
                hasCover && side >= 8
                ? Layout.Rect(x0: ((w - side) / 2).rounded(), y0: top, x1: ((w + side) / 2).rounded(), y1: top + side) : nil
            let baseline = (cover?.y1 ?? top) + titleSize * 1.4
            titleOrigin = SIMD2(w / 2, baseline)
            artistOrigin = SIMD2(w / 2, baseline + titleSize * 1.3)
            anchor = .center
            lineWidth = w - 2 * margin
            let bottom = lines > 0 ? artistOrigin.y + artistSize * 0.3 : (cover?.y1 ?? 0)
            headerNeeded = cover != nil || lines > 0 ? bottom + f * 0.6 : 0
        }
    }

    /// The boxes (pixels, y down) the cover and the lines take in the header, the lines'
    /// widths estimated with room to spare (the logo's box is the layout's).
    public func headerBoxes(title: String?, artist: String?) -> [Layout.Rect] {
        (cover.map { [$0] } ?? [])
            + lines(title: title, artist: artist).map {
                Layout.estimatedBox($0.text, size: $0.size, origin: $0.origin, anchor: anchor, maxWidth: lineWidth)
            }
    }

    /// The title and artist lines as text runs (either may be missing), each shortened with
    /// "…" to fit; a line cut to a stub is left out.
    public func addLines(title: String?, artist: String?, into scene: inout Scene) {
        for run in lines(title: title, artist: artist) { scene.addText(run) }
    }

    /// The lines' runs: the title, then the artist under it (in its place without one).
    private func lines(title: String?, artist: String?) -> [TextRun] {
        var runs: [TextRun] = []
        func fit(_ s: String, size: Float) -> String? { Layout.fitted(s, size: size, width: lineWidth) }
        if let title, !title.isEmpty, let t = fit(title, size: titleSize) {
            runs.append(TextRun(t, at: titleOrigin, size: titleSize, color: Labels.titleColor, anchor: anchor))
        }
        if let artist, !artist.isEmpty, let a = fit(artist, size: artistSize) {
            let origin = title?.isEmpty == false ? artistOrigin : titleOrigin
            runs.append(TextRun(a, at: origin, size: artistSize, color: Labels.textColor, anchor: anchor))
        }
        return runs
    }
}
