import CKernels
import SpecvizCore

/// Scrolling: a frame whose first layer says it scrolled (`LayerDamage.scrolled`) and whose
/// draws are, after a few new ones, the kept picture's draws moved by a whole number of
/// pixel rows (the full-resolution spectrogram's history: one hop, one row down) starts
/// from the kept picture moved by those rows and draws only the new ones.
///
/// Moved exactly: every vertex the same but for its screen y, which is, snapped to 1/256 px
/// as triangle setup snaps it, the same whole number of rows lower, and every vertex inside
/// the frame (so that no triangle is clipped). Setup works from differences and from the
/// triangle's own anchor pixel, so it then gives the same triangles that many rows lower,
/// covering the same pixels with the same colours. The kept picture is the clear colour and
/// the kept draws (no background picture): moved, its rows that no moved draw covers are
/// the clear colour again, and the new draws must not share a row with the moved ones (so
/// that the order they blend in does not matter).
extension Rasterizer {
    @usableFromInline struct Scroll {
        /// Items 0..<fresh are drawn; items `moved` are the kept picture's first
        /// `moved.count` items, `rows` pixel rows lower (higher when negative), where they
        /// cover the rows `span` (`movedRows`, worked out once).
        @usableFromInline var fresh: Int
        @usableFromInline var moved: Range<Int>
        @usableFromInline var rows: Int
        @usableFromInline var span: Range<Int>

        @usableFromInline init(fresh: Int, moved: Range<Int>, rows: Int, span: Range<Int>) {
            self.fresh = fresh
            self.moved = moved
            self.rows = rows
            self.span = span
        }
    }

    /// The scroll from the kept picture (of the previous frame's first `kept` items) to
    /// `scene`, if there is one: up to 4 new draws, then at least half of the kept draws
    /// moved, the rest of the kept items in rows that no moved draw covers.
    @inlinable
    func findScroll<S2: Shader2D>(_ scene: Scene, kept: Int, shader2D: S2) -> Scroll? {
        let old = memory.items
        guard kept > 0, kept <= old.count, kept <= memory.itemRows.count, scene.items.count > 1 else { return nil }
        for j in 0..<kept where memory.itemRows[j] == FrameMemory.unknownRows { return nil }
        for fresh in 1...min(4, scene.items.count - 1) {
            var rows = Int32.min
            var m = 0
            while m < kept && fresh + m < scene.items.count {
                guard case .draw(let a) = old[m], case .draw(let b) = scene.items[fresh + m],
                    a.pipeline == .flat2D, b.pipeline == .flat2D, a.count == b.count, a.count > 0,
                    bits(a.mvp) == bits(b.mvp), moved(a, b, scene, shader2D: shader2D, rows: &rows)
                else { break }
                m += 1
            }
            guard m > 0, m * 2 >= kept, rows != 0, rows != Int32.min else { continue }
            // The rows the moved draws cover, and those of the kept items left behind.
            let t = Int(rows)
            let span = movedRows(0..<m, by: t)
            if !(m..<kept).contains(where: { shifted(memory.itemRows[$0], by: t).overlaps(span) }) {
                return Scroll(fresh: fresh, moved: fresh..<(fresh + m), rows: t, span: span)
            }
        }
        return nil
    }

    /// Prepares the items of `scene` that `scroll` does not move (the new ones, then the
    /// rest) and moves the kept picture; false (nothing moved: prepare the scene as usual)
    /// when a new draw shares a row with the moved ones.
    @inlinable
    func prepareScroll<S2: Shader2D, S3: Shader3D>(
        _ scroll: Scroll, _ scene: Scene, clear: UInt32, shader2D: S2, shader3D: S3, glyphProvider: GlyphProvider?
    ) throws -> Bool {
        try prepare(
            scene, skipping: scroll.moved, split: scroll.moved.upperBound, shader2D: shader2D, shader3D: shader3D,
            glyphProvider: glyphProvider)
        guard itemRows[0..<scroll.fresh].allSatisfy({ $0.x >= $0.y || !(Int($0.x)..<Int($0.y)).overlaps(scroll.span) }) else {
            return false
        }
        // The moved items' rows are the kept ones', moved.
        for (k, j) in scroll.moved.enumerated() {
            let r = shifted(memory.itemRows[k], by: scroll.rows)
            itemRows[j] = SIMD2(Int32(r.lowerBound), Int32(r.upperBound))
        }
        moveKeptPicture(scroll, clear: clear)
        return true
    }

    /// Whether draw b of `scene` is the previous frame's draw a moved by `rows` rows (found
    /// from the first vertex when Int32.min). Only for a 2D shader that passes positions
    /// through (the vertices are compared as they are); any other never scrolls.
    @inlinable
    func moved<S2: Shader2D>(_ a: DrawCommand, _ b: DrawCommand, _ scene: Scene, shader2D: S2, rows: inout Int32) -> Bool {
        guard shader2D.passesPositionThrough, MemoryLayout<Vertex2D>.stride == 32, a.first >= 0, b.first >= 0,
            a.first + a.count <= memory.vertices2D.count, b.first + b.count <= scene.vertices2D.count
        else { return false }
        var r = rows
        let same = memory.vertices2D.withUnsafeBytes { pa in
            scene.vertices2D.withUnsafeBytes { pb in
                spv_moved_rows_2d(pa.baseAddress! + a.first * 32, pb.baseAddress! + b.first * 32, Int32(a.count), Int32(height), &r)
            }
        }
        rows = r
        return same != 0
    }

    /// The rows the kept items `items` cover, `t` rows lower, as one range (clamped to the frame).
    @inlinable
    func movedRows(_ items: Range<Int>, by t: Int) -> Range<Int> {
        var lo = Int.max, hi = Int.min
        for j in items {
            let r = shifted(memory.itemRows[j], by: t)
            if r.isEmpty { continue }
            lo = min(lo, r.lowerBound)
            hi = max(hi, r.upperBound)
        }
        return lo < hi ? lo..<hi : 0..<0
    }

    /// Rows r (lower..<upper) moved `t` rows and clamped to the frame.
    @inlinable
    func shifted(_ r: SIMD2<Int32>, by t: Int) -> Range<Int> {
        guard r.x < r.y else { return 0..<0 }
        let lo = max(0, Int(r.x) + t), hi = min(height, Int(r.y) + t)
        return lo < hi ? lo..<hi : 0..<0
    }

    /// Moves the kept picture's rows of the moved draws `scroll.rows` rows, and paints
    /// `clear` over every other row (the kept picture then holds the clear colour and the
    /// moved draws: the kept items left behind lie in other rows, checked by `findScroll`).
    @inlinable
    func moveKeptPicture(_ scroll: Scroll, clear: UInt32) {
        let w = width, h = height, t = scroll.rows, span = scroll.span
        memory.pixels.withUnsafeMutableBufferPointer { kp in
            let base = kp.baseAddress!
            func paint(_ lo: Int, _ hi: Int) {
                if lo < hi { spv_fill32(base + lo * w, clear, Int64((hi - lo) * w)) }
            }
            if !span.isEmpty {
                UnsafeMutableRawPointer(base + span.lowerBound * w)
                    .copyMemory(from: base + (span.lowerBound - t) * w, byteCount: span.count * w * 4)
            }
            paint(0, span.lowerBound)
            paint(max(span.lowerBound, span.upperBound), h)
        }
    }
}
