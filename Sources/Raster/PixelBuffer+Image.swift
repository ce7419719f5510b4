import SpecvizCore

/// Picture operations for artwork (cover, logo, background): resampling, blur, dimming and
/// compositing. They run once per render on a static picture (the blit once per frame on
/// a small rectangle), in premultiplied Float so that edges and transparent pixels do not
/// bleed dark fringes.
extension PixelBuffer {
    /// Premultiplied linear-in-bytes colour planes (0…1) of the picture.
    func premultiplied() -> [SIMD4<Float>] {
        pixels.map { p in
            let c = SIMD4<Float>(Float(p & 0xFF), Float(p >> 8 & 0xFF), Float(p >> 16 & 0xFF), Float(p >> 24)) / 255
            return SIMD4(c.x * c.w, c.y * c.w, c.z * c.w, c.w)
        }
    }

    /// A picture from premultiplied planes.
    init(premultiplied planes: [SIMD4<Float>], width: Int, height: Int) {
        self.init(width: width, height: height)
        for i in planes.indices {
            let c = planes[i], a = c.w
            let straight = a > 0 ? SIMD4(c.x / a, c.y / a, c.z / a, a) : .zero
            pixels[i] = PixelBuffer.pack(straight)
        }
    }

    /// The picture resampled to `width`×`height` after cropping the source rectangle
    /// `crop` (x, y, w, h in source pixels). Separable: bilinear when enlarging, the exact
    /// area average when shrinking (no aliasing). Row by row: each output row is the
    /// weighted sum of the few source rows under it, each resampled to `width` columns on
    /// the way, so besides the output it holds two rows (never output width × source height).
    func resampled(width: Int, height: Int, crop: SIMD4<Double>) -> PixelBuffer {
        var out = PixelBuffer(width: width, height: height)
        let wx = Self.weights(count: width, from: crop.x, span: crop.z, limit: self.width)
        let wy = Self.weights(count: height, from: crop.y, span: crop.w, limit: self.height)
        var row = [SIMD4<Float>](repeating: .zero, count: width)
        var acc = [SIMD4<Float>](repeating: .zero, count: width)
        pixels.withUnsafeBufferPointer { src in
            for y in 0..<height {
                for x in 0..<width { acc[x] = .zero }
                for (j, wj) in wy[y] {
                    let line = j * self.width
                    for x in 0..<width {
                        var sum = SIMD4<Float>.zero
                        for (i, w) in wx[x] { sum += Self.premultiply(src[line + i]) * w }
                        row[x] = sum
                    }
                    for x in 0..<width { acc[x] += row[x] * wj }
                }
                for x in 0..<width {
                    let c = acc[x], a = c.w
                    out.pixels[y * width + x] = PixelBuffer.pack(a > 0 ? SIMD4(c.x / a, c.y / a, c.z / a, a) : .zero)
                }
            }
        }
        return out
    }

    /// One straight-alpha pixel as premultiplied 0…1 components.
    @inline(__always) static func premultiply(_ p: UInt32) -> SIMD4<Float> {
        let c = SIMD4<Float>(Float(p & 0xFF), Float(p >> 8 & 0xFF), Float(p >> 16 & 0xFF), Float(p >> 24)) / 255
        return SIMD4(c.x * c.w, c.y * c.w, c.z * c.w, c.w)
    }

    /// Filter taps for `count` outputs covering source [from, from+span) of `limit` samples:
    /// the exact area each source pixel shares with an output pixel when shrinking, a tent
    /// of one pixel (bilinear) when enlarging. Weights sum to one.
    private static func weights(count: Int, from: Double, span: Double, limit: Int) -> [[(Int, Float)]] {
        let scale = span / Double(count)
        return (0..<count).map { o in
            var taps: [(Int, Double)] = []
            if scale > 1 {
                let a = from + Double(o) * scale, b = a + scale
                for i in Int(a.rounded(.down))..<Int(b.rounded(.up)) {
                    let w = min(b, Double(i + 1)) - max(a, Double(i))
                    if w > 0 { taps.append((min(max(i, 0), limit - 1), w)) }
                }
            } else {
                let centre = from + (Double(o) + 0.5) * scale - 0.5
                let i = Int(centre.rounded(.down)), t = centre - Double(i)
                taps = [(min(max(i, 0), limit - 1), 1 - t), (min(max(i + 1, 0), limit - 1), t)]
            }
            let total = taps.reduce(0) { $0 + $1.1 }
            return taps.map { ($0.0, Float($0.1 / total)) }
        }
    }

