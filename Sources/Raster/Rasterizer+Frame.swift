import CKernels
import Dispatch
import SpecvizCore

extension Rasterizer {
    /// How a frame is drawn: which leading items come from the kept picture, where this
    /// frame keeps one, which rows its target must be drawn in, and what each band starts
    /// from.
    @usableFromInline struct FramePlan {
        /// Leading items restored from the kept picture (0: none).
        @usableFromInline var restore = 0
        /// Items after which this frame keeps its picture for the next ones (0: none).
        @usableFromInline var keepAt = 0
        /// The kept picture moved, instead of restored (`Scroll`).
        @usableFromInline var scroll: Scroll? = nil
        /// The scene's clear colour, packed.
        @usableFromInline var clear: UInt32
        /// The rows the target must be drawn in (those changed since the frame it holds).
        @usableFromInline var stale = ChangedRows.all
        /// The background picture at the frame's size (nil: the clear colour).
        @usableFromInline var backdrop: [UInt32]? = nil
        /// Triangles of the items before the split are the first `prefixTriangles`; whether
        /// those items hold text (not looked for band by band).
        @usableFromInline var prefixTriangles = 0
        @usableFromInline var prefixGlyphs = false
        /// A frame that keeps a picture from the kept one (a scroll) leaves that picture's
        /// band as it is where the items before the split draw nothing.
        @usableFromInline var keepsOnlyWhereDrawn = false
        /// Whether the items drawn include 3D ones (the bands' depth is then cleared).
        @usableFromInline var usesDepth = false

        @usableFromInline init(clear: UInt32) { self.clear = clear }

        /// Bands start from the kept picture.
        @inlinable var fromKept: Bool { restore > 0 || scroll != nil }

        /// Works out what the bands need from the prepared ops before the split.
        @inlinable mutating func finish(_ scene: Scene, ops: ArraySlice<Op>) {
            (prefixTriangles, prefixGlyphs) = ops.reduce((0, false)) { sum, op in
                switch op {
                case .triangles(let r): return (max(sum.0, r.upperBound), sum.1)
                case .glyphs: return (sum.0, true)
                }
            }
            keepsOnlyWhereDrawn = fromKept && keepAt > 0 && !prefixGlyphs
            usesDepth = scene.items[restore...].contains {
                if case .draw(let d) = $0 { return d.pipeline == .lit3D }
                return false
            }
        }
    }

    /// Plans the frame's reuse from its layers' damage and prepares its items: the leading
    /// unchanged layers and the picture they restore (when the previous frame kept one
    /// after them), or the point where this frame keeps one; or the kept picture, moved
    /// (see `Scroll`), when the first layer says it scrolled.
    @inlinable
    func prepareFrame<S2: Shader2D, S3: Shader3D>(
        _ scene: Scene, shader2D: S2, shader3D: S3, glyphProvider: GlyphProvider?
    ) throws -> FramePlan {
        var plan = FramePlan(clear: PixelBuffer.pack(SIMD4(scene.clearColor.x, scene.clearColor.y, scene.clearColor.z, 1)))
        let keptBefore = memory.split
        if reusesUnchangedPrefix {
            (plan.restore, plan.keepAt) = memory.plan(
                scene, layers: layers, shader2D: ObjectIdentifier(S2.self), shader3D: ObjectIdentifier(S3.self),
                light: shader3D.lambertLight)
            // Only a layer that says it scrolled is looked at for a move.
            if plan.restore == 0 && layers.first?.damage == .scrolled && background == nil && memory.follows
                && memory.pixels.count == scene.width * scene.height
                && !scene.items.contains(where: {
                    if case .draw(let d) = $0 { return d.pipeline == .lit3D }
                    return false
                })
            {
                plan.scroll = findScroll(scene, kept: keptBefore, shader2D: shader2D)
            }
        }
        if let sc = plan.scroll {
            if try prepareScroll(sc, scene, clear: plan.clear, shader2D: shader2D, shader3D: shader3D, glyphProvider: glyphProvider) {
                plan.keepAt = sc.moved.upperBound
            } else {
                plan.scroll = nil
            }
        }
        if plan.scroll == nil {
            try prepare(scene, from: plan.restore, split: plan.keepAt, shader2D: shader2D, shader3D: shader3D, glyphProvider: glyphProvider)
        }
        return plan
    }

    /// Where the bands are drawn: the target's colour, the depth buffer, the kept picture
    /// (nil: none) and the coarse depth tiles.
    @usableFromInline struct BandTarget {
        @usableFromInline let color: UnsafeMutablePointer<UInt32>
        @usableFromInline let depth: UnsafeMutablePointer<Float>
        @usableFromInline let kept: UnsafeMutablePointer<UInt32>?
        @usableFromInline let hiz: spv_hiz

        @inlinable init(color: UnsafeMutablePointer<UInt32>, depth: UnsafeMutablePointer<Float>, kept: UnsafeMutablePointer<UInt32>?, hiz: spv_hiz) {
            self.color = color
            self.depth = depth
            self.kept = kept
            self.hiz = hiz
        }
    }

