import CFreeType
import CFriBidi
import SpecvizCore

/// A stretch of text with one bidi level and one font, shaped by HarfBuzz as a unit.
private struct TextRunSpan {
    var start: Int
    var count: Int
    var level: FriBidiLevel
    var font: Int
}

/// Kerning and optional ligatures stay off: text keeps the pixel-snapped, per-character
/// spacing it always had (Latin draws as before). Required shaping (Arabic joining and
/// its required ligatures, marks) is not affected by these two features.
private let shapingFeatures: [hb_feature_t] = ["-kern", "-liga"].map { name in
    var f = hb_feature_t()
    _ = name.withCString { hb_feature_from_string($0, -1, &f) }
    return f
}

extension FreeTypeFont {
    /// `text` bidi-ordered and shaped at `pixelSize`, cached per (text, size). A character
    /// that no font has is left out, with one warning per character.
    public func shape(_ text: String, pixelSize: Int) -> ShapedText {
        let key = ShapeKey(text: text, size: max(1, pixelSize))
        lock.lock()
        defer { lock.unlock() }
        if let cached = shaped[key] { return cached }
        let result = shapeUncached(text, size: key.size)
        if shaped.count >= 1024 { shaped.removeAll(keepingCapacity: true) }
        shaped[key] = result
        return result
    }

    private func shapeUncached(_ text: String, size: Int) -> ShapedText {
        var codes: [UInt32] = [], fonts: [Int] = [], source: [Int] = []
        var current = 0
        for (i, s) in text.unicodeScalars.enumerated() {
            let p = s.properties
            if p.generalCategory == .control { continue }
            let font: Int
            if p.isDefaultIgnorableCodePoint || ((isMark(p.generalCategory) || p.isWhitespace) && covers(current, s.value)) {
                font = current // marks, spaces and joiners stay in the run they belong to
            } else if let f = fontIndex(for: s) {
                font = f
            } else {
                continue
            }
            current = font
            codes.append(s.value)
            fonts.append(font)
            source.append(i)
        }
        if codes.isEmpty { return ShapedText(glyphs: []) }
        let runs = visualRuns(codes, fonts: fonts)
        var out: [ShapedGlyph] = []
        out.reserveCapacity(codes.count)
        let buffer = hb_buffer_create()
        defer { hb_buffer_destroy(buffer) }
        for run in runs {
            hb_buffer_clear_contents(buffer)
            // The whole text goes in as context, so letters join across a change of font.
            codes.withUnsafeBufferPointer {
                hb_buffer_add_utf32(buffer, $0.baseAddress, Int32($0.count), UInt32(run.start), Int32(run.count))
            }
            hb_buffer_set_direction(buffer, run.level & 1 == 1 ? HB_DIRECTION_RTL : HB_DIRECTION_LTR)
            hb_buffer_guess_segment_properties(buffer)
            let face = faces[run.font]
            FT_Set_Pixel_Sizes(face.ft, 0, FT_UInt(size))
            hb_ft_font_changed(face.hb)
            hb_shape(face.hb, buffer, shapingFeatures, UInt32(shapingFeatures.count))
            var n: UInt32 = 0
            guard let infos = hb_buffer_get_glyph_infos(buffer, &n), let pos = hb_buffer_get_glyph_positions(buffer, &n) else {
                continue
            }
            for k in 0..<Int(n) {
                out.append(
                    ShapedGlyph(
                        id: UInt32(run.font) << 16 | (infos[k].codepoint & 0xFFFF),
                        advance: Float(pos[k].x_advance) / 64,
                        offset: SIMD2(Float(pos[k].x_offset) / 64, Float(pos[k].y_offset) / 64),
                        cluster: source[min(Int(infos[k].cluster), source.count - 1)]))
            }
        }
        return ShapedText(glyphs: out)
    }

    /// Splits the text where the bidi level or the font changes (FriBidi, base direction
    /// from the first strong character) and puts the runs in visual order.
    private func visualRuns(_ codes: [UInt32], fonts: [Int]) -> [TextRunSpan] {
        let n = codes.count
        var types = [FriBidiCharType](repeating: FriBidiCharType(0), count: n)
        var brackets = [FriBidiBracketType](repeating: 0, count: n)
        var levels = [FriBidiLevel](repeating: 0, count: n)
        var map = (0..<n).map { FriBidiStrIndex($0) }
        var base = spv_fribidi_par_on()
        fribidi_get_bidi_types(codes, FriBidiStrIndex(n), &types)
        fribidi_get_bracket_types(codes, FriBidiStrIndex(n), types, &brackets)
        if fribidi_get_par_embedding_levels_ex(types, brackets, FriBidiStrIndex(n), &base, &levels) == 0 {
            levels = [FriBidiLevel](repeating: 0, count: n)
        } else {
            var reordered = levels
            if fribidi_reorder_line(spv_fribidi_flags_default(), types, FriBidiStrIndex(n), 0, base, &reordered, nil, &map) == 0 {
                map = (0..<n).map { FriBidiStrIndex($0) }
            }
        }
        var runs: [TextRunSpan] = []
        var runOf = [Int](repeating: 0, count: n)
        for i in 0..<n {
            if i == 0 || levels[i] != levels[i - 1] || fonts[i] != fonts[i - 1] {
                runs.append(TextRunSpan(start: i, count: 0, level: levels[i], font: fonts[i]))
            }
            runs[runs.count - 1].count += 1
            runOf[i] = runs.count - 1
        }
        // A run's characters stay together when a line is reordered; take the runs in the
        // order their characters appear on screen.
        var order: [TextRunSpan] = []
        var last = -1
        for v in 0..<n {
            let r = runOf[Int(map[v])]
            if r != last { order.append(runs[r]) }
            last = r
        }
        return order
    }

    private func isMark(_ category: Unicode.GeneralCategory) -> Bool {
        switch category {
        case .nonspacingMark, .spacingMark, .enclosingMark: return true
        default: return false
        }
    }

    func covers(_ font: Int, _ scalar: UInt32) -> Bool {
        FT_Get_Char_Index(faces[font].ft, FT_ULong(scalar)) != 0
    }

    /// The font that draws `scalar`: the primary font, else the first fallback fontconfig
    /// lists that has it (cached per character). Warns once and returns nil if none has it.
    private func fontIndex(for scalar: Unicode.Scalar) -> Int? {
        let c = scalar.value
        if let known = fontOf[c] { return known >= 0 ? known : nil }
        var found: Int? = covers(0, c) ? 0 : nil
        var entry = 0
        while found == nil, let e = fallback.first(covering: c, from: entry) {
            if let loaded = loadedFallbacks[e] {
                found = covers(loaded, c) ? loaded : nil
            } else if let face = loadFace(fallback.entries[e].path, index: fallback.entries[e].index) {
                faces.append(face)
                loadedFallbacks[e] = faces.count - 1
                found = covers(faces.count - 1, c) ? faces.count - 1 : nil
            }
            entry = e + 1
        }
        fontOf[c] = found ?? -1
        if found == nil {
            let hex = String(c, radix: 16, uppercase: true)
            let code = String(repeating: "0", count: max(0, 4 - hex.count)) + hex
            warn("no font has U+\(code) (\(scalar)); it is left out")
        }
        return found
    }
}
