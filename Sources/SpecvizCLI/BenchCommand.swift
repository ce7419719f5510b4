import Analysis
import ArgumentParser
import Foundation
import Geometry
import MediaIO
import Raster
import Specviz
import SpecvizCore

struct BenchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bench",
        abstract: "Measure analysis, geometry, rasteriser, colour conversion and encoder speed (use a release build).",
        discussion: """
            Renders the bundled demo track (or --input) and prints, per stage: analysis \
            µs per hop, geometry and raster ms per frame for each mode, libswscale \
            RGBA→yuv420p ms per frame, x264 alone on the same frames, the full `render` \
            to MP4 on the same span side by side, and the end-to-end real-time factor \
            for the whole track.
            """)

    @Option(help: "Audio to render (default: examples/demo.ogg).")
    var input: String = "examples/demo.ogg"

    @Option(help: "Frame size WxH.", transform: FrameSize.option)
    var size: FrameSize = .standard

    @Option(help: "Seconds of video for the encoder comparison.")
    var seconds: Double = 5

    @Option(
        help: "Modes to time, comma-separated, or 'all'; with one mode the encoder comparison renders it.",
        transform: { $0 == "all" ? VisualizationMode.allCases : try $0.split(separator: ",").map { try VisualizationMode(parsing: String($0)) } })
    var modes: [VisualizationMode] = VisualizationMode.allCases

    @Flag(help: "Skip the encoder and end-to-end runs (stages only).")
    var stagesOnly = false

    @Option(help: "Time only the rasteriser on this frame dump (.svzf, from `render --dump-frame`).")
    var dump: String?

    @Option(help: "With --dump: timed frames (after 10 warm-up frames).")
    var frames: Int = 60

    @Option(help: "With --dump: rasteriser threads (1 = on the calling thread).")
    var threads: Int = 1

    @Flag(help: "With --dump: run the portable baseline span kernels even on an AVX2 CPU.")
    var baselineKernel = false

    func run() throws {
        if let dump { return try benchDump(path: dump) }
        let (w, h) = (size.width, size.height)
        #if DEBUG
        print("warning: this is a debug build; measure with `swift build -c release`")
        #endif
        print("specviz bench — \(w)x\(h), input \(input), \(ProcessInfo.processInfo.activeProcessorCount) cores")

        benchAnalysis()
        let glyphs = try? FreeTypeFont()
        let sample = try benchModes(glyphs: glyphs)
        if stagesOnly { return }
        try benchEncoding(sample: sample, glyphs: glyphs)
    }

    /// 1. Analysis: the spectrum analyser on noise, then the analysis benchmarks' lines.
    func benchAnalysis() {
        let analyzer = SpectrumAnalyzer(sampleRate: 44100)
        var frame = SpectrumFrame()
        let noise = (0..<2048).map { _ in Float.random(in: -0.5...0.5) }
        let hops = 5000
        let t0 = monotonicSeconds()
        noise.withUnsafeBufferPointer { buf in for _ in 0..<hops { analyzer.process(buf, into: &frame) } }
        let perHop = (monotonicSeconds() - t0) / Double(hops) * 1e6
        print(String(format: "analysis (window+FFT+bands+auto-level)  %7.2f µs per 2048-sample hop", perHop))
        for line in SpectrumBenchmark.lines() { print(line) }
        for line in ExtraBenchmarks.lines() { print(line) }
    }

    /// 2. Each mode: geometry and raster per frame. Returns a picture for the encoder's runs.
    func benchModes(glyphs: GlyphProvider?) throws -> PixelBuffer {
        let (w, h) = (size.width, size.height)
        let chosen = modes
        var sample = PixelBuffer(width: w, height: h)
        for mode in chosen {
            var s = RenderSettings()
            s.mode = mode; s.width = w; s.height = h
            // The frames of a render (each starting from the previous one's picture where the
            // two begin alike, into three pictures in turn, each drawn only where it changed
            // since the frame it holds), then the same frames drawn whole.
            var times: [(geometry: Double, raster: Double)] = []
            var picture = PixelBuffer(width: w, height: h)
            var pool = (0..<3).map { _ in (PixelBuffer(width: w, height: h), Rasterizer.FrameStamp?.none) }
            var tris = 0
            for reuse in [true, false] {
                let job = RenderJob(source: try AudioDecoder(path: input), settings: s, glyphs: glyphs)
                job.composer.reusesFrames = reuse
                try job.advance(toFrame: 10 * s.fps)
                var geometry = 0.0, raster = 0.0
                let n = 60
                for k in 0..<n {
                    try job.advance(toFrame: 10 * s.fps + 1 + k)
                    let a = monotonicSeconds()
                    job.composer.buildScene()
                    let b = monotonicSeconds()
                    var held: Rasterizer.FrameStamp?
                    (picture, held) = pool.removeFirst()
                    try job.composer.rasterizeScene(into: &picture, holding: reuse ? held : nil)
                    let c = monotonicSeconds()
                    pool.append((picture, job.composer.lastFrameStamp))
                    if k > 2 { geometry += b - a; raster += c - b }
                }
                let m = Double(n - 3)
                times.append((geometry / m, raster / m))
                tris = (job.composer.scene.vertices2D.count + job.composer.scene.vertices3D.count) / 3
            }
            print(
                String(
                    format: "%-12@ geometry %6.2f ms  raster %6.2f ms, drawn whole %6.2f ms  (%6d triangles)",
                    mode.rawValue as NSString, times[0].geometry * 1000, times[0].raster * 1000, times[1].raster * 1000, tris))
            if mode == .default || sample.pixels.isEmpty { sample = picture }
        }
        return sample
    }

    /// 3-5. Colour conversion and x264 alone; our render to MP4 beside x264; the whole track.
    func benchEncoding(sample: PixelBuffer, glyphs: GlyphProvider?) throws {
        let (w, h) = (size.width, size.height)
        let chosen = modes
        // 3. Colour conversion and x264 alone, on the frames the render produces.
        let bench = try EncoderBench(width: w, height: h)
        let convert = try bench.conversionSeconds(sample, repeats: 60, clock: monotonicSeconds)
        print(String(format: "libswscale RGBA→yuv420p                %7.2f ms per frame", convert * 1000))
        var s = RenderSettings()
        s.width = w; s.height = h
        // One mode named with --modes: the encoder comparison renders that mode.
        if chosen.count == 1 { s.mode = chosen[0] }
        print("encoder comparison: mode \(s.mode.rawValue)")
        let from = 8.0
        let job = RenderJob(source: try AudioDecoder(path: input), settings: s, glyphs: glyphs, from: from, to: from + seconds)
        let keep = KeepSink(bench)
        try job.run(into: keep)
        let frames = bench.keptFrames
        // 4. Our whole render of the same span to MP4, side by side: three rounds, each
        // x264 alone then the render, so that both see the machine in the same state (on a
        // shared machine either can move by 20 % from one minute to the next); the ratio is
        // the median of the rounds'.
        let temp = NSTemporaryDirectory() + "/specviz-bench-\(getpid()).mp4"
        defer { unlink(temp) }
        // CPU (all threads) beside wall: the two together say how much of the cores each run
        // kept busy.
        var rounds: [(x264: Double, ours: Double, x264CPU: Double, oursCPU: Double)] = []
        for _ in 0..<3 {
            var c0 = processCPUSeconds()
            let x264 = try bench.encodeKept(fps: s.fps, preset: .veryfast, crf: 20, clock: monotonicSeconds)
            let x264CPU = processCPUSeconds() - c0
            let t0 = monotonicSeconds()
            c0 = processCPUSeconds()
            try renderToMP4(settings: s, from: from, to: from + seconds, path: temp, glyphs: glyphs)
            rounds.append((x264, monotonicSeconds() - t0, x264CPU, processCPUSeconds() - c0))
        }
        let perFrame = { (v: Double) in v / Double(frames) * 1000 }
        for (i, r) in rounds.enumerated() {
            print(
                String(
                    format: "round %d: %d frames, ms per frame: x264 veryfast alone %6.2f (CPU %6.2f), specviz render → MP4 %6.2f (CPU %6.2f) = %.2f×",
                    i + 1, frames, perFrame(r.x264), perFrame(r.x264CPU), perFrame(r.ours), perFrame(r.oursCPU),
                    r.ours / r.x264))
        }
        let median = rounds.map { $0.ours / $0.x264 }.sorted()[1]
        print(String(format: "specviz render → MP4 against x264 alone, median of 3 rounds: %.2f×", median))

        // 5. End to end, whole track.
        let duration = try AudioDecoder(path: input).duration ?? 0
        let t0 = monotonicSeconds()
        try renderToMP4(settings: s, from: 0, to: nil, path: temp, glyphs: glyphs)
        let whole = monotonicSeconds() - t0
        print(
            String(
                format: "end to end: %.1f s of audio → MP4 in %.2f s = %.2f× real time (%d fps)",
                duration, whole, duration / whole, s.fps))
    }

    func renderToMP4(settings s: RenderSettings, from: Double, to: Double?, path: String, glyphs: GlyphProvider?) throws {
        let tee = AudioTee(decoder: try AudioDecoder(path: input))
        let job = RenderJob(source: tee.analysis, settings: s, glyphs: glyphs, from: from, to: to)
        job.finishedReading = { tee.analysis.stop() }
        var o = VideoEncoder.Options(width: s.width, height: s.height, fps: s.fps)
        o.audio = tee.track(from: from)
        o.audioName = input
        o.audioDuration = to.map { $0 - from }
        unlink(path)
        try job.run(into: try VideoEncoder(path: path, options: o))
    }
}

/// Keeps converted frames for the x264-alone run.
final class KeepSink: FrameSink {
    let bench: EncoderBench
    init(_ bench: EncoderBench) { self.bench = bench }
    func write(_ frame: PixelBuffer, index: Int) throws { try bench.convertAndKeep(frame) }
    func finish() throws {}
    func cancel() {}
}
