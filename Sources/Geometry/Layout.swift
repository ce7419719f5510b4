import SpecvizCore

/// Where things go in a frame of any size: the header (overlays and title), the spectrum
/// area, the frequency-label band, the waveform strip beneath, and the label margins,
/// all scaled with the frame so landscape, portrait and square outputs are each laid out
/// for their shape (SPEC §4, "Layout adapts to any output size").
///
/// Top to bottom, in pixels (f = `fontSize`):
///
///     header        tuner slot · BPM slot (left)           title (right)
///     spectrum      dB labels in the left margin
///     freq labels   20 50 100 … 20k under their log positions
///     waveform      label and stats readout above, strip, small bottom margin
///
/// Portrait frames get a taller header (bigger overlays, read on a phone) and a thinner
/// waveform strip; the spectrum takes the rest. A `Reserve` makes room for the artwork
/// (issue 39): a taller header for a cover and its lines, and a box at the strip's right
/// end (or the header's) for a logo, so that nothing is drawn over the plot. Rectangles for geometry are in clip space
/// (x, y in −1…1, y up); the text slots are in pixels (y down).
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
    /// Label text size (pixels, em height).
    public let fontSize: Float
    /// Overlay text size (pixels): the tuner's note and the BPM value.
    public let overlaySize: Float
    /// Clip-space area of the spectrum (bars, curve, ring, heatmap).
    public private(set) var spectrum: Rect
    /// Clip-space area of the waveform strip.
    public let waveform: Rect
    /// True when height > width (vertical video).
    public let portrait: Bool
    /// Pixel box (x0, y0, x1, y1; y down) of the tuner overlay, left in the header.
    public let tunerSlot: Rect
    /// Pixel box of the BPM overlay, right of the tuner slot.
    public let tempoSlot: Rect
    /// Pixel box of the title, right-aligned in the header after the overlay slots.
    public let titleSlot: Rect
    /// Baseline origin (pixels, right-anchored) of the `--stats` readout: above the
    /// waveform strip's right end, on the line of the waveform label.
    public let statsOrigin: SIMD2<Float>
    /// Baseline origin (pixels, left-anchored) of the waveform label.
    public let waveformLabelOrigin: SIMD2<Float>

    /// Room kept for the artwork: the header at least `header` pixels tall (a cover and its
    /// lines), and a logo of `logoAspect` (width / height) at the waveform strip's right end,
    /// or at the header's right end when `logoInHeader` (a mirrored half frame, whose header
    /// is the frame's bottom edge).
    public struct Reserve: Sendable, Equatable {
        public var header: Float
        public var logoAspect: Float?
        public var logoInHeader: Bool
        public init(header: Float = 0, logoAspect: Float? = nil, logoInHeader: Bool = false) {
            self.header = header
            self.logoAspect = logoAspect
            self.logoInHeader = logoInHeader
        }
    }

    /// The room kept for the artwork.
    public let reserve: Reserve
    /// Pixel box of the logo (nil: no logo reserved).
    public let logoBox: Rect?
    /// Pixel height of the header (the spectrum starts under it).
    public let headerHeight: Float
    /// Pixel boxes (y down) of what the frame's header holds: the overlay slots in use, the
    /// cover, the title and artist lines; nil when the composer has not said. A round picture
    /// (the ring) may rise into the header where it stays clear of them.
    public var headerItems: [Rect]? = nil

    /// - labels: whether to keep room for text; dropped (as with `--no-labels`) when the
    ///   frame is too small for it to leave a plot four label heights tall.
    public init(width: Int, height: Int, labels: Bool = true, reserve: Reserve = Reserve()) {
        self.init(checked: width, height: height, labels: labels && Layout.labelsFit(width: width, height: height), reserve: reserve)
    }

    /// Whether text fits a frame: the plot keeps at least four label heights between the
    /// header, the frequency labels and the waveform strip, and the width twelve.
    static func labelsFit(width: Int, height: Int) -> Bool {
        let w = Float(width), h = Float(height), portrait = h > w
        let f = max(10, (portrait ? 30 : 26) * min(w, h) / 1080)
        let taken = f * ((portrait ? 4.0 : 2.6) + 1.7 + 1.1 + 0.6) + (portrait ? 0.12 : 0.18) * h
        return h - taken >= 4 * f && w >= 12 * f
    }

    private init(checked width: Int, height: Int, labels: Bool, reserve: Reserve) {
        self.width = width
        self.height = height
        self.labels = labels
        self.reserve = reserve
        let w = Float(width), h = Float(height)
        portrait = h > w
        scale = min(w, h) / 1080
        // 26 px at 1080p (30 in portrait, read on a phone); never below 10 px.
        let f = max(10, (portrait ? 30 : 26) * scale)
        fontSize = f
        // Overlay text: larger in portrait; shrunk when the two slots would not fit the width
        // (the slots take 9.6 overlay sizes plus two label sizes).
        let room = (w - (labels ? f * 4.3 : 0.04 * w) - 2 * f) / 9.6
        let overlay = min(f * (portrait ? 1.7 : 1.3), max(room, 1))
        overlaySize = overlay
        // Margins in pixels.
        let left = labels ? f * 3.0 : 0.02 * w
        let right = labels ? f * 1.3 : 0.02 * w
        let baseHeader = labels ? (portrait ? f * 4.0 : f * 2.6) : 0.03 * h
        let freqBand = labels ? f * 1.7 : 0.01 * h
        let stripLabel = labels ? f * 1.1 : 0.01 * h
        let strip = (portrait ? 0.12 : 0.18) * h
        let bottom = labels ? f * 0.6 : 0.02 * h
        func cx(_ px: Float) -> Float { px / w * 2 - 1 }
        func cy(_ py: Float) -> Float { 1 - py / h * 2 }
        let stripTop = h - bottom - strip
        let specBottom = stripTop - stripLabel - freqBand
        // The logo keeps its shape: as tall as the band it sits in allows (at most an eighth
        // of the short side), at most a quarter of the width.
        var logo: Rect? = nil
        var header = max(baseHeader, reserve.header)
        if let aspect = reserve.logoAspect, aspect.isFinite, aspect > 0 {
            // In the header, the header grows to hold it with a quarter of its height around.
            let band = reserve.logoInHeader ? .infinity : strip + stripLabel
            var lh = min(band, 0.125 * min(w, h)), lw = lh * aspect
            if lw > 0.25 * w { lw = 0.25 * w; lh = lw / aspect }
            if reserve.logoInHeader {
                header = max(header, (lh * 1.5).rounded(.up))
                let top = ((header - lh) * 0.5).rounded()
                logo = Rect(x0: (w - right - lw).rounded(), y0: top, x1: (w - right).rounded(), y1: top + lh.rounded())
            } else {
                logo = Rect(x0: (w - right - lw).rounded(), y0: (h - bottom - lh).rounded(), x1: (w - right).rounded(), y1: (h - bottom).rounded())
            }
        }
        header = min(header, specBottom - 1)
        headerHeight = header
        logoBox = logo
        let stripRight = logo != nil && !reserve.logoInHeader ? logo!.x0 - f * 0.6 : w - right
        spectrum = Rect(x0: cx(left), y0: cy(specBottom), x1: cx(w - right), y1: cy(header))
        waveform = Rect(x0: cx(left), y0: cy(h - bottom), x1: cx(max(stripRight, left + 1)), y1: cy(stripTop))
        // Header slots (pixels): overlays on the left, title on the right (left of a logo there).
        let baseline = baseHeader * 0.5 + overlay * 0.36
        let slotTop = baseline - overlay, slotBottom = baseline + overlay * 0.3
        let tunerW = overlay * 4.6, tempoW = overlay * 5.0
        tunerSlot = Rect(x0: left, y0: slotTop, x1: left + tunerW, y1: slotBottom)
        tempoSlot = Rect(x0: left + tunerW + f, y0: slotTop, x1: left + tunerW + f + tempoW, y1: slotBottom)
        let titleRight = logo != nil && reserve.logoInHeader ? logo!.x0 - f : w - right
        titleSlot = Rect(x0: tempoSlot.x1 + f, y0: slotTop, x1: max(titleRight, tempoSlot.x1 + f), y1: slotBottom)
        waveformLabelOrigin = SIMD2(left, stripTop - f * 0.3)
        statsOrigin = SIMD2(max(stripRight, left + 1), stripTop - f * 0.3)
    }

    /// This layout with a column kept right of the plot for a colour key: a gap, the key's
    /// bar and its labels (`labelWidth` pixels wide) inside the frame (issue 39: the key sits
    /// beside the plot, and the left edge keeps the time axis). Without labels, unchanged.
    public func keyed(labelWidth: Float) -> Layout {
        guard labels else { return self }
        var copy = self
        let f = fontSize
        let column = f * (Layout.keyGap + Layout.keyBar + Layout.keyGap) + labelWidth + f * 0.3
        let margin = (1 - spectrum.x1) * 0.5 * Float(width)
        copy.spectrum.x1 -= max(0, column - margin) * clipPerPixel.x
        return copy
    }

    /// The colour key's gap to the plot and its bar's width (font sizes).
    public static let keyGap: Float = 0.4, keyBar: Float = 0.35

    /// Clip-space point → pixel position (y down).
    public func pixel(_ p: SIMD2<Float>) -> SIMD2<Float> {
        SIMD2((p.x + 1) * 0.5 * Float(width), (1 - p.y) * 0.5 * Float(height))
    }

    /// Pixel position (y down) → clip-space point.
    public func clip(_ p: SIMD2<Float>) -> SIMD2<Float> {
        SIMD2(p.x / Float(width) * 2 - 1, 1 - p.y / Float(height) * 2)
    }

    /// Clip units per pixel along x and y.
    public var clipPerPixel: SIMD2<Float> { SIMD2(2 / Float(width), 2 / Float(height)) }

    /// A rough width (pixels) of `text` at `size` in DejaVu Sans (mean advance ≈ 0.62 em for
    /// digits and capitals), used to keep runs inside their slots without a font at hand.
    public static func estimatedWidth(_ text: String, size: Float) -> Float {
        width(ofCharacters: text.count, size: size)
    }

    static func width(ofCharacters n: Int, size: Float) -> Float { Float(n) * size * 0.62 }

    /// A generous box (pixels, y down) for `text` at `size` with its baseline origin and
    /// anchor: the estimated width with a fifth and an em to spare (real advances of wide
    /// glyphs exceed the estimate), at most `maxWidth`, the ascent and a descent.
    public static func estimatedBox(
        _ text: String, size: Float, origin: SIMD2<Float>, anchor: TextRun.Anchor, maxWidth: Float
    ) -> Rect {
        let w = min(estimatedWidth(text, size: size) * 1.2 + size, maxWidth)
        let x0: Float
        switch anchor {
        case .left: x0 = origin.x
        case .center: x0 = origin.x - w / 2
        case .right: x0 = origin.x - w
        }
        return Rect(x0: x0, y0: origin.y - size, x1: x0 + w, y1: origin.y + size * 0.3)
    }

    /// `text` shortened with "…" to fit `width` (its first characters and the ellipsis), in
    /// time linear in its length (issue 36: a 1 MB title once took minutes), or nil when
    /// only a stub of fewer than 5 characters would fit.
    public static func fitted(_ text: String, size: Float, width: Float) -> String? {
        let n = text.count
        if n <= 1 || self.width(ofCharacters: n, size: size) <= width { return text }
        // The most characters (the ellipsis included) that fit, at least 1, fewer than n.
        let k = size * 0.62
        var c = k > 0 && width > 0 ? Int(min(Float(n - 1), (width / k).rounded(.down))) : 1
        c = max(1, min(c, n - 1))
        while c > 1 && self.width(ofCharacters: c, size: size) > width { c -= 1 }
        while c + 1 <= n - 1 && self.width(ofCharacters: c + 1, size: size) <= width { c += 1 }
        return c >= 5 ? String(text.prefix(c - 1)) + "…" : nil
    }
}
