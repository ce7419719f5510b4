// swift-tools-version:6.0
// specviz: sound into pictures on the CPU.
// Data flows one way: decode -> analysis -> geometry -> raster -> encode/show.
import PackageDescription

let package = Package(
    name: "specviz",
    products: [
        .executable(name: "specviz", targets: ["SpecvizCLI"]),
        .library(name: "Specviz", targets: ["Specviz"]),
    ],
    // Pinned to one exact version: an executable builds the same code on every machine. The pin
    // lives here rather than in a committed Package.resolved (kept out of git by the house rules);
    // the argument parser has no dependencies of its own, so this pins the whole graph.
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", exact: "1.8.2")
    ],
    targets: [
        // MARK: C libraries (system), each behind a small shim header with spv_ helpers.
        .systemLibrary(
            name: "CFFmpeg",
            pkgConfig: "libavformat libavcodec libavutil libswresample libswscale",
            providers: [.apt(["libavformat-dev", "libavcodec-dev", "libavutil-dev", "libswresample-dev", "libswscale-dev"])]),
        .systemLibrary(name: "CPNG", pkgConfig: "libpng", providers: [.apt(["libpng-dev"])]),
        .systemLibrary(name: "CALSA", pkgConfig: "alsa", providers: [.apt(["libasound2-dev"])]),
        // HarfBuzz shapes with FreeType faces (hb-ft), so it shares CFreeType's module.
        .systemLibrary(
            name: "CFreeType", pkgConfig: "freetype2 harfbuzz", providers: [.apt(["libfreetype-dev", "libharfbuzz-dev"])]),
        .systemLibrary(name: "CFriBidi", pkgConfig: "fribidi", providers: [.apt(["libfribidi-dev"])]),
        .systemLibrary(name: "CFontconfig", pkgConfig: "fontconfig", providers: [.apt(["libfontconfig-dev"])]),
        // The innermost loops of the rasteriser (span kernels) and of the analysis (FFT
        // passes, lag functions, resonators), compiled for the baseline and for AVX2 from one
        // source and chosen by CPUID at run time (no flags needed in this file).
        .target(name: "CKernels"),

        // MARK: Pipeline (Swift; its only C is the kernels above).
        .target(name: "SpecvizCore"),
        .target(name: "Tuning", dependencies: ["SpecvizCore"]),
        .target(name: "Analysis", dependencies: ["SpecvizCore", "Tuning", "CKernels"]),
        .target(name: "Synth", dependencies: ["SpecvizCore", "Tuning"]),
        .target(name: "Raster", dependencies: ["SpecvizCore", "CKernels"]),
        .target(name: "ShadersCPU", dependencies: ["SpecvizCore", "Raster"], path: "Shaders-CPU"),
        .target(name: "Geometry", dependencies: ["SpecvizCore", "Analysis", "Tuning"]),
        .target(name: "Specviz", dependencies: ["SpecvizCore", "Analysis", "Tuning", "Geometry", "Raster", "ShadersCPU"]),

        // MARK: I/O: the only module that touches C libraries.
        .target(name: "MediaIO", dependencies: ["SpecvizCore", "CFFmpeg", "CPNG", "CALSA", "CFreeType", "CFriBidi", "CFontconfig"]),

        // MARK: Tool.
        .executableTarget(
            name: "SpecvizCLI",
            dependencies: [
                "Specviz", "MediaIO", "Analysis", "Tuning", "Synth", "Geometry", "Raster", "ShadersCPU", "SpecvizCore", "CKernels",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            plugins: ["BuildInfo"]),
        // Writes the git commit into the tool before each build (for `specviz --version`).
        .plugin(name: "BuildInfo", capability: .buildTool()),

        // MARK: Tests.
        .target(name: "SpecvizTestSupport", dependencies: ["SpecvizCore", "MediaIO", "Geometry"]),
        .testTarget(name: "AnalysisTests", dependencies: ["Analysis", "SpecvizTestSupport"]),
        .testTarget(name: "RasterTests", dependencies: ["Raster", "ShadersCPU", "SpecvizCore", "SpecvizTestSupport"]),
        .testTarget(name: "SpecvizTests", dependencies: ["Specviz", "Tuning", "MediaIO", "Raster", "ShadersCPU", "SpecvizTestSupport"]),
        .testTarget(name: "MediaIOTests", dependencies: ["MediaIO", "SpecvizTestSupport"]),
        .testTarget(name: "CLITests", dependencies: ["SpecvizTestSupport", "MediaIO"]),
        .testTarget(name: "SpecvizCoreTests", dependencies: ["SpecvizCore"]),
        .testTarget(name: "TuningTests", dependencies: ["Tuning"]),
        .testTarget(name: "PitchTests", dependencies: ["Analysis", "Tuning", "CKernels", "SpecvizTestSupport"]),
        .testTarget(name: "TempoTests", dependencies: ["Analysis", "SpecvizTestSupport"]),
        .testTarget(name: "SynthTests", dependencies: ["Synth", "Analysis", "Tuning", "MediaIO", "SpecvizTestSupport"]),
        .testTarget(name: "GeometryTests", dependencies: ["Geometry", "Raster", "ShadersCPU", "SpecvizTestSupport"]),
    ],
    swiftLanguageModes: [.v5]
)
