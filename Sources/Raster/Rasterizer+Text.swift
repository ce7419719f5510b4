import SpecvizCore

@usableFromInline
struct GlyphKey: Hashable {
    @usableFromInline var scalar: UInt32
    @usableFromInline var size: Int
    @usableFromInline init(scalar: UInt32, size: Int) { self.scalar = scalar; self.size = size }
}

/// A glyph bitmap placed at a pixel position (top-left of its bitmap) with a colour.
@usableFromInline
struct GlyphPlacement {
    @usableFromInline var glyph: Int
    @usableFromInline var x: Int
    @usableFromInline var y: Int
    @usableFromInline var color: SIMD4<Float>
}

extension Rasterizer {
    /// Width in pixels of `text` at `pixelSize` (sum of advances).
    public func measure(_ text: String, pixelSize: Int, provider: GlyphProvider) -> Float {
        if let shaper = provider as? TextShaping { return shaper.shape(text, pixelSize: pixelSize).advance }
        var width: Float = 0
        for s in text.unicodeScalars {
            if let i = glyphSlot(s, size: pixelSize, provider: provider) { width += glyphs[i].advance }
        }
        return width
    }

    @usableFromInline
    func glyphSlot(_ s: Unicode.Scalar, size: Int, provider: GlyphProvider) -> Int? {
        let key = GlyphKey(scalar: s.value, size: size)
        if let i = glyphIndex[key] { return i }
        guard let g = provider.glyph(s, pixelSize: size) else { return nil }
        glyphs.append(g)
        glyphIndex[key] = glyphs.count - 1
        return glyphs.count - 1
    }

    /// Resolves a text run into glyph placements (glyphs are cached across frames).
    @usableFromInline
    func layout(_ run: TextRun, provider: GlyphProvider) {
        let size = max(1, Int(saturating: run.size.rounded()))
        if let shaper = provider as? TextShaping { return layoutShaped(run, size: size, shaper: shaper) }
        var pen = run.origin.x
        switch run.anchor {
        case .left: break
        case .center: pen -= measure(run.text, pixelSize: size, provider: provider) / 2
        case .right: pen -= measure(run.text, pixelSize: size, provider: provider)
        }
        let baseline = Int(saturating: run.origin.y.rounded())
        for s in run.text.unicodeScalars {
            guard let i = glyphSlot(s, size: size, provider: provider) else { continue }
            let g = glyphs[i]
            if g.width > 0 && g.height > 0 {
                placements.append(
                    GlyphPlacement(
                        glyph: i, x: Int(saturating: pen.rounded()) + g.bearing.x,
                        y: baseline + g.bearing.y, color: run.color))
            }
            pen += g.advance
        }
    }

    /// Places the glyphs of shaped text (visual order; the provider caches shaped strings, so
    /// nothing is allocated here once a string's glyphs are cached).
    func layoutShaped(_ run: TextRun, size: Int, shaper: TextShaping) {
        let shaped = shaper.shape(run.text, pixelSize: size)
        var pen = run.origin.x
        switch run.anchor {
        case .left: break
        case .center: pen -= shaped.advance / 2
        case .right: pen -= shaped.advance
        }
        let baseline = Int(saturating: run.origin.y.rounded())
        for sg in shaped.glyphs {
            // Glyph ids live above the Unicode range in the cache's key space.
            let key = GlyphKey(scalar: 0x8000_0000 | sg.id, size: size)
            var slot = glyphIndex[key]
            if slot == nil, let g = shaper.glyph(id: sg.id, pixelSize: size) {
                glyphs.append(g)
                slot = glyphs.count - 1
                glyphIndex[key] = slot
            }
            if let i = slot, glyphs[i].width > 0 && glyphs[i].height > 0 {
                let g = glyphs[i]
                placements.append(
                    GlyphPlacement(
                        glyph: i, x: Int(saturating: (pen + sg.offset.x).rounded()) + g.bearing.x,
                        y: baseline - Int(saturating: sg.offset.y.rounded()) + g.bearing.y, color: run.color))
            }
            pen += sg.advance
        }
    }

    /// Coverage-blends the placed glyphs into rows y0..<y1.
    @usableFromInline
    func drawGlyphs(_ range: Range<Int>, y0: Int, y1: Int, color: UnsafeMutablePointer<UInt32>) {
        let w = width
        for p in placements[range] {
            let g = glyphs[p.glyph]
            let gy0 = max(p.y, y0), gy1 = min(p.y + g.height, y1)
            let gx0 = max(p.x, 0), gx1 = min(p.x + g.width, w)
            if gy0 >= gy1 || gx0 >= gx1 { continue }
            g.coverage.withUnsafeBufferPointer { cov in
                for y in gy0..<gy1 {
                    let row = color + y * w
                    let crow = (y - p.y) * g.width - p.x
                    for x in gx0..<gx1 {
                        let a = Float(cov[crow + x]) * (1 / 255)
                        if a <= 0 { continue }
                        var c = p.color
                        c.w *= a
                        row[x] = Rasterizer.blend(c, over: row[x])
                    }
                }
            }
        }
    }
}
