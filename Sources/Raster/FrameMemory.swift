import SpecvizCore

/// What a frame leaves for the next one when `Rasterizer.reusesUnchangedPrefix` is on: its
/// layers and the rows of its items (to tell the next frame's changed rows from the
/// layers' damage), its items (and its vertices when a layer may scroll, or to check the
/// layers' word in a debug build) and the picture as it stood after the first `split`
/// items (the clear, then those items).
///
/// A frame whose leading layers say they are `unchanged` starts from that picture when it
/// was kept after them, and draws only the rest: the same pixels as drawing it all, since
/// every pixel depends only on the items drawn before it, in order. The picture is kept
/// after the leading layers that may repeat (`LayerDamage.mayRepeat`): the spectrogram's
/// history takes a new row every third video frame (`VisualState.scrollEvery`), so two
/// frames in three start from its grid and draw only the waveform strip, the labels and
/// the overlays; a plot that changes on every frame (the 3D waterfall) keeps nothing.
@usableFromInline
struct FrameMemory {
    @usableFromInline init() {}

    /// The previous frame's layers and items (copied into buffers kept across frames), and
    /// its vertices when it kept them (`keep`; else empty).
    @usableFromInline var layers: [SceneLayer] = []
    @usableFromInline var items: [Scene.Item] = []
    @usableFromInline var vertices2D: [Vertex2D] = []
    var vertices3D: [Vertex3D] = []
    /// Everything else the previous frame's pixels depended on but the background (a new
    /// one forgets the picture): size, clear colour and the shaders.
    var key: Key? = nil
    /// The picture after the first `split` items of the frame that took it (0: none).
    @usableFromInline var pixels: [UInt32] = []
    @usableFromInline var split = 0
    /// Leading layers after which the next picture is kept: as many as the last frame that
    /// had unchanged ones had, kept across frames that have none (a new history row), so
    /// that the next one can start from it.
    var goal = 0
    /// The rows each of the previous frame's items touched (`Rasterizer.itemRows`).
    @usableFromInline var itemRows: [SIMD2<Int32>] = []
    /// Whether the frame being drawn follows the previous one with the same key and the
    /// same number of layers (its changed rows can be worked out), and how many leading
    /// items (whole layers) its layers say are the previous frame's.
    @usableFromInline var follows = false
    @usableFromInline var shared = 0
    /// Whether the previous frame kept its vertices (`keep`).
    @usableFromInline var keptVertices = false
    /// An item's rows not worked out (`Rasterizer.itemRows`).
    @usableFromInline static let unknownRows = SIMD2<Int32>(-1, -1)
    #if DEBUG || SPECVIZ_CHECKS
    /// The previous frame's vertices, always: to check the layers' word (apart from
    /// `vertices2D`/`vertices3D`, so that the tests run the release build's keeping).
    var checked2D: [Vertex2D] = []
    var checked3D: [Vertex3D] = []
    #endif

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

    /// Which leading items of `scene` (whose layers are `layers`, covering every item) come
    /// from the kept picture (`restore`, 0: none) and, when none do, after how many items
    /// this frame keeps its picture for the next ones (`keepAt`, 0: it keeps none; `pixels`
    /// is then sized for it): after as many leading layers as were last unchanged (`goal`),
    /// never after one that changes on every frame. Items drawn after a kept picture must
    /// not be 3D (a picture is kept without its depth buffer).
    @usableFromInline mutating func plan(
        _ scene: Scene, layers: [SceneLayer], shader2D: ObjectIdentifier, shader3D: ObjectIdentifier, light: SIMD3<Float>?
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
        follows = self.key == key && self.layers.count == layers.count
        let unchanged = follows ? unchangedLayers(layers) : 0
        shared = unchanged > 0 ? layers[unchanged - 1].items.upperBound : 0
        #if DEBUG || SPECVIZ_CHECKS
        // The layers' damage is trusted in a plain release build; the tests (built with
        // -DSPECVIZ_CHECKS by scripts/test.sh) compare anyway, so a wrong damage fails them.
        if follows { checkUnchanged(scene, layers: layers) }
        #endif
        if self.key != key { split = 0 }
        self.key = key
        if split > 0 && shared >= split && split >= after3D && pixels.count == scene.width * scene.height {
            return (split, 0)
        }
        if unchanged > 0 { goal = unchanged }
        var kept = 0
        while kept < min(goal, layers.count) && layers[kept].damage.mayRepeat { kept += 1 }
        var keepAt = kept > 0 ? layers[kept - 1].items.upperBound : 0
        if keepAt < after3D { keepAt = 0 }
        split = 0
        if keepAt > 0 && pixels.count != scene.width * scene.height {
            pixels = [UInt32](repeating: 0, count: scene.width * scene.height)
        }
        return (0, keepAt)
    }

