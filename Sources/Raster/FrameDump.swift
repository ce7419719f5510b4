import SpecvizCore

/// The frame dump of SPEC §10: the exact triangle list a frame was rasterised from, so
/// another renderer can draw the same frame. Little-endian:
///
///     "SVZF", u32 version = 1, u32 width, u32 height, f32 clear r g b a, u32 drawCount,
///     per draw: u32 pipeline (0 = 2D, 1 = 3D lit), u32 vertexCount, f32 mvp[16] (column-major),
///               then the vertices: 2D 32 bytes (x y pad pad r g b a),
///               3D 48 bytes (x y z pad nx ny nz pad r g b a).
///
/// Text runs are not part of the dump (render with `--no-labels` to compare). Draws that
/// follow one another with the same pipeline and transform are written as one (the
/// rasteriser walks them as one run too; the full-resolution spectrogram's rows are one draw
/// each): the triangles and their order are the same.
public enum FrameDump {
    public static let version: UInt32 = 1

    public static func encode(_ scene: Scene) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(64 + scene.vertices2D.count * 32 + scene.vertices3D.count * 48)
        func u32(_ v: UInt32) { withUnsafeBytes(of: v.littleEndian) { out.append(contentsOf: $0) } }
        func f32(_ v: Float) { u32(v.bitPattern) }
        out.append(contentsOf: Array("SVZF".utf8))
        u32(version)
        u32(UInt32(scene.width))
        u32(UInt32(scene.height))
        for i in 0..<4 { f32(scene.clearColor[i]) }
        // Runs of draws with the same pipeline and transform.
        var runs: [[DrawCommand]] = []
        for item in scene.items {
            guard case .draw(let d) = item else { continue }
            if let last = runs.last?.last, last.pipeline == d.pipeline, last.mvp.elements.map(\.bitPattern) == d.mvp.elements.map(\.bitPattern) {
                runs[runs.count - 1].append(d)
            } else {
                runs.append([d])
            }
        }
        u32(UInt32(runs.count))
        for run in runs {
            let first = run[0]
            u32(first.pipeline.rawValue)
            u32(UInt32(run.reduce(0) { $0 + $1.count }))
            for e in first.mvp.elements { f32(e) }
            for d in run {
                switch d.pipeline {
                case .flat2D:
                    for v in scene.vertices2D[d.first..<(d.first + d.count)] {
                        f32(v.position.x); f32(v.position.y); f32(0); f32(0)
                        for i in 0..<4 { f32(v.color[i]) }
                    }
                case .lit3D:
                    for v in scene.vertices3D[d.first..<(d.first + d.count)] {
                        f32(v.position.x); f32(v.position.y); f32(v.position.z); f32(0)
                        f32(v.normal.x); f32(v.normal.y); f32(v.normal.z); f32(0)
                        for i in 0..<4 { f32(v.color[i]) }
                    }
                }
            }
        }
        return out
    }

    /// Parses a dump back into a scene (for tests and cross-checks).
    public static func decode(_ bytes: [UInt8]) throws -> Scene {
        var pos = 0
        func u32() throws -> UInt32 {
            guard pos + 4 <= bytes.count else { throw RenderError.truncatedFrameDump }
            let v = UInt32(bytes[pos]) | UInt32(bytes[pos + 1]) << 8 | UInt32(bytes[pos + 2]) << 16 | UInt32(bytes[pos + 3]) << 24
            pos += 4
            return v
        }
        func f32() throws -> Float { Float(bitPattern: try u32()) }
        guard bytes.count >= 4, Array(bytes[0..<4]) == Array("SVZF".utf8) else { throw RenderError.notFrameDump }
        pos = 4
        guard try u32() == version else { throw RenderError.unsupportedFrameDumpVersion }
        let w = Int(try u32()), h = Int(try u32())
        var scene = Scene(width: w, height: h, clearColor: SIMD4(try f32(), try f32(), try f32(), try f32()))
        let draws = try u32()
        for _ in 0..<draws {
            let pipeline = try u32()
            let count = Int(try u32())
            var m = [Float]()
            for _ in 0..<16 { m.append(try f32()) }
            let mvp = Mat4(
                SIMD4(m[0], m[1], m[2], m[3]), SIMD4(m[4], m[5], m[6], m[7]),
                SIMD4(m[8], m[9], m[10], m[11]), SIMD4(m[12], m[13], m[14], m[15]))
            if pipeline == 0 {
                scene.begin2D()
                for _ in 0..<count {
                    let x = try f32(), y = try f32(); _ = try f32(); _ = try f32()
                    scene.vertices2D.append(Vertex2D(SIMD2(x, y), SIMD4(try f32(), try f32(), try f32(), try f32())))
                }
                scene.end2D()
            } else {
                scene.begin3D(mvp: mvp)
                for _ in 0..<count {
                    let p = SIMD3(try f32(), try f32(), try f32()); _ = try f32()
                    let n = SIMD3(try f32(), try f32(), try f32()); _ = try f32()
                    scene.vertices3D.append(Vertex3D(p, n, SIMD4(try f32(), try f32(), try f32(), try f32())))
                }
                scene.end3D()
            }
        }
        return scene
    }
}
