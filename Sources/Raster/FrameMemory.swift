import SpecvizCore

/// What a frame leaves for the next one when `Rasterizer.reusesUnchangedPrefix` is on: its
/// items and vertices (to find how many leading items the next scene shares with it) and
/// the picture as it stood after the first `split` items (the clear, then those items).
///
/// A frame whose first `split` items are the same as the previous frame's, bit for bit,
/// starts from that picture and draws only the rest: the same pixels as drawing it all,
/// since every pixel depends only on the items drawn before it, in order. The
/// spectrogram's history takes a new row every third video frame (`VisualState.scrollEvery`),
/// so two frames in three share its whole grid with the one before and draw only the
/// waveform strip, the labels and the overlays (the 3D waterfall moves on every frame).
@usableFromInline
struct FrameMemory {
    @usableFromInline init() {}

    /// The previous frame's scene (copied into buffers kept across frames).
    @usableFromInline var items: [Scene.Item] = []
    @usableFromInline var vertices2D: [Vertex2D] = []
    var vertices3D: [Vertex3D] = []
    /// Everything else the previous frame's pixels depended on but the background (a new
    /// one forgets the picture): size, clear colour and the shaders.
    var key: Key? = nil
    /// The picture after the first `split` items of the frame that took it (0: none).
    @usableFromInline var pixels: [UInt32] = []
    @usableFromInline var split = 0
    /// Where the next picture is taken: the shared prefix last seen, kept across a frame
    /// that shares nothing (a new history row), so that the next one can start from it.
    var goal = 0
    /// The rows each of the previous frame's items touched (`Rasterizer.itemRows`).
    @usableFromInline var itemRows: [SIMD2<Int32>] = []
    /// Whether the frame being drawn follows the previous one with the same key (its
    /// changed rows can be worked out), and how many leading items the two share.
    @usableFromInline var follows = false
    @usableFromInline var shared = 0
    /// An item's rows not worked out (`Rasterizer.itemRows`).
    @usableFromInline static let unknownRows = SIMD2<Int32>(-1, -1)

    struct Key: Equatable {
        var width: Int
        var height: Int
        var clear: SIMD4<UInt32>
        var shader2D: ObjectIdentifier
        var shader3D: ObjectIdentifier
        var light: SIMD4<UInt32>
    }

    /// Forgets the picture (a new background).
    mutating func forget() {
        key = nil
        split = 0
    }

    /// Which leading items of `scene` come from the kept picture (`restore`, 0: none) and,
    /// when none do, after how many items this frame keeps its picture for the next ones
    /// (`keepAt`, 0: it keeps none; `pixels` is then sized for it). Items drawn after a
    /// kept picture must not be 3D (a picture is kept without its depth buffer).
    /// - Parameter unchanged: leading items the caller vouches are the previous frame's, bit
    ///   for bit and at the same place in the vertex arrays (`Rasterizer.unchangedItems`);
    ///   they are not compared (in debug builds they are, to check the caller's word).
    @usableFromInline mutating func plan(
        _ scene: Scene, shader2D: ObjectIdentifier, shader3D: ObjectIdentifier, light: SIMD3<Float>?, unchanged: Int = 0
    ) -> (restore: Int, keepAt: Int) {
        let l = light ?? SIMD3(repeating: .nan)
        let key = Key(
            width: scene.width, height: scene.height, clear: bits(scene.clearColor), shader2D: shader2D, shader3D: shader3D,
            light: bits(SIMD4(l, 0)))
        // The last 3D draw, and everything before it, must be drawn or restored.
        var after3D = 0
        for (i, item) in scene.items.enumerated() {
            if case .draw(let d) = item, d.pipeline == .lit3D { after3D = i + 1 }
        }
        follows = self.key == key
        shared = follows ? sharedItems(with: scene, from: unchanged) : 0
        if self.key != key { split = 0 }
        self.key = key
        if split > 0 && shared >= split && split >= after3D && pixels.count == scene.width * scene.height {
            return (split, 0)
        }
        if shared >= max(1, after3D) { goal = shared }
        if goal < after3D || goal > scene.items.count { goal = after3D }
        split = 0
        if goal > 0 && pixels.count != scene.width * scene.height {
            pixels = [UInt32](repeating: 0, count: scene.width * scene.height)
        }
        return (0, goal)
    }

