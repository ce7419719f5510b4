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
    /// Start a frame from the previous one's picture where the scene's leading layers say
    /// they are `unchanged` (`Scene.layers`, `FrameMemory`): the same pixels, without
    /// drawing those items again; and report the rows of the layers that changed
    /// (`lastChangedRows`). For a sequence of frames rendered with the same shaders (a
    /// video, the live view); off by default, so that a benchmark of one scene drawn again
    /// and again draws all of it. Costs a copy of the picture after the leading layers that
    /// may repeat, and one frame of pixels.
    public var reusesUnchangedPrefix = false {
        didSet { if !reusesUnchangedPrefix { memory = FrameMemory() } }
    }
    @usableFromInline var memory = FrameMemory()
    /// The layers of the scene being drawn, covering every item (`coverLayers`).
    @usableFromInline var layers: [SceneLayer] = []
    /// Leading items of the last frame taken from the previous frame's picture (0: all drawn).
    public var lastReusedItems: Int { reusedItems }
    @usableFromInline var reusedItems = 0
    /// Leading items of the last frame after which its picture was kept for the next
    /// frames (0: none kept; a frame drawn from the kept picture keeps that one).
    public var lastKeptItems: Int { keptItems }
    @usableFromInline var keptItems = 0
    /// The rows of the last frame that may differ from the frame before it (`all` unless
    /// `reusesUnchangedPrefix` is on and the two frames had the same size, clear colour,
    /// shaders, background and number of layers): the rows of every item, in either
    /// frame, of a layer that is not `unchanged`. Every other pixel saw the same items in
    /// the same order, so it is the same.
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
        sizeBuffers(width: scene.width, height: scene.height)
        coverLayers(scene)
        var plan = try prepareFrame(scene, shader2D: shader2D, shader3D: shader3D, glyphProvider: glyphProvider)
        changedRows = .all
        if reusesUnchangedPrefix {
            // The restored items are the previous frame's, at the same rows.
            memory.copyRows(of: plan.restore, into: &itemRows)
            changedRows = memory.changedRows(layers: layers, rows: itemRows)
        }
        changes.record(changedRows)
        // The rows `target` must be drawn in: those changed since the frame it holds.
        plan.stale = held.flatMap { $0.rasterizer == identity ? changes.since($0.frame) : nil } ?? .all
        plan.backdrop = background.flatMap { $0.width == scene.width && $0.height == scene.height ? $0.pixels : nil }
        plan.finish(scene, ops: ops[0..<opsSplit])
        drawBands(plan, into: &target, shader2D: shader2D, shader3D: shader3D)
        reusedItems = plan.restore
        keptItems = plan.keepAt
        movedItems = plan.scroll?.moved.count ?? 0
        if reusesUnchangedPrefix {
            // Vertices are kept while the first layer may scroll next (`findScroll` moves
            // the kept draws): it scrolled, or stayed since it did.
            let first = layers.first?.damage
            let vertices = first == .scrolled || (first == .unchanged && memory.keptVertices)
            memory.keep(scene, layers: layers, rows: itemRows, restored: plan.restore, keptAt: plan.keepAt, vertices: vertices)
        }
    }

    /// Fills `layers` with the scene's layers, in order and covering every item: items no
    /// layer covers, and a layer that overlaps the one before or runs past the items, count
    /// as changing on every frame.
    @inlinable
    func coverLayers(_ scene: Scene) {
        layers.removeAll(keepingCapacity: true)
        let n = scene.items.count
        var next = 0
        for layer in scene.layers {
            let lo = min(max(layer.items.lowerBound, next), n), hi = min(max(layer.items.upperBound, lo), n)
            if lo > next { layers.append(SceneLayer(items: next..<lo, damage: .everyFrame)) }
            let whole = lo == layer.items.lowerBound && hi == layer.items.upperBound
            layers.append(SceneLayer(items: lo..<hi, damage: whole ? layer.damage : .everyFrame))
            next = hi
        }
        if next < n { layers.append(SceneLayer(items: next..<n, damage: .everyFrame)) }
    }

    /// Sizes the depth buffer and the coarse depth tiles for a frame of this size.
    @inlinable
    func sizeBuffers(width: Int, height: Int) {
        self.width = width
        self.height = height
        if depth.count != width * height { depth = [Float](repeating: 1, count: width * height) }
        let tiles = ((width + 7) / 8) * ((height + 7) / 8)
        if hizMax.count != tiles {
            hizMax = [Float](repeating: 1, count: tiles)
            hizDirty = [UInt8](repeating: 0, count: tiles)
        }
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
}
