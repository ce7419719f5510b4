import CKernels
import SpecvizCore

extension Rasterizer {
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
                try prepareDraw(d, item: index, scene, shader2D: shader2D, shader3D: shader3D)
            case .text(let run):
                itemRows[index] = .zero
                guard let provider = glyphProvider else { continue }
                prepareText(run, item: index, provider: provider)
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

    /// Vertex stage, clipping and triangle setup of draw `d`, item `item` of `scene`: its
    /// triangles, the rows they touch and its op.
    // Inlined into its caller: one function to the optimiser, as before the split
    // (a call per item or band costs dynamic exclusivity checks on the class's buffers).
    @inlinable @inline(__always)
    func prepareDraw<S2: Shader2D, S3: Shader3D>(_ d: DrawCommand, item: Int, _ scene: Scene, shader2D: S2, shader3D: S3) throws {
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
        itemRows[item] = rows.x <= rows.y ? SIMD2(rows.x, rows.y + 1) : .zero
        if triangles.count > start { appendOp(.triangles(start..<triangles.count)) }
    }

    /// The glyphs of text run `run`, item `item`: their placements, rows and op.
    // Inlined into its caller: one function to the optimiser, as before the split
    // (a call per item or band costs dynamic exclusivity checks on the class's buffers).
    @inlinable @inline(__always)
    func prepareText(_ run: TextRun, item: Int, provider: GlyphProvider) {
        let start = placements.count
        layout(run, provider: provider)
        var rows = SIMD2<Int32>(Int32(height), 0)
        for p in placements[start...] {
            rows.x = min(rows.x, Int32(clamping: max(p.y, 0)))
            rows.y = max(rows.y, Int32(clamping: min(p.y + glyphs[p.glyph].height, height)))
        }
        itemRows[item] = rows.x < rows.y ? rows : .zero
        if placements.count > start { appendOp(.glyphs(start..<placements.count)) }
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
}
