import CKernels
import Dispatch
import SpecvizCore

/// The CPU rasteriser: both pipelines of SPEC §4 into one RGBA8 colour target and a
/// 32-bit float depth buffer.
///
/// Per frame: the vertex stage runs once per vertex; triangles are clipped in clip space
/// (guard band, and near/far for 3D), snapped to 1/256 px and set up as edge functions
/// with the top-left rule; then the frame is cut into horizontal bands rendered in parallel,
/// each walking every triangle's covered spans row by row in submission order, so writes
/// never race and the picture does not depend on thread timing. Colours are interpolated
/// unclamped and clamped when the pixel is written; 2D draws blend src-alpha /
/// one-minus-src-alpha; 3D draws interpolate perspective-correctly, test depth LESS
/// (cleared to 1.0 once per frame) and are not blended. Text runs are coverage-blended.
///
/// Every buffer is reused across frames: after the first frame of a size, rendering
/// allocates nothing but what a larger scene needs.
public final class Rasterizer {
    /// Size of the frame being rendered (set by `render`).
    @usableFromInline var width = 0
    @usableFromInline var height = 0
    @usableFromInline var depth: [Float]
    /// Which pixel kernel this build runs (printed by `specviz bench --dump`).
    public static var kernelName: String { spv_kernel() == 1 ? "AVX2" : "baseline" }

    /// Chooses the span kernels: `true` forces the portable baseline, `false` returns to the
    /// best the CPU has (AVX2 when CPUID reports it). Both give the same pixels, bit for bit;
    /// for tests and benchmarks. Returns the name of the kernel now in use.
    @discardableResult
    public static func forceBaselineKernel(_ on: Bool) -> String {
        spv_set_kernel(on ? 0 : -1)
        return kernelName
    }
    /// How many bands (and threads) a frame is cut into.
    public var threads: Int
    /// A picture the frame starts from instead of the scene's clear colour (an artwork
    /// background), used when its size is the frame's.
    public var background: PixelBuffer? {
        didSet { memory.forget() }
    }
    /// Start a frame from the previous one's picture where the two scenes begin with the same
    /// items (see `FrameMemory`): the same pixels, without drawing those items again. For a
    /// sequence of frames rendered with the same shaders (a video, the live view); off by
    /// default, so that a benchmark of one scene drawn again and again draws all of it.
    /// Costs a comparison of each scene with the last, a copy of what is not already kept,
    /// and one frame of pixels.
    public var reusesUnchangedPrefix = false {
        didSet { if !reusesUnchangedPrefix { memory = FrameMemory() } }
    }
    @usableFromInline var memory = FrameMemory()
    /// Leading items of the last frame taken from the previous frame's picture (0: all drawn).
    public var lastReusedItems: Int { reusedItems }
    @usableFromInline var reusedItems = 0
    /// The rows of the last frame that may differ from the frame before it (`all` unless
    /// `reusesUnchangedPrefix` is on and the two frames had the same size, clear colour,
    /// shaders and background): the rows of every item that is not the same, bit for bit,
    /// as the previous frame's item at its place, in either frame. Every other pixel saw
    /// the same items in the same order, so it is the same.
    public var lastChangedRows: ChangedRows { changedRows }
    @usableFromInline var changedRows = ChangedRows.all
    /// The frame the last `render` drew, for the caller to keep with the picture and hand
    /// back (`holding`) when it draws into that picture again.
    public var lastFrameStamp: FrameStamp { FrameStamp(rasterizer: identity, frame: changes.last) }
    @usableFromInline let identity = UInt64.random(in: 1...UInt64.max)
    /// The changed rows of the last frames drawn.
    @usableFromInline var changes = ChangeHistory(keeping: 4)
    /// Leading items of the last frame moved from the kept picture (`Scroll`; 0: none).
    public var lastMovedItems: Int { movedItems }
    @usableFromInline var movedItems = 0
    /// Rows lower..<upper that each item of the scene being drawn touches (x == y: none;
    /// `FrameMemory.unknownRows`: not worked out, for items restored from the kept picture).
    @usableFromInline var itemRows: [SIMD2<Int32>] = []

