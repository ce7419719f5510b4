import CKernels
import SpecvizCore

extension Rasterizer {
    /// Renders ops[opRange] into rows y0..<y1 of band `band`, walking only the triangles
    /// binned there (in submission order) from its bin's item `k` on (advanced past the
    /// ops' triangles). Only this band's rows are touched.
    ///
    /// Each triangle is walked row by row (exact integer spans, no division per row). A span
    /// goes to a built-in kernel (`CKernels`: 8 pixels per step, lanes are pixels,
    /// coverage masks at the ends) when the shader allows it and the frame is at least
    /// 8 pixels wide; otherwise pixel by pixel through the shader's `fragment`. Both give
    /// the same pixels. Flat opaque 2D triangles are plain fills.
    @inlinable
    func renderBand<S2: Shader2D, S3: Shader3D>(
        _ band: Int, ops opRange: Range<Int>, bin k: inout Int, y0: Int, y1: Int, color: UnsafeMutablePointer<UInt32>,
        depth: UnsafeMutablePointer<Float>, hiz: UnsafeMutablePointer<spv_hiz>,
        shader2D: S2, shader3D: S3
    ) {
        let w = width
        let kernel2D = shader2D.passesColorThrough && w >= 8
        let light = w >= 8 ? shader3D.lambertLight : nil
        let end = binStart[band + 1]
        precondition(MemoryLayout<Triangle>.size == MemoryLayout<spv_triangle>.size)
        do {
            let tris = triangles.buffer
            binItems.withUnsafeBufferPointer { items in
                for op in ops[opRange] {
                    switch op {
                    case .triangles(let range):
                        while k < end && Int(items[k]) < range.upperBound {
                            let tp = tris.baseAddress! + Int(items[k])
                            k += 1
                            if k + 1 < end {
                                // The record of the triangle after the next one, on its way
                                // from memory while this one and the next are drawn.
                                let ahead = UnsafeRawPointer(tris.baseAddress! + Int(items[k + 1]))
                                spv_prefetch_triangle(ahead.assumingMemoryBound(to: spv_triangle.self))
                            }
                            let ry0 = max(Int(tp.pointee.raw.minY), y0), ry1 = min(Int(tp.pointee.raw.maxY), y1 - 1)
                            if ry0 > ry1 { continue }
                            // The kernels read the triangle where it is (no copy).
                            let raw = UnsafeRawPointer(tp).assumingMemoryBound(to: spv_triangle.self)
                            if tp.pointee.raw.lit != 0 {
                                if let l = light {
                                    spv_lit_triangle(raw, Int32(ry0), Int32(ry1), color, depth, Int32(w), SIMD4(l.x, l.y, l.z, 0), hiz)
                                } else {
                                    Rasterizer.triangle3D(
                                        tp.pointee, ry0: ry0, ry1: ry1, width: w, color: color, depth: depth,
                                        shader: shader3D)
                                }
                            } else if tp.pointee.raw.flat != 0 {
                                Rasterizer.flat2D(
                                    tp, raw, ry0: ry0, ry1: ry1, width: w, color: color, kernel: kernel2D,
                                    shader: shader2D)
                            } else if kernel2D {
                                let t = UnsafeRawPointer(tp).assumingMemoryBound(to: spv_triangle.self)
                                spv_blend_triangle(t, Int32(ry0), Int32(ry1), color, Int32(w), t.pointee.cBase, t.pointee.cdy, t.pointee.cdx)
                            } else {
                                Rasterizer.triangle2D(tp.pointee, ry0: ry0, ry1: ry1, width: w, color: color, shader: shader2D)
                            }
                        }
                    case .glyphs(let range):
                        drawGlyphs(range, y0: y0, y1: y1, color: color)
                    }
                }
            }
        }
    }

    /// Calls `body(py, xs, xe)` for every row ry0...ry1 of `t` that covers pixels xs...xe.
    @inline(__always) @inlinable
    static func walkRows(_ t: Triangle, ry0: Int, ry1: Int, _ body: (Int, Int, Int) -> Void) {
        var w0 = EdgeWalk(t.e0, py: ry0), w1 = EdgeWalk(t.e1, py: ry0), w2 = EdgeWalk(t.e2, py: ry0)
        let minX = Int64(t.minX), maxX = Int64(t.maxX)
        for py in ry0...ry1 {
            var lo = minX, hi = maxX
            if w0.clamp(t.e0, &lo, &hi) && w1.clamp(t.e1, &lo, &hi) && w2.clamp(t.e2, &lo, &hi) && lo <= hi {
                body(py, Int(lo), Int(hi))
            }
            w0.step(t.e0); w1.step(t.e1); w2.step(t.e2)
        }
    }

