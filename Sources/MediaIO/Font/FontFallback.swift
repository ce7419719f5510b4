import CFontconfig

/// The fonts fontconfig ranks for a family (FcFontSort, trimmed to those that add
/// coverage), with the characters each one has: the fallback chain for characters the
/// primary font lacks (CJK, Arabic, symbols...).
final class FontFallback {
    struct Entry {
        let path: String
        let index: Int
        let charset: OpaquePointer
    }

    private var set: UnsafeMutablePointer<FcFontSet>?
    private(set) var entries: [Entry] = []

    /// Fonts for `family` in fontconfig's order, leaving out `primaryPath` (tried first anyway).
    init(family: String = "sans-serif", excluding primaryPath: String) {
        let pattern = family.withCString { FcNameParse(UnsafeRawPointer($0).assumingMemoryBound(to: FcChar8.self)) }
        guard let pattern else { return }
        defer { FcPatternDestroy(pattern) }
        guard FcConfigSubstitute(nil, pattern, FcMatchPattern) != 0 else { return }
        FcDefaultSubstitute(pattern)
        var result = FcResultMatch
        guard let set = FcFontSort(nil, pattern, 1, nil, &result) else { return }
        self.set = set
        guard let fonts = set.pointee.fonts else { return }
        for i in 0..<Int(set.pointee.nfont) {
            guard let font = fonts[i] else { continue }
            var file: UnsafeMutablePointer<FcChar8>?
            guard FcPatternGetString(font, "file", 0, &file) == FcResultMatch, let file else { continue }
            let path = String(cString: file)
            if path == primaryPath { continue }
            var index: Int32 = 0
            _ = FcPatternGetInteger(font, "index", 0, &index)
            var charset: OpaquePointer?
            guard FcPatternGetCharSet(font, "charset", 0, &charset) == FcResultMatch, let charset else { continue }
            entries.append(Entry(path: path, index: Int(index), charset: charset))
        }
    }

    deinit {
        if let set { FcFontSetDestroy(set) }
    }

    /// The first entry (in fallback order) that has `scalar`, after `start`.
    func first(covering scalar: UInt32, from start: Int = 0) -> Int? {
        guard start < entries.count else { return nil }
        return entries[start...].firstIndex { FcCharSetHasChar($0.charset, scalar) != 0 }
    }
}