    @usableFromInline var shaded: [ShadedVertex] = []
    @usableFromInline let triangles = TriangleStore()
    @usableFromInline var glyphs: [Glyph] = []
    @usableFromInline var placements: [GlyphPlacement] = []
    @usableFromInline var ops: [Op] = []
    /// Ops of the items before the split `prepare` was given.
    @usableFromInline var opsSplit = 0
    @usableFromInline var clipper = Clipper()
    @usableFromInline var glyphIndex: [GlyphKey: Int] = [:]
    /// Triangle bins per band (see `bin`), reused across frames.
    @usableFromInline var binStart: [Int] = []
    @usableFromInline var binFill: [Int] = []
    @usableFromInline var binItems: [Int32] = []
    /// Coarse depth per 8×8 tile (`spv_hiz`), reused across frames.
    @usableFromInline var hizMax: [Float] = []
    @usableFromInline var hizDirty: [UInt8] = []

    @usableFromInline enum Op {
        case triangles(Range<Int>)
        case glyphs(Range<Int>)
    }

    /// - Parameter threads: workers rendering bands in parallel (1 = on the calling thread).
    public init(threads: Int = 2) {
        depth = []
        self.threads = max(1, threads)
    }

    /// Renders `scene` into `target` (resized to the scene's size if needed).
    /// Throws `RenderError` for a draw that cannot be drawn: a range outside the vertex
    /// arrays, a vertex count that is not a multiple of 3, or a non-finite vertex.
    ///
    /// - Parameter held: the frame `target` holds, untouched since this rasteriser drew it
    ///   (its `lastFrameStamp` then). The bands of rows that have not changed since are left
    ///   as they are (when the frame keeps a picture for the next ones, only those the kept
    ///   picture needs nothing from).
    @inlinable
    public func render<S2: Shader2D, S3: Shader3D>(
        _ scene: Scene, into target: inout PixelBuffer, holding held: FrameStamp? = nil,
        shader2D: S2, shader3D: S3,
        glyphProvider: GlyphProvider? = nil
    ) throws {
        target.resize(width: scene.width, height: scene.height)
        width = scene.width
        height = scene.height
        if depth.count != width * height { depth = [Float](repeating: 1, count: width * height) }
        let tilesX = (width + 7) / 8, tiles = tilesX * ((height + 7) / 8)
        if hizMax.count != tiles {
            hizMax = [Float](repeating: 1, count: tiles)
            hizDirty = [UInt8](repeating: 0, count: tiles)
        }
        // Reuse: the shared prefix, the picture it restores (when the previous frame kept
        // one for at least that many items) or the point where this frame keeps one.
        var restore = 0, keepAt = 0
        var scroll: Scroll? = nil
        let keptBefore = memory.split
        if reusesUnchangedPrefix {
            (restore, keepAt) = memory.plan(
                scene, shader2D: ObjectIdentifier(S2.self), shader3D: ObjectIdentifier(S3.self), light: shader3D.lambertLight)
            // Or the kept picture, moved (see `Scroll`).
            if restore == 0 && background == nil && memory.follows && memory.pixels.count == scene.width * scene.height
                && !scene.items.contains(where: {
                    if case .draw(let d) = $0 { return d.pipeline == .lit3D }; return false
                })
            {
                scroll = findScroll(scene, kept: keptBefore, shader2D: shader2D)
            }
        }
        let clear = PixelBuffer.pack(SIMD4(scene.clearColor.x, scene.clearColor.y, scene.clearColor.z, 1))
        if let sc = scroll {
            if try prepareScroll(sc, scene, clear: clear, shader2D: shader2D, shader3D: shader3D, glyphProvider: glyphProvider) {
                keepAt = sc.moved.upperBound
            } else {
                scroll = nil
            }
        }
        if scroll == nil {
            try prepare(scene, from: restore, split: keepAt, shader2D: shader2D, shader3D: shader3D, glyphProvider: glyphProvider)
        }
        changedRows = .all
        if reusesUnchangedPrefix {
            // The restored items are the previous frame's, at the same rows.
            memory.copyRows(of: restore, into: &itemRows)
            changedRows = memory.changedRows(scene, rows: itemRows)
        }
        changes.record(changedRows)
        // The rows `target` must be drawn in: those changed since the frame it holds.
        let stale = held.flatMap { $0.rasterizer == identity ? changes.since($0.frame) : nil } ?? .all
        let backdrop: [UInt32]? = background.flatMap { $0.width == scene.width && $0.height == scene.height ? $0.pixels : nil }
        let fromKept = restore > 0 || scroll != nil
        // A frame that keeps a picture from the kept one (a scroll) leaves that picture's band
        // as it is where the items before the split draw nothing: triangles from those items
        // are the first `prefixTriangles`; glyphs there are not looked for band by band.
        let (prefixTriangles, prefixGlyphs) = ops[0..<opsSplit].reduce((0, false)) { sum, op in
            switch op {
            case .triangles(let r): return (max(sum.0, r.upperBound), sum.1)
            case .glyphs: return (sum.0, true)
            }
        }
        let keepsOnlyWhereDrawn = fromKept && keepAt > 0 && !prefixGlyphs
        let usesDepth = scene.items[restore...].contains {
            if case .draw(let d) = $0 { return d.pipeline == .lit3D }; return false
        }
        let w = width, h = height
        // Bands of rows; each triangle is binned once into the bands it spans.
        let bandRows = Rasterizer.bandRows(width: w)
        let bands = (h + bandRows - 1) / bandRows
        bin(bands: bands, bandRows: bandRows)
        let shader3 = shader3D, shader2 = shader2D
        let workers = min(threads, bands)
        target.pixels.withUnsafeMutableBufferPointer { px in
            depth.withUnsafeMutableBufferPointer { dp in
                hizMax.withUnsafeMutableBufferPointer { hm in
                    hizDirty.withUnsafeMutableBufferPointer { hd in
                        memory.pixels.withUnsafeMutableBufferPointer { kp in
                            let pxBase = px.baseAddress!, dpBase = dp.baseAddress!
                            // (Each worker takes its own copy: a captured `var` would be boxed.)
                            let sharedHiz = spv_hiz(
                                maxDepth: hm.baseAddress!, dirty: hd.baseAddress!, tilesX: Int32(tilesX), height: Int32(h))
                            // The kept picture (empty unless one is restored or kept).
                            let kept = kp.baseAddress
                            let opsSplit = self.opsSplit
                            // Worker k renders bands k, k + workers, …: interleaved, so a dense part of the
                            // picture is shared; every band's pixels depend only on its triangles.
                            let work = { (worker: Int) in
                                var hiz = sharedHiz
                                var band = worker
                                while band < bands {
                                    let y0 = band * bandRows, y1 = min(h, y0 + bandRows)
                                    // Whether the items before the split draw in this band.
                                    let b0 = self.binStart[band]
                                    let prefixHere = prefixGlyphs || (b0 < self.binStart[band + 1] && Int(self.binItems[b0]) < prefixTriangles)
                                    // Left alone: the picture holds it already, and the kept
                                    // picture needs nothing from it.
                                    if !stale.intersects(y0..<y1) && (keepAt == 0 || (keepsOnlyWhereDrawn && !prefixHere)) {
                                        band += workers
                                        continue
                                    }
                                    if fromKept, let kept {
                                        (pxBase + y0 * w).update(from: kept + y0 * w, count: (y1 - y0) * w)
                                    } else if let backdrop {
                                        backdrop.withUnsafeBufferPointer { (pxBase + y0 * w).update(from: $0.baseAddress! + y0 * w, count: (y1 - y0) * w) }
                                    } else {
                                        spv_fill32(pxBase + y0 * w, clear, Int64((y1 - y0) * w))
                                    }
                                    if usesDepth {
                                        let one = Float(1).bitPattern
                                        UnsafeMutableRawPointer(dpBase + y0 * w).withMemoryRebound(to: UInt32.self, capacity: (y1 - y0) * w) {
                                            spv_fill32($0, one, Int64((y1 - y0) * w))
                                        }
                                        let t0 = (y0 / 8) * tilesX, t1 = ((y1 + 7) / 8) * tilesX
                                        (hiz.maxDepth + t0).update(repeating: 1, count: t1 - t0)
                                        (hiz.dirty + t0).update(repeating: 0, count: t1 - t0)
                                    }
                                    withUnsafeMutablePointer(to: &hiz) { hz in
                                        var k = self.binStart[band]
                                        self.renderBand(
                                            band, ops: 0..<opsSplit, bin: &k, y0: y0, y1: y1, color: pxBase, depth: dpBase, hiz: hz,
                                            shader2D: shader2, shader3D: shader3)
                                        if keepAt > 0, let kept, !keepsOnlyWhereDrawn || prefixHere {
                                            (kept + y0 * w).update(from: pxBase + y0 * w, count: (y1 - y0) * w)
                                        }
                                        self.renderBand(
                                            band, ops: opsSplit..<self.ops.count, bin: &k, y0: y0, y1: y1, color: pxBase, depth: dpBase,
                                            hiz: hz, shader2D: shader2, shader3D: shader3)
                                    }
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
        reusedItems = restore
        movedItems = scroll?.moved.count ?? 0
        if reusesUnchangedPrefix { memory.keep(scene, rows: itemRows, restored: restore, keptAt: keepAt) }
    }

    /// Which frame of which rasteriser a picture holds (`Rasterizer.lastFrameStamp`).
    public struct FrameStamp: Sendable, Equatable {
        @usableFromInline let rasterizer: UInt64
        @usableFromInline let frame: Int
    }

    /// Rows per band: a power of two from 32 to 128 (the coarse depth tiles never straddle
    /// two bands, and binning shifts instead of dividing), at most about 512 KB of colour
    /// (64 rows at 1920 px). Taller bands cut fewer triangles in two (each cut restarts a row
    /// walk and a coarse depth test); measured 16 to 256 rows on the surface dumps, 64–128
    /// was best.
    /// A band is drawn whole or left alone, so a picture drawn in part is right in whole
    /// bands (what `FrameSink.changedRowBands` sinks rely on).
    @inlinable
    public static func bandRows(width: Int) -> Int {
        var rows = 128
        while rows > 32 && rows * width > 131_072 { rows /= 2 }
        return rows
    }

    /// Fills `binStart`/`binItems`: the triangles of band b, in submission order, are
    /// binItems[binStart[b]..<binStart[b + 1]].
    @inlinable
    func bin(bands: Int, bandRows: Int) {
        binStart.removeAll(keepingCapacity: true)
        binStart.append(contentsOf: repeatElement(0, count: bands + 1))
        binFill.removeAll(keepingCapacity: true)
        let rows = triangles.rowRanges
        let shift = bandRows.trailingZeroBitCount
        precondition(bandRows == 1 << shift, "bands are a power of two rows")
        binStart.withUnsafeMutableBufferPointer { start in
            for r in rows {
                for b in Int(r.x &>> shift)...Int(r.y &>> shift) { start[b + 1] += 1 }
            }
            for b in 0..<bands { start[b + 1] += start[b] }
        }
        binFill.append(contentsOf: binStart[0..<bands])
        let total = binStart[bands]
        if binItems.count < total { binItems.append(contentsOf: repeatElement(0, count: total - binItems.count)) }
        binItems.withUnsafeMutableBufferPointer { items in
            binFill.withUnsafeMutableBufferPointer { fill in
                for (i, r) in rows.enumerated() {
                    for b in Int(r.x &>> shift)...Int(r.y &>> shift) {
                        items[fill[b]] = Int32(i)
                        fill[b] += 1
                    }
                }
            }
        }
    }

    /// Vertex stage, clipping and triangle setup for the scene's items from `first` on
    /// (single-threaded); the ops of the items before `split` are ops[0..<opsSplit].
    @inlinable
    func prepare<S2: Shader2D, S3: Shader3D>(
        _ scene: Scene, from first: Int = 0, skipping: Range<Int> = 0..<0, split: Int = 0, shader2D: S2, shader3D: S3,
        glyphProvider: GlyphProvider?
    ) throws {
        triangles.removeAll()
        placements.removeAll(keepingCapacity: true)
        ops.removeAll(keepingCapacity: true)
        opsSplit = 0
        itemRows.removeAll(keepingCapacity: true)
        itemRows.append(contentsOf: repeatElement(FrameMemory.unknownRows, count: scene.items.count))
        for (index, item) in scene.items.enumerated() where index >= first && !skipping.contains(index) {
            if index == split { opsSplit = ops.count }
            switch item {
            case .draw(let d):
                let isLit = d.pipeline == .lit3D
                let available = isLit ? scene.vertices3D.count : scene.vertices2D.count
                guard d.first >= 0, d.count >= 0, d.first + d.count <= available else {
                    throw RenderError.drawOutOfRange(count: d.count, first: d.first, available: available)
                }
                guard d.count % 3 == 0 else {
                    throw RenderError.notTriangleList(count: d.count)
                }
                shaded.removeAll(keepingCapacity: true)
                if isLit {
                    for i in d.first..<(d.first + d.count) { shaded.append(shader3D.vertex(scene.vertices3D[i], mvp: d.mvp)) }
                } else {
                    for i in d.first..<(d.first + d.count) { shaded.append(shader2D.vertex(scene.vertices2D[i])) }
                }
                let start = triangles.count
                // Perspective divide, viewport transform (y down, pixel centres at +0.5) and setup:
                // a C kernel (`spv_setup_triangle`), as it runs for every triangle of a frame.
                // ShadedVertex has spv_vertex's layout, as Triangle has spv_triangle's.
                let store = triangles, lit: Int32 = isLit ? 1 : 0
                let fw = Int32(width), fh = Int32(height)
                @inline(__always) func vertex(_ p: UnsafePointer<ShadedVertex>) -> UnsafePointer<spv_vertex> {
                    UnsafeRawPointer(p).assumingMemoryBound(to: spv_vertex.self)
                }
                @inline(__always) func add(_ a: UnsafePointer<ShadedVertex>, _ b: UnsafePointer<ShadedVertex>, _ c: UnsafePointer<ShadedVertex>, check: Bool)
                    -> Int32
                {
                    let slot = UnsafeMutableRawPointer(store.nextSlot()).assumingMemoryBound(to: spv_triangle.self)
                    let r = spv_setup_triangle(vertex(a), vertex(b), vertex(c), lit, check ? 1 : 0, fw, fh, slot)
                    if r == Int32(SPV_SETUP_DONE) { store.commit() }
                    return r
                }
                // The base address stays valid: `shaded` is not touched until the loop ends.
                let n = shaded.count
                let v = shaded.withUnsafeBufferPointer { $0.baseAddress! }
                var t = 0
                while t < n {
                    let v0 = v + t, v1 = v + t + 1, v2 = v + t + 2
                    t += 3
                    let r = add(v0, v1, v2, check: true)
                    if r == Int32(SPV_SETUP_NOT_FINITE) {
                        throw RenderError.nonFiniteVertex(triangle: (t - 3) / 3)
                    } else if r == Int32(SPV_SETUP_CLIP) {
                        clipper.clip(v0.pointee, v1.pointee, v2.pointee, depth: isLit)
                        let m = clipper.a.count
                        let p = clipper.a.withUnsafeBufferPointer { $0.baseAddress! }
                        if m >= 3 {
                            for k in 1..<(m - 1) { _ = add(p, p + k, p + k + 1, check: false) }
                        }
                    }
                }
                var rows = SIMD2<Int32>(Int32.max, Int32.min)
                for r in triangles.rowRanges[start...] {
                    rows.x = min(rows.x, r.x)
                    rows.y = max(rows.y, r.y)
                }
                itemRows[index] = rows.x <= rows.y ? SIMD2(rows.x, rows.y + 1) : .zero
                if triangles.count > start { appendOp(.triangles(start..<triangles.count)) }
            case .text(let run):
                itemRows[index] = .zero
                guard let provider = glyphProvider else { continue }
                let start = placements.count
                layout(run, provider: provider)
                var rows = SIMD2<Int32>(Int32(height), 0)
                for p in placements[start...] {
                    rows.x = min(rows.x, Int32(clamping: max(p.y, 0)))
                    rows.y = max(rows.y, Int32(clamping: min(p.y + glyphs[p.glyph].height, height)))
                }
                itemRows[index] = rows.x < rows.y ? rows : .zero
                if placements.count > start { appendOp(.glyphs(start..<placements.count)) }
            }
        }
        if split >= scene.items.count { opsSplit = ops.count }
    }

    @inlinable
    func appendOp(_ op: Op) {
        // Merge adjacent triangle ranges so a band walks them in one loop (not across the
        // split, where a band's picture may be kept).
        if ops.count > opsSplit, case .triangles(let r) = op, case .triangles(let prev)? = ops.last, prev.upperBound == r.lowerBound {
            ops[ops.count - 1] = .triangles(prev.lowerBound..<r.upperBound)
        } else {
            ops.append(op)
        }
    }

}
