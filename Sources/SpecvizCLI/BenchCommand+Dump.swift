import ArgumentParser
import Foundation
import Raster
import ShadersCPU
import Specviz
import SpecvizCore

extension BenchCommand {
    /// `bench --dump F.svzf`: times `Rasterizer.render` alone on the triangles of a frame dump,
    /// so the figure compares directly with `svzf_render --time` (llvmpipe) on the same file.
    /// Prints CPU ms per frame (process CPU time: all rasteriser threads) and wall ms per frame.
    func benchDump(path: String) throws {
        guard frames > 0 else { throw ValidationError("--frames must be at least 1") }
        guard (1...LookOptions.maxThreads).contains(threads) else { throw ValidationError("--threads must be 1…\(LookOptions.maxThreads) (got \(threads))") }
        guard let data = FileManager.default.contents(atPath: path) else {
            throw RenderError.unreadableFrameDump(path: path)
        }
        let scene: Scene
        do { scene = try FrameDump.decode([UInt8](data)) } catch let e as RenderError {
            throw RenderError.inFrameDump(path: path, e)
        }
        guard (1...16384).contains(scene.width), (1...16384).contains(scene.height) else {
            throw RenderError.frameDumpSize(path: path, width: scene.width, height: scene.height)
        }
        #if DEBUG
        print("warning: this is a debug build; measure with `swift build -c release`")
        #endif
        Rasterizer.forceBaselineKernel(baselineKernel)
        let rasterizer = Rasterizer(threads: threads)
        var picture = PixelBuffer(width: scene.width, height: scene.height)
        let flat = FlatShader(), lit = LitShader()
        for _ in 0..<10 { try rasterizer.render(scene, into: &picture, shader2D: flat, shader3D: lit) }
        let c0 = processCPUSeconds(), w0 = monotonicSeconds()
        for _ in 0..<frames { try rasterizer.render(scene, into: &picture, shader2D: flat, shader3D: lit) }
        let cpu = processCPUSeconds() - c0, wall = monotonicSeconds() - w0
        let tris = (scene.vertices2D.count + scene.vertices3D.count) / 3
        print("\(path): \(scene.width)x\(scene.height), \(tris) triangles, \(threads) thread(s), kernel \(Rasterizer.kernelName)")
        print(
            String(
                format: "time: %d frames, wall %.3f ms/frame, cpu %.3f ms/frame",
                frames, wall / Double(frames) * 1000, cpu / Double(frames) * 1000))
    }
}
