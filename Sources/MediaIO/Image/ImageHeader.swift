import CFFmpeg

/// The size a PNG, JPEG or WebP picture declares in its header, read from its first bytes
/// without decoding anything: pictures are checked against `ImageDecoder.maxPixels`
/// before a decoder allocates a single row.
struct ImageHeader: Equatable {
    var width: Int
    var height: Int
    /// Bytes a decoder holds per pixel at most (its frame, and a progressive JPEG's
    /// coefficients).
    var bytesPerPixel = 4.0

    /// The declared size, or nil when the header is cut short or does not say.
    init?(_ bytes: [UInt8]) {
        guard let codec = ImageDecoder.codec(of: bytes) else { return nil }
        let size: (Int, Int, Double)?
        switch codec {
        case AV_CODEC_ID_PNG: size = Self.png(bytes)
        case AV_CODEC_ID_MJPEG: size = Self.jpeg(bytes)
        default: size = Self.webp(bytes).map { ($0.0, $0.1, 4) }
        }
        guard let (w, h, bytes) = size else { return nil }
        width = w
        height = h
        bytesPerPixel = bytes
    }

    private static func be(_ b: [UInt8], _ at: Int, _ n: Int) -> Int? {
        guard at >= 0, at + n <= b.count else { return nil }
        return b[at..<at + n].reduce(0) { $0 << 8 | Int($1) }
    }

    private static func le(_ b: [UInt8], _ at: Int, _ n: Int) -> Int? {
        guard at >= 0, at + n <= b.count else { return nil }
        return b[at..<at + n].reversed().reduce(0) { $0 << 8 | Int($1) }
    }

    /// IHDR is the first chunk: length, "IHDR", width and height (big-endian), bit depth
    /// and colour type (grey, RGB, palette, grey+alpha, RGBA: 1, 3, 1, 2, 4 channels).
    private static func png(_ b: [UInt8]) -> (Int, Int, Double)? {
        guard b.count >= 26, Array(b[12..<16]) == Array("IHDR".utf8), let w = be(b, 16, 4), let h = be(b, 20, 4) else {
            return nil
        }
        let table: [Int: Double] = [0: 1, 2: 3, 3: 1, 4: 2, 6: 4]
        let channels = table[Int(b[25])] ?? 4
        return (w, h, channels * (b[24] == 16 ? 2 : 1))
    }

    /// The first start-of-frame segment (SOF0…SOF15 but DHT, JPG and DAC): precision,
    /// height, width, components. Segments before it are skipped by their lengths. A
    /// progressive JPEG (SOF2, 6, 10, 14) also keeps 2 bytes of coefficients per sample.
    private static func jpeg(_ b: [UInt8]) -> (Int, Int, Double)? {
        var i = 2
        while i + 1 < b.count {
            guard b[i] == 0xFF else { return nil }
            let marker = b[i + 1]
            if marker == 0xFF { i += 1; continue } // fill byte
            if marker == 0x01 || (0xD0...0xD8).contains(marker) { i += 2; continue }
            if marker == 0xD9 || marker == 0xDA { return nil } // end, or scan data before any frame
            guard let length = be(b, i + 2, 2), length >= 2 else { return nil }
            if (0xC0...0xCF).contains(marker) && ![0xC4, 0xC8, 0xCC].contains(marker) {
                guard let h = be(b, i + 5, 2), let w = be(b, i + 7, 2), let n = be(b, i + 9, 1), n >= 1 else { return nil }
                // Each component's share of the samples: its sampling factors over the largest.
                let factors = (0..<n).map { c in be(b, i + 11 + 3 * c, 1) ?? 0x11 }
                let hMax = max(1, factors.map { $0 >> 4 }.max() ?? 1), vMax = max(1, factors.map { $0 & 15 }.max() ?? 1)
                let samples = factors.reduce(0.0) { $0 + Double(max(1, $1 >> 4) * max(1, $1 & 15)) / Double(hMax * vMax) }
                let precision = b[i + 4] > 8 ? 2.0 : 1.0
                let progressive = [0xC2, 0xC6, 0xCA, 0xCE].contains(marker)
                return (w, h, samples * (precision + (progressive ? 2 : 0)))
            }
            i += 2 + length
        }
        return nil
    }

    /// The first chunk after "WEBP": VP8X (canvas size), VP8L (lossless) or "VP8 " (lossy).
    private static func webp(_ b: [UInt8]) -> (Int, Int)? {
        guard b.count >= 30 else { return nil }
        switch String(decoding: b[12..<16], as: UTF8.self) {
        case "VP8X":
            guard let w = le(b, 24, 3), let h = le(b, 27, 3) else { return nil }
            return (w + 1, h + 1)
        case "VP8L":
            guard b[20] == 0x2F, let bits = le(b, 21, 4) else { return nil }
            return ((bits & 0x3FFF) + 1, (bits >> 14 & 0x3FFF) + 1)
        case "VP8 ":
            guard Array(b[23..<26]) == [0x9D, 0x01, 0x2A], let w = le(b, 26, 2), let h = le(b, 28, 2) else { return nil }
            return (w & 0x3FFF, h & 0x3FFF)
        default:
            return nil
        }
    }
}