    /// Scaled to cover `width`×`height` exactly, cropping the overflow equally on both sides
    /// (a background).
    public func scaledToFill(width: Int, height: Int) -> PixelBuffer {
        let sa = Double(self.width) / Double(self.height), da = Double(width) / Double(height)
        let crop: SIMD4<Double> =
            sa > da
            ? SIMD4((Double(self.width) - Double(self.height) * da) / 2, 0, Double(self.height) * da, Double(self.height))
            : SIMD4(0, (Double(self.height) - Double(self.width) / da) / 2, Double(self.width), Double(self.width) / da)
        return resampled(width: width, height: height, crop: crop)
    }

    /// Scaled to fit inside `width`×`height` keeping its shape (a cover or a logo).
    public func scaledToFit(width: Int, height: Int) -> PixelBuffer {
        let s = min(Double(width) / Double(self.width), Double(height) / Double(self.height))
        let w = max(1, Int((Double(self.width) * s).rounded())), h = max(1, Int((Double(self.height) * s).rounded()))
        return resampled(width: w, height: h, crop: SIMD4(0, 0, Double(self.width), Double(self.height)))
    }

    /// Blurred by three box passes each way (close to a Gaussian of σ ≈ `radius`/1.7), edges
    /// clamped.
    public func blurred(radius: Int) -> PixelBuffer {
        guard radius > 0 else { return self }
        var planes = premultiplied()
        var line = [SIMD4<Float>]()
        for _ in 0..<3 {
            for horizontal in [true, false] {
                let n = horizontal ? width : height, lines = horizontal ? height : width
                line = [SIMD4<Float>](repeating: .zero, count: n)
                let norm = 1 / Float(2 * radius + 1)
                for l in 0..<lines {
                    @inline(__always) func at(_ i: Int) -> Int {
                        let k = min(max(i, 0), n - 1)
                        return horizontal ? l * width + k : k * width + l
                    }
                    var sum = SIMD4<Float>.zero
                    for i in -radius...radius { sum += planes[at(i)] }
                    for i in 0..<n {
                        line[i] = sum * norm
                        sum += planes[at(i + radius + 1)] - planes[at(i - radius)]
                    }
                    for i in 0..<n { planes[at(i)] = line[i] }
                }
            }
        }
        return PixelBuffer(premultiplied: planes, width: width, height: height)
    }

    /// The colours multiplied by `1 − amount` (0 keeps them, 1 is black); alpha kept.
    public func dimmed(_ amount: Float) -> PixelBuffer {
        var out = self
        let k = UInt32(max(0, min(1, 1 - amount)) * 256)
        for i in out.pixels.indices {
            let p = out.pixels[i]
            let r = ((p & 0xFF) * k) >> 8, g = ((p >> 8 & 0xFF) * k) >> 8, b = ((p >> 16 & 0xFF) * k) >> 8
            out.pixels[i] = r | g << 8 | b << 16 | (p & 0xFF00_0000)
        }
        return out
    }

    /// Draws `image` with its top-left corner at (`x`, `y`) over this picture (straight
    /// alpha "over", times `opacity`), clipped to the picture.
    public mutating func draw(_ image: PixelBuffer, x: Int, y: Int, opacity: Float = 1) {
        let x0 = max(0, x), y0 = max(0, y)
        let x1 = min(width, x + image.width), y1 = min(height, y + image.height)
        guard x0 < x1, y0 < y1 else { return }
        let o = UInt32(max(0, min(1, opacity)) * 255 + 0.5)
        for py in y0..<y1 {
            for px in x0..<x1 {
                let s = image.pixels[(py - y) * image.width + (px - x)]
                let a = (s >> 24) * o / 255
                if a == 0 { continue }
                let i = py * width + px
                if a == 255 { pixels[i] = s | 0xFF00_0000; continue }
                let d = pixels[i]
                let da = d >> 24
                // out.a = a + da(1 − a); colours weighted by their share of out.a.
                let outA = a * 255 + da * (255 - a) // ×255²
                guard outA > 0 else { continue }
                var packed: UInt32 = 0
                for shift in [UInt32(0), 8, 16] {
                    let sc = s >> shift & 0xFF, dc = d >> shift & 0xFF
                    let c = (sc * a * 255 + dc * da * (255 - a) + outA / 2) / outA
                    packed |= min(c, 255) << shift
                }
                pixels[i] = packed | ((outA + 127) / 255) << 24
            }
        }
    }
}
