import SpecvizCore

extension Rasterizer {
    /// Renders every op into rows y0..<y1. Only this band's rows are touched.
    @inlinable
    func renderBand<S2: Shader2D, S3: Shader3D>(y0: Int, y1: Int, color: UnsafeMutablePointer<UInt32>,
                                                depth: UnsafeMutablePointer<Float>, shader2D: S2, shader3D: S3) {
        let w = width
        triangles.withUnsafeBufferPointer { tris in
            for op in ops {
                switch op {
                case .triangles(let range):
                    for i in range {
                        let t = tris[i]
                        let ry0 = max(Int(t.minY), y0), ry1 = min(Int(t.maxY), y1 - 1)
                        if ry0 > ry1 { continue }
                        for py in ry0...ry1 {
                            guard let (xs, xe) = t.span(row: py) else { continue }
                            let row = color + py * w
                            if t.lit {
                                Rasterizer.span3D(t, py: py, xs: xs, xe: xe, row: row, depth: depth + py * w, shader: shader3D)
                            } else {
                                Rasterizer.span2D(t, py: py, xs: xs, xe: xe, row: row, shader: shader2D)
                            }
                        }
                    }
                case .glyphs(let range):
                    drawGlyphs(range, y0: y0, y1: y1, color: color)
                }
            }
        }
    }

    /// Writes `c` (clamped to 0…1) as an opaque pixel.
    @inline(__always) @inlinable
    static func pack(_ c: SIMD4<Float>) -> UInt32 {
        var v = c * 255 + 0.5
        v.replace(with: 0, where: .!(v .>= 0))   // NaN → 0
        v.replace(with: 255, where: v .> 255)
        return UInt32(v.x) | UInt32(v.y) << 8 | UInt32(v.z) << 16 | 0xFF00_0000
    }

    /// src-alpha / one-minus-src-alpha over an opaque pixel; the source is clamped first.
    @inline(__always) @inlinable
    static func blend(_ src: SIMD4<Float>, over dst: UInt32) -> UInt32 {
        var s = src
        s.replace(with: 0, where: .!(s .>= 0))   // NaN → 0
        s.replace(with: 1, where: s .> 1)
        let d = SIMD4<Float>(Float(dst & 0xFF), Float((dst >> 8) & 0xFF), Float((dst >> 16) & 0xFF), 255)
        let a = s.w
        let o = s * (255 * a) + d * (1 - a) + 0.5
        return UInt32(o.x) | UInt32(o.y) << 8 | UInt32(o.z) << 16 | 0xFF00_0000
    }

    @inline(__always) @inlinable
    static func span2D<S: Shader2D>(_ t: Triangle, py: Int, xs: Int, xe: Int, row: UnsafeMutablePointer<UInt32>, shader: S) {
        var (c, _, _) = t.attributes(xs, py)
        let dc = t.dcdx
        if dc == .zero {
            let f = shader.fragment(color: c)
            if f.w >= 1 {
                (row + xs).update(repeating: pack(f), count: xe - xs + 1)
            } else if f.w > 0 {
                for x in xs...xe { row[x] = blend(f, over: row[x]) }
            }
            return
        }
        for x in xs...xe {
            let f = shader.fragment(color: c)
            if f.w >= 1 {
                row[x] = pack(f)
            } else if f.w > 0 {
                row[x] = blend(f, over: row[x])
            }
            c += dc
        }
    }

    @inline(__always) @inlinable
    static func span3D<S: Shader3D>(_ t: Triangle, py: Int, xs: Int, xe: Int, row: UnsafeMutablePointer<UInt32>,
                                    depth: UnsafeMutablePointer<Float>, shader: S) {
        var (cw, nw, z) = t.attributes(xs, py)
        let dc = t.dcdx, dn = t.dndx, dz = t.dzdx
        for x in xs...xe {
            if z < depth[x] {
                let inv = 1 / nw.w
                let f = shader.fragment(normal: SIMD3(nw.x, nw.y, nw.z) * inv, color: cw * inv)
                row[x] = pack(f)
                depth[x] = z
            }
            cw += dc; nw += dn; z += dz
        }
    }
}