    /// How many leading layers say they are `unchanged` (and hold the previous frame's items).
    func unchangedLayers(_ layers: [SceneLayer]) -> Int {
        var n = 0
        for (new, old) in zip(layers, self.layers) {
            guard new.damage == .unchanged, new.items == old.items else { break }
            n += 1
        }
        return n
    }

    /// Gives the first `count` items of the frame being drawn the rows of the previous
    /// frame's (they are the same items).
    @usableFromInline func copyRows(of count: Int, into rows: inout [SIMD2<Int32>]) {
        for i in 0..<min(count, itemRows.count, rows.count) { rows[i] = itemRows[i] }
    }

    /// The rows of `scene`'s frame that may differ from the previous frame's (after `plan`,
    /// before `keep`): those of every item, in either frame, of a layer that is not
    /// `unchanged`. A pixel that only unchanged layers cover saw the same items in the
    /// same order, so it is the same. All when the frames do not follow one another or an
    /// item's rows are not known.
    @usableFromInline func changedRows(layers: [SceneLayer], rows: [SIMD2<Int32>]) -> ChangedRows {
        guard follows else { return .all }
        var changed = ChangedRows.none
        for (new, old) in zip(layers, self.layers) where new.damage != .unchanged || new.items.count != old.items.count {
            for r in itemRows[old.items] {
                if r == FrameMemory.unknownRows { return .all }
                changed.insert(Int(r.x)..<Int(r.y))
            }
            for r in rows[new.items] {
                if r == FrameMemory.unknownRows { return .all }
                changed.insert(Int(r.x)..<Int(r.y))
            }
        }
        return changed
    }

    #if DEBUG || SPECVIZ_CHECKS
    /// Checks that every layer said to be `unchanged` holds the previous frame's items, bit
    /// for bit.
    func checkUnchanged(_ scene: Scene, layers: [SceneLayer]) {
        for (new, old) in zip(layers, self.layers) where new.damage == .unchanged {
            precondition(new.items.count == old.items.count, "a layer said to be unchanged has another number of items")
            for (i, j) in zip(new.items, old.items) {
                precondition(same(scene.items[i], scene, items[j]), "an item said to be unchanged has changed")
            }
        }
    }

    private func same(_ a: Scene.Item, _ scene: Scene, _ b: Scene.Item) -> Bool {
        switch (a, b) {
        case (.text(let x), .text(let y)):
            return x == y
        case (.draw(let x), .draw(let y)):
            guard x.pipeline == y.pipeline, x.count == y.count, bits(x.mvp) == bits(y.mvp) else {
                return false
            }
            if x.pipeline == .lit3D { return FrameMemory.same(scene.vertices3D, x.first, checked3D, y.first, x.count) }
            return FrameMemory.same(scene.vertices2D, x.first, checked2D, y.first, x.count)
        default:
            return false
        }
    }
    #endif

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

    /// After a frame drawn as `plan` said: keeps `scene`'s layers, items and rows for the
    /// next frame (no allocation once the buffers have grown to the scene's size) and notes
    /// the picture kept after `keptAt` items. The vertices are kept only when `vertices`
    /// (a layer may scroll); else forgotten. When
    /// the frame was drawn from the kept picture, its first `restored` items are the kept
    /// ones, vertex for vertex: the part of each vertex array they tile from the start, at
    /// the same places in both frames, is already here and is not copied again.
    @usableFromInline mutating func keep(
        _ scene: Scene, layers: [SceneLayer], rows: [SIMD2<Int32>], restored: Int, keptAt: Int, vertices: Bool
    ) {
        if keptAt > 0 { split = keptAt }
        keptVertices = vertices
        var same2D = 0, same3D = 0
        for (item, old) in zip(scene.items[..<restored], items) {
            guard case .draw(let d) = item, case .draw(let o) = old, o.first == d.first else { continue }
            if d.pipeline == .lit3D {
                if d.first == same3D { same3D += d.count }
            } else if d.first == same2D {
                same2D += d.count
            }
        }
        self.layers.removeAll(keepingCapacity: true)
        self.layers.append(contentsOf: layers)
        items.removeAll(keepingCapacity: true)
        items.append(contentsOf: scene.items)
        itemRows.removeAll(keepingCapacity: true)
        itemRows.append(contentsOf: rows)
        FrameMemory.keep(vertices ? scene.vertices2D : [], in: &vertices2D, from: same2D)
        FrameMemory.keep(vertices ? scene.vertices3D : [], in: &vertices3D, from: same3D)
        #if DEBUG || SPECVIZ_CHECKS
        FrameMemory.keep(scene.vertices2D, in: &checked2D, from: 0)
        FrameMemory.keep(scene.vertices3D, in: &checked3D, from: 0)
        #endif
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