    /// A flat 2D triangle: opaque fills, or one constant colour blended.
    @inlinable
    static func flat2D<S: Shader2D>(
        _ tp: UnsafePointer<Triangle>, _ raw: UnsafePointer<spv_triangle>, ry0: Int, ry1: Int,
        width: Int, color: UnsafeMutablePointer<UInt32>, kernel: Bool, shader: S
    ) {
        let f = shader.fragment(color: raw.pointee.cBase)
        if f.w >= 1 {
            let p = pack(f)
            if width >= 8 {
                spv_fill_triangle(raw, Int32(ry0), Int32(ry1), color, Int32(width), p)
            } else {
                walkRows(tp.pointee, ry0: ry0, ry1: ry1) { py, xs, xe in
                    (color + py * width + xs).update(repeating: p, count: xe - xs + 1)
                }
            }
        } else if f.w > 0 {
            if kernel {
                spv_blend_triangle(raw, Int32(ry0), Int32(ry1), color, Int32(width), f, .zero, .zero)
            } else {
                walkRows(tp.pointee, ry0: ry0, ry1: ry1) { py, xs, xe in
                    let row = color + py * width
                    for x in xs...xe { row[x] = blend(f, over: row[x]) }
                }
            }
        }
    }

    /// 2D triangle with interpolated colour through the shader, pixel by pixel.
    @inlinable
    static func triangle2D<S: Shader2D>(
        _ t: Triangle, ry0: Int, ry1: Int, width: Int,
        color: UnsafeMutablePointer<UInt32>, shader: S
    ) {
        let ox = Int(t.minX), oy = Int(t.minY)
        walkRows(t, ry0: ry0, ry1: ry1) { py, xs, xe in
            let row = color + py * width
            let c = t.cBase + t.cdy * Float(py - oy)
            for x in xs...xe {
                let f = shader.fragment(color: c + t.cdx * Float(x - ox))
                row[x] = blend(f, over: row[x])
            }
        }
    }

    /// Lit 3D triangle through the shader, pixel by pixel: depth LESS, perspective-correct
    /// colour and normal, no blending.
    @inlinable
    static func triangle3D<S: Shader3D>(
        _ t: Triangle, ry0: Int, ry1: Int, width: Int,
        color: UnsafeMutablePointer<UInt32>, depth: UnsafeMutablePointer<Float>,
        shader: S
    ) {
        let ox = Int(t.minX), oy = Int(t.minY)
        walkRows(t, ry0: ry0, ry1: ry1) { py, xs, xe in
            let row = color + py * width, drow = depth + py * width
            let fy = Float(py - oy)
            let z0 = t.zBase + t.zdy * fy, c0 = t.cBase + t.cdy * fy, n0 = t.nBase + t.ndy * fy
            for x in xs...xe {
                let xo = Float(x - ox)
                let z = z0 + t.zdx * xo
                if z < drow[x] {
                    let nw = n0 + t.ndx * xo
                    let inv = 1 / nw.w
                    // normal/w has the direction of the perspective-correct normal (1/w > 0).
                    let f = shader.fragment(normal: SIMD3(nw.x, nw.y, nw.z), color: (c0 + t.cdx * xo) * inv)
                    row[x] = pack(f)
                    drow[x] = z
                }
            }
        }
    }

    /// Writes `c` (clamped to 0…1) as an opaque pixel.
    @inline(__always) @inlinable
    static func pack(_ c: SIMD4<Float>) -> UInt32 {
        var v = c * 255 + 0.5
        v.replace(with: 0, where: .!(v .>= 0)) // NaN → 0
        v.replace(with: 255, where: v .> 255)
        return UInt32(v.x) | UInt32(v.y) << 8 | UInt32(v.z) << 16 | 0xFF00_0000
    }

    /// src-alpha / one-minus-src-alpha over an opaque pixel; the source is clamped first.
    /// With alpha ≥ 1 this is `pack`, with alpha ≤ 0 the pixel is kept.
    @inline(__always) @inlinable
    static func blend(_ src: SIMD4<Float>, over dst: UInt32) -> UInt32 {
        var s = src
        s.replace(with: 0, where: .!(s .>= 0)) // NaN → 0
        s.replace(with: 1, where: s .> 1)
        let d = SIMD4<Float>(Float(dst & 0xFF), Float((dst >> 8) & 0xFF), Float((dst >> 16) & 0xFF), 255)
        let a = s.w
        let o = s * (255 * a) + d * (1 - a) + 0.5
        return UInt32(o.x) | UInt32(o.y) << 8 | UInt32(o.z) << 16 | 0xFF00_0000
    }
}