    /// Gives the first `count` items of the frame being drawn the rows of the previous
    /// frame's (they are the same items).
    @usableFromInline func copyRows(of count: Int, into rows: inout [SIMD2<Int32>]) {
        for i in 0..<min(count, itemRows.count, rows.count) { rows[i] = itemRows[i] }
    }

    /// The rows of `scene`'s frame that may differ from the previous frame's (after `plan`,
    /// before `keep`): those of every item, in either frame, that is not the same as the
    /// other frame's item at its place. All when the frames do not follow one another or
    /// an item's rows are not known.
    @usableFromInline func changedRows(_ scene: Scene, rows: [SIMD2<Int32>]) -> ChangedRows {
        guard follows else { return .all }
        var changed = ChangedRows.none
        for i in shared..<max(items.count, scene.items.count) {
            let old = i < items.count, new = i < scene.items.count
            if old && new && same(scene.items[i], scene, items[i]) { continue }
            let a = old ? itemRows[i] : .zero, b = new ? rows[i] : .zero
            if a == FrameMemory.unknownRows || b == FrameMemory.unknownRows { return .all }
            changed.insert(Int(a.x)..<Int(a.y))
            changed.insert(Int(b.x)..<Int(b.y))
        }
        return changed
    }

    /// How many leading items `scene` shares with the previous frame, bit for bit (draws:
    /// pipeline, transform and every vertex; text runs: the same run), of which the first
    /// `known` are known to be shared.
    func sharedItems(with scene: Scene, from known: Int = 0) -> Int {
        let n = min(items.count, scene.items.count)
        var k = min(max(0, known), n)
        #if DEBUG || SPECVIZ_CHECKS
        // A mode's damage key is trusted in a plain release build; the tests (built with
        // -DSPECVIZ_CHECKS by scripts/test.sh) compare anyway, so a wrong key fails them.
        precondition((0..<k).allSatisfy { same(scene.items[$0], scene, items[$0]) }, "an item said to be unchanged has changed")
        #endif
        while k < n && same(scene.items[k], scene, items[k]) { k += 1 }
        return k
    }

    private func same(_ a: Scene.Item, _ scene: Scene, _ b: Scene.Item) -> Bool {
        switch (a, b) {
        case (.text(let x), .text(let y)):
            return x == y
        case (.draw(let x), .draw(let y)):
            // Draws also keep their place in the vertex arrays, so that a frame drawn from the
            // kept picture need not copy the vertices it shares again (`keep`).
            guard x.pipeline == y.pipeline, x.first == y.first, x.count == y.count, bits(x.mvp) == bits(y.mvp) else {
                return false
            }
            if x.pipeline == .lit3D { return FrameMemory.same(scene.vertices3D, x.first, vertices3D, y.first, x.count) }
            return FrameMemory.same(scene.vertices2D, x.first, vertices2D, y.first, x.count)
        default:
            return false
        }
    }

    /// Whether a[i..<i+count] and b[j..<j+count] hold the same bits in every component
    /// (`V.meaningful` masks each 16-byte part: the padding of a SIMD3 or after a SIMD2
    /// holds whatever was there); false when a range is outside its array (`prepare` then
    /// reports the bad draw).
    private static func same<V: KeptVertex>(_ a: [V], _ i: Int, _ b: [V], _ j: Int, _ count: Int) -> Bool {
        guard i >= 0, j >= 0, count >= 0, i + count <= a.count, j + count <= b.count else { return false }
        let stride = MemoryLayout<V>.stride
        precondition(stride == 32 || stride == 48)
        let (m0, m1, m2) = V.meaningful
        return a.withUnsafeBytes { ra in
            b.withUnsafeBytes { rb in
                var pa = ra.baseAddress! + i * stride, pb = rb.baseAddress! + j * stride
                var left = count
                while left > 0 {
                    // A run of vertices, one branch at its end.
                    let run = min(left, 64)
                    var diff = SIMD4<UInt32>.zero
                    for _ in 0..<run {
                        @inline(__always) func part(_ k: Int) -> SIMD4<UInt32> {
                            pa.loadUnaligned(fromByteOffset: 16 * k, as: SIMD4<UInt32>.self)
                                ^ pb.loadUnaligned(fromByteOffset: 16 * k, as: SIMD4<UInt32>.self)
                        }
                        diff |= (part(0) & m0) | (part(1) & m1)
                        if stride == 48 { diff |= part(2) & m2 }
                        pa += stride
                        pb += stride
                    }
                    if diff != .zero { return false }
                    left -= run
                }
                return true
            }
        }
    }