    /// Draws the prepared frame into `target`, band by band: the triangles are binned once
    /// into the bands they span, and worker k draws bands k, k + workers, … (interleaved,
    /// so a dense part of the picture is shared; every band's pixels depend only on its
    /// triangles).
    @inlinable
    func drawBands<S2: Shader2D, S3: Shader3D>(_ plan: FramePlan, into target: inout PixelBuffer, shader2D: S2, shader3D: S3) {
        let bandRows = Rasterizer.bandRows(width: width)
        let bands = (height + bandRows - 1) / bandRows
        bin(bands: bands, bandRows: bandRows)
        let workers = min(threads, bands)
        let tilesX = Int32((width + 7) / 8), h = Int32(height)
        target.pixels.withUnsafeMutableBufferPointer { px in
            depth.withUnsafeMutableBufferPointer { dp in
                hizMax.withUnsafeMutableBufferPointer { hm in
                    hizDirty.withUnsafeMutableBufferPointer { hd in
                        memory.pixels.withUnsafeMutableBufferPointer { kp in
                            let to = BandTarget(
                                color: px.baseAddress!, depth: dp.baseAddress!, kept: kp.baseAddress,
                                hiz: spv_hiz(maxDepth: hm.baseAddress!, dirty: hd.baseAddress!, tilesX: tilesX, height: h))
                            let work = { (worker: Int) in
                                // (Each worker takes its own copy: a captured `var` would be boxed.)
                                var hiz = to.hiz
                                var band = worker
                                while band < bands {
                                    self.drawBand(band, rows: bandRows, plan, to, hiz: &hiz, shader2D: shader2D, shader3D: shader3D)
                                    band += workers
                                }
                            }
                            if workers > 1 {
                                DispatchQueue.concurrentPerform(iterations: workers, execute: work)
                            } else {
                                work(0)
                            }
                        }
                    }
                }
            }
        }
    }

    /// Draws band `band` (of `rows` rows), unless the target holds it already and the kept
    /// picture needs nothing from it: starts it from the kept picture, the background or
    /// the clear colour, draws the items before the split, keeps the picture there if
    /// this frame keeps one, then draws the rest.
    // Inlined into its caller: one function to the optimiser, as before the split
    // (a call per item or band costs dynamic exclusivity checks on the class's buffers).
    @inlinable @inline(__always)
    func drawBand<S2: Shader2D, S3: Shader3D>(
        _ band: Int, rows bandRows: Int, _ plan: FramePlan, _ to: BandTarget, hiz: inout spv_hiz, shader2D: S2, shader3D: S3
    ) {
        let w = width
        let y0 = band * bandRows, y1 = min(height, y0 + bandRows)
        // Whether the items before the split draw in this band.
        let b0 = binStart[band]
        let prefixHere = plan.prefixGlyphs || (b0 < binStart[band + 1] && Int(binItems[b0]) < plan.prefixTriangles)
        if !plan.stale.intersects(y0..<y1) && (plan.keepAt == 0 || (plan.keepsOnlyWhereDrawn && !prefixHere)) { return }
        startBand(y0..<y1, plan, to, hiz: hiz)
        let split = opsSplit
        withUnsafeMutablePointer(to: &hiz) { hz in
            var k = b0
            renderBand(
                band, ops: 0..<split, bin: &k, y0: y0, y1: y1, color: to.color, depth: to.depth, hiz: hz,
                shader2D: shader2D, shader3D: shader3D)
            if plan.keepAt > 0, let kept = to.kept, !plan.keepsOnlyWhereDrawn || prefixHere {
                (kept + y0 * w).update(from: to.color + y0 * w, count: (y1 - y0) * w)
            }
            renderBand(
                band, ops: split..<ops.count, bin: &k, y0: y0, y1: y1, color: to.color, depth: to.depth, hiz: hz,
                shader2D: shader2D, shader3D: shader3D)
        }
    }

    /// The rows `rows` before anything is drawn in them: the kept picture's, the
    /// background's or the clear colour; depth cleared to 1 when the frame draws 3D.
    // Inlined into its caller: one function to the optimiser, as before the split
    // (a call per item or band costs dynamic exclusivity checks on the class's buffers).
    @inlinable @inline(__always)
    func startBand(_ rows: Range<Int>, _ plan: FramePlan, _ to: BandTarget, hiz: spv_hiz) {
        let w = width, y0 = rows.lowerBound, n = rows.count * w
        if plan.fromKept, let kept = to.kept {
            (to.color + y0 * w).update(from: kept + y0 * w, count: n)
        } else if let backdrop = plan.backdrop {
            backdrop.withUnsafeBufferPointer { (to.color + y0 * w).update(from: $0.baseAddress! + y0 * w, count: n) }
        } else {
            spv_fill32(to.color + y0 * w, plan.clear, Int64(n))
        }
        guard plan.usesDepth else { return }
        let one = Float(1).bitPattern
        UnsafeMutableRawPointer(to.depth + y0 * w).withMemoryRebound(to: UInt32.self, capacity: n) {
            spv_fill32($0, one, Int64(n))
        }
        let tilesX = Int(hiz.tilesX)
        let t0 = (y0 / 8) * tilesX, t1 = ((rows.upperBound + 7) / 8) * tilesX
        (hiz.maxDepth + t0).update(repeating: 1, count: t1 - t0)
        (hiz.dirty + t0).update(repeating: 0, count: t1 - t0)
    }
}
