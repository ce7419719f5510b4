/// Which pipeline a draw goes through (the `pipeline` field of the frame dump).
public enum PipelineKind: UInt32, Sendable {
    /// Pass-through 2D: clip-space positions, interpolated colour, alpha blending, no depth.
    case flat2D = 0
    /// Lit 3D: MVP transform, Lambert lighting, depth test LESS, no blending.
    case lit3D = 1
}

/// One draw call: a contiguous range of one of the scene's vertex arrays.
public struct DrawCommand: Equatable, Sendable {
    public var pipeline: PipelineKind
    /// First vertex in `Scene.vertices2D` or `Scene.vertices3D`.
    public var first: Int
    /// Number of vertices (a multiple of 3: triangle lists).
    public var count: Int
    /// Model-view-projection (identity for 2D).
    public var mvp: Mat4

    public init(pipeline: PipelineKind, first: Int, count: Int, mvp: Mat4 = .identity) {
        self.pipeline = pipeline
        self.first = first
        self.count = count
        self.mvp = mvp
    }
}

/// A run of text placed in picture coordinates (pixels, y down). Drawn after
/// the triangle draws that precede it in `Scene.items`.
public struct TextRun: Equatable, Sendable {
    public enum Anchor: Sendable { case left, center, right }
    public var text: String
    /// Baseline origin in pixels (x of the anchor, y of the baseline).
    public var origin: SIMD2<Float>
    /// Pixel size (em height).
    public var size: Float
    public var color: SIMD4<Float>
    public var anchor: Anchor

    public init(_ text: String, at origin: SIMD2<Float>, size: Float, color: SIMD4<Float>, anchor: Anchor = .left) {
        self.text = text
        self.origin = origin
        self.size = size
        self.color = color
        self.anchor = anchor
    }
}

/// Everything one video frame is made of, in submission order. Mode builders
/// append to it; the rasteriser consumes it. Reused across frames: `removeAll`
/// keeps the capacity so nothing is reallocated per frame.
public struct Scene: Sendable {
    public enum Item: Equatable, Sendable {
        case draw(DrawCommand)
        case text(TextRun)
    }

    public var width: Int
    public var height: Int
    public var clearColor: SIMD4<Float>
    public var vertices2D: [Vertex2D] = []
    public var vertices3D: [Vertex3D] = []
    public var items: [Item] = []
    /// The frame's layers in order (`LayerDamage`): each part that builds items marks its
    /// run of them with what changed since the frame before. Items no layer covers count
    /// as changing on every frame.
    public var layers: [SceneLayer] = []

    public init(width: Int, height: Int, clearColor: SIMD4<Float> = SIMD4(0, 0, 0, 1)) {
        self.width = width
        self.height = height
        self.clearColor = clearColor
    }

    /// Empties the scene for the next frame, keeping every buffer's capacity.
    public mutating func reset(width: Int, height: Int) {
        self.width = width
        self.height = height
        vertices2D.removeAll(keepingCapacity: true)
        vertices3D.removeAll(keepingCapacity: true)
        items.removeAll(keepingCapacity: true)
        layers.removeAll(keepingCapacity: true)
    }

    /// Marks the items added since item `first` as one layer with `damage` (an empty one
    /// when none were added: a frame's layers are the same parts in the same order on
    /// every frame, so that layer k is compared with the frame before's layer k).
    public mutating func markLayer(from first: Int, damage: LayerDamage) {
        layers.append(SceneLayer(items: min(first, items.count)..<items.count, damage: damage))
    }

    /// Width / height.
    public var aspect: Float { Float(width) / Float(max(height, 1)) }

    // MARK: Building draws

    private var open2D: Int? = nil
    private var open3D: (Int, Mat4)? = nil

    /// Starts a 2D draw; vertices appended to `vertices2D` until `end2D()` belong to it.
    public mutating func begin2D() {
        precondition(open2D == nil && open3D == nil, "a draw is already open")
        open2D = vertices2D.count
    }

    /// Closes the open 2D draw and records it. Empty draws are dropped.
    public mutating func end2D() {
        guard let first = open2D else { preconditionFailure("no 2D draw is open") }
        open2D = nil
        let count = vertices2D.count - first
        guard count > 0 else { return }
        items.append(.draw(DrawCommand(pipeline: .flat2D, first: first, count: count)))
    }