    /// After a frame drawn as `plan` said: keeps `scene` for the next frame's comparison (no
    /// allocation once the buffers have grown to the scene's size) and notes the picture
    /// kept after `keptAt` items. When the frame was drawn from the kept picture, its first
    /// `restored` items are the kept ones, vertex for vertex and at the same place: the part
    /// of each vertex array they tile from the start is already here and is not copied again.
    @usableFromInline mutating func keep(_ scene: Scene, rows: [SIMD2<Int32>], restored: Int, keptAt: Int) {
        if keptAt > 0 { split = keptAt }
        var same2D = 0, same3D = 0
        for item in scene.items[..<restored] {
            guard case .draw(let d) = item else { continue }
            if d.pipeline == .lit3D {
                if d.first == same3D { same3D += d.count }
            } else if d.first == same2D {
                same2D += d.count
            }
        }
        items.removeAll(keepingCapacity: true)
        items.append(contentsOf: scene.items)
        itemRows.removeAll(keepingCapacity: true)
        itemRows.append(contentsOf: rows)
        FrameMemory.keep(scene.vertices2D, in: &vertices2D, from: same2D)
        FrameMemory.keep(scene.vertices3D, in: &vertices3D, from: same3D)
    }

    /// Makes `kept` a copy of `vertices`, whose first `same` are already there.
    private static func keep<V>(_ vertices: [V], in kept: inout [V], from same: Int) {
        let start = min(same, kept.count, vertices.count)
        kept.removeLast(kept.count - start)
        kept.append(contentsOf: vertices[start...])
    }
}

/// A vertex type whose bits `FrameMemory` compares: 32 or 48 bytes, and which bits of
/// each 16-byte part are components.
protocol KeptVertex {
    static var meaningful: (SIMD4<UInt32>, SIMD4<UInt32>, SIMD4<UInt32>) { get }
}

extension Vertex3D: KeptVertex {
    /// position (x, y, z, padding), normal (x, y, z, padding), colour.
    static var meaningful: (SIMD4<UInt32>, SIMD4<UInt32>, SIMD4<UInt32>) {
        (SIMD4(~0, ~0, ~0, 0), SIMD4(~0, ~0, ~0, 0), SIMD4(repeating: ~0))
    }
}

extension Vertex2D: KeptVertex {
    /// position (x, y, then padding), colour (the third part is not there).
    static var meaningful: (SIMD4<UInt32>, SIMD4<UInt32>, SIMD4<UInt32>) {
        (SIMD4(~0, ~0, 0, 0), SIMD4(repeating: ~0), .zero)
    }
}

@inline(__always) @usableFromInline func bits(_ v: SIMD4<Float>) -> SIMD4<UInt32> {
    SIMD4(v.x.bitPattern, v.y.bitPattern, v.z.bitPattern, v.w.bitPattern)
}

@inline(__always) @usableFromInline func bits(_ m: Mat4) -> SIMD16<UInt32> {
    let a = bits(m.c0), b = bits(m.c1), c = bits(m.c2), d = bits(m.c3)
    return SIMD16(lowHalf: SIMD8(lowHalf: a, highHalf: b), highHalf: SIMD8(lowHalf: c, highHalf: d))
}
