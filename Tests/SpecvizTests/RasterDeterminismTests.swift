import Geometry
import Raster
import ShadersCPU
import Specviz
import SpecvizCore
import SpecvizTestSupport
import XCTest

/// The rasteriser's pixels do not depend on how the work is split or which span kernel ran
/// (issue 13): every mode, rendered from the same scene with 1 and 3 threads, with the
/// AVX2 and the baseline kernels, and through the shaders' per-pixel `fragment` functions
/// (no built-in kernel at all), gives the same picture bit for bit.
final class RasterDeterminismTests: XCTestCase {
    /// FlatShader / LitShader without the promise that lets the rasteriser use its kernels.
    struct PerPixel2D: Shader2D {
        let inner = FlatShader()
        func vertex(_ v: Vertex2D) -> ShadedVertex { inner.vertex(v) }
        func fragment(color: SIMD4<Float>) -> SIMD4<Float> { inner.fragment(color: color) }
    }

    struct PerPixel3D: Shader3D {
        let inner = LitShader()
        func vertex(_ v: Vertex3D, mvp: Mat4) -> ShadedVertex { inner.vertex(v, mvp: mvp) }
        func fragment(normal: SIMD3<Float>, color: SIMD4<Float>) -> SIMD4<Float> { inner.fragment(normal: normal, color: color) }
    }

    override func tearDown() {
        Rasterizer.forceBaselineKernel(false)
    }

    func render(_ scene: Scene, threads: Int, baseline: Bool) throws -> [UInt32] {
        Rasterizer.forceBaselineKernel(baseline)
        var picture = PixelBuffer(width: scene.width, height: scene.height)
        try Rasterizer(threads: threads).render(scene, into: &picture, shader2D: FlatShader(), shader3D: LitShader())
        return picture.pixels
    }

    func testEveryModeSamePixelsWhateverThreadsOrKernel() throws {
        let rate = 44100
        let tone = ToneGenerators.harmonic(f0: 220, amplitudes: [1, 0.6, 0.4, 0.3], sampleRate: rate, duration: 2)
        // 203x117: a width that is not a multiple of 8, so blocks meet the frame's right edge.
        for (w, h) in [(320, 180), (203, 117)] {
            for mode in VisualizationMode.allCases {
                let s = RenderSettings.small(mode, width: w, height: h)
                let job = RenderJob(source: BufferAudioSource(samples: tone, sampleRate: rate), settings: s, glyphs: nil)
                _ = try job.still(at: 1.5)
                let scene = job.composer.scene
                let reference = try render(scene, threads: 1, baseline: true)
                XCTAssertGreaterThan(Set(reference).count, 8, "\(mode) \(w)x\(h): the frame shows something")
                XCTAssertEqual(try render(scene, threads: 3, baseline: true), reference, "\(mode) \(w)x\(h): 3 threads, baseline")
                XCTAssertEqual(
                    try render(scene, threads: 1, baseline: false), reference,
                    "\(mode) \(w)x\(h): 1 thread, \(Rasterizer.kernelName) kernel")
                XCTAssertEqual(try render(scene, threads: 3, baseline: false), reference, "\(mode) \(w)x\(h): 3 threads, best kernel")
                var picture = PixelBuffer(width: w, height: h)
                try Rasterizer(threads: 2).render(scene, into: &picture, shader2D: PerPixel2D(), shader3D: PerPixel3D())
                XCTAssertEqual(picture.pixels, reference, "\(mode) \(w)x\(h): per-pixel fragment functions")
            }
        }
    }
}