    public mutating func begin3D(mvp: Mat4) {
        precondition(open2D == nil && open3D == nil, "a draw is already open")
        open3D = (vertices3D.count, mvp)
    }

    public mutating func end3D() {
        guard let (first, mvp) = open3D else { preconditionFailure("no 3D draw is open") }
        open3D = nil
        let count = vertices3D.count - first
        guard count > 0 else { return }
        items.append(.draw(DrawCommand(pipeline: .lit3D, first: first, count: count, mvp: mvp)))
    }

    /// Moves what was added since `vertex`/`item` (2D vertices and text) into a band of the
    /// frame: clip y ↦ `offset` + `scale`·y; text baselines (pixels) y ↦ `textOffset` + y, or
    /// for a negative `scale` (a mirrored band) `textOffset` − y, the text itself kept upright.
    public mutating func place2D(fromVertex vertex: Int, fromItem item: Int, scale: Float, offset: Float, textOffset: Float) {
        for i in vertex..<vertices2D.count { vertices2D[i].position.y = offset + scale * vertices2D[i].position.y }
        for i in item..<items.count {
            if case .text(var run) = items[i] {
                run.origin.y = scale < 0 ? textOffset - run.origin.y + run.size * 0.7 : textOffset + run.origin.y
                items[i] = .text(run)
            }
        }
    }

    /// Adds `amount` to the red, green and blue of every vertex (the beat flash), after the
    /// frame is built.
    public mutating func brighten(by amount: Float) {
        let boost = SIMD4<Float>(amount, amount, amount, 0)
        for i in vertices2D.indices { vertices2D[i].color += boost }
        for i in vertices3D.indices { vertices3D[i].color += boost }
    }

    public mutating func addText(_ run: TextRun) {
        items.append(.text(run))
    }

    // MARK: Primitive helpers (all append triangles to vertices2D)

    /// Axis-aligned quad in clip space with a vertical gradient (`bottom` colour at y0, `top` at y1).
    @inlinable
    public mutating func quad(x0: Float, y0: Float, x1: Float, y1: Float, bottom: SIMD4<Float>, top: SIMD4<Float>) {
        vertices2D.append(Vertex2D(SIMD2(x0, y0), bottom))
        vertices2D.append(Vertex2D(SIMD2(x1, y0), bottom))
        vertices2D.append(Vertex2D(SIMD2(x1, y1), top))
        vertices2D.append(Vertex2D(SIMD2(x0, y0), bottom))
        vertices2D.append(Vertex2D(SIMD2(x1, y1), top))
        vertices2D.append(Vertex2D(SIMD2(x0, y1), top))
    }

    /// Arbitrary quad a-b-c-d (in order around the quad) as two triangles, per-corner colours.
    @inlinable
    public mutating func quad(
        _ a: SIMD2<Float>, _ b: SIMD2<Float>, _ c: SIMD2<Float>, _ d: SIMD2<Float>,
        _ ca: SIMD4<Float>, _ cb: SIMD4<Float>, _ cc: SIMD4<Float>, _ cd: SIMD4<Float>
    ) {
        vertices2D.append(Vertex2D(a, ca))
        vertices2D.append(Vertex2D(b, cb))
        vertices2D.append(Vertex2D(c, cc))
        vertices2D.append(Vertex2D(a, ca))
        vertices2D.append(Vertex2D(c, cc))
        vertices2D.append(Vertex2D(d, cd))
    }

    /// A line segment from p to q extruded by ±halfWidth (clip units, measured in pixels
    /// via `pixelScale`) along its normal, so it looks equally thick in x and y.
    @inlinable
    public mutating func segment(_ p: SIMD2<Float>, _ q: SIMD2<Float>, halfWidthPixels: Float, color: SIMD4<Float>) {
        // Work in pixel space so the thickness is isotropic.
        let sx = Float(width) * 0.5, sy = Float(height) * 0.5
        let d = SIMD2((q.x - p.x) * sx, (q.y - p.y) * sy)
        let len = (d * d).sum().squareRoot()
        guard len > 0 else { return }
        let n = SIMD2(-d.y / len * halfWidthPixels / sx, d.x / len * halfWidthPixels / sy)
        quad(p - n, q - n, q + n, p + n, color, color, color, color)
    }
}
