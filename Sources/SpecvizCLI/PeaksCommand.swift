import ArgumentParser
import Foundation
import MediaIO
import Specviz
import SpecvizCore

/// `specviz peaks FILE -o out.json|out.dat`: waveform data in audiowaveform's formats
/// (version 2, one channel), for peaks.js and wavesurfer.js. Streams: the samples are read in
/// chunks and each block's min/max written as it completes, so memory stays bounded.
struct PeaksCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "peaks",
        abstract: "Write waveform peaks (min/max per pixel) as audiowaveform's JSON or binary .dat.",
        discussion: """
            The format follows the -o extension: .json is audiowaveform's JSON, version 2 \
            ({"version": 2, "channels": 1, "sample_rate", "samples_per_pixel", "bits", \
            "data": [min, max, …], "length"}); .dat its binary form (a 24-byte \
            little-endian header, then int8 or int16 min/max pairs). -o - writes the JSON to \
            standard output. The sound is mixed to one channel (or --channels left|right).

            Examples:
              specviz peaks track.mp3 -o track.json
              specviz peaks track.flac --samples-per-pixel 512 --bits 8 -o track.dat
            """)

    @Argument(help: "Audio or video file (anything FFmpeg reads; - for standard input).", completion: Completions.anyFile)
    var input: String

    @Option(name: .shortAndLong, help: "Output: NAME.json, NAME.dat, or - for JSON on standard output.", completion: Completions.anyFile)
    var output: String

    @Option(name: .customLong("pixels-per-second"), help: "Min/max pairs per second of audio (default 100).")
    var pixelsPerSecond: Int?

    @Option(name: .customLong("samples-per-pixel"), help: "Samples per min/max pair, 2 or more (instead of --pixels-per-second).")
    var samplesPerPixel: Int?

    @Option(help: "Resolution of the values: 8 (−128…127) or 16 (−32768…32767).")
    var bits: Int = 16

    @OptionGroup var channelOption: ChannelOption

    @Flag(name: [.customShort("y"), .long], help: "Overwrite the output if it exists.")
    var overwrite = false

    /// Whether the output is the binary `.dat`.
    var isDat: Bool { output.lowercased().hasSuffix(".dat") }

    func validate() throws {
        if output != "-" && !isDat && !output.lowercased().hasSuffix(".json") {
            throw ValidationError("cannot write '\(output)': peaks go to a .json or .dat file (or - for JSON)")
        }
        if bits != 8 && bits != 16 { throw ValidationError("--bits must be 8 or 16 (got \(bits))") }
        if pixelsPerSecond != nil && samplesPerPixel != nil {
            throw ValidationError("give --pixels-per-second or --samples-per-pixel, not both")
        }
        if let p = pixelsPerSecond, !(1...100_000).contains(p) { throw ValidationError("--pixels-per-second must be 1…100000 (got \(p))") }
        if let s = samplesPerPixel, !(2...(1 << 24)).contains(s) { throw ValidationError("--samples-per-pixel must be 2…16777216 (got \(s))") }
        if output != "-" { try InputChecks.distinct(output, from: [input]) }
    }

    func run() throws {
        let path = output == "-" ? nil : output
        if let path { try AtomicFile.checkOutput(path, overwrite: overwrite) }
        Termination.install()
        let decoder = try InputChecks.openDecoder(input, allowPlaylists: false, channels: channelOption.channels)
        let rate = decoder.sampleRate
        // At least 2, as audiowaveform's own reader requires.
        let spp = samplesPerPixel ?? max(2, rate / (pixelsPerSecond ?? 100))
        var blocks = PeakBlocks(samplesPerPixel: spp, bits: bits)
        let sink = try DataSink(path: path)
        do {
            if isDat {
                try writeDat(decoder, rate: rate, blocks: &blocks, to: sink)
            } else {
                try writeJSON(decoder, rate: rate, blocks: &blocks, to: sink)
            }
            try sink.finish()
        } catch {
            sink.cancel()
            throw error
        }
    }

    /// Reads the whole input in chunks, handing each to `blocks`.
    private func read(_ decoder: AudioDecoder, into blocks: inout PeakBlocks, emit: (Int, Int) throws -> Void) throws {
        var chunk = [Float](repeating: 0, count: 1 << 14)
        var total = 0
        while true {
            try Termination.check()
            let n = try chunk.withUnsafeMutableBufferPointer { try decoder.readMono(into: $0) }
            if n == 0 { break }
            total += n
            try chunk.withUnsafeBufferPointer { try blocks.add(UnsafeBufferPointer(rebasing: $0[..<n]), emit: emit) }
        }
        if total == 0 { throw RenderError.noAudio(source: input) }
        try blocks.finish(emit: emit)
    }

    private func writeJSON(_ decoder: AudioDecoder, rate: Int, blocks: inout PeakBlocks, to sink: DataSink) throws {
        let w = JSONWriter(to: sink)
        try w.beginObject()
        for (key, value) in [("version", 2), ("channels", 1), ("sample_rate", rate), ("samples_per_pixel", blocks.samplesPerPixel), ("bits", bits)] {
            try w.key(key)
            try w.value(value)
        }
        // The data before its length: the length is known only once the stream has ended,
        // and a JSON object's members have no order.
        try w.key("data")
        try w.beginArray()
        try read(decoder, into: &blocks) { low, high in
            try w.value(low)
            try w.value(high)
        }
        try w.endArray()
        try w.key("length")
        try w.value(blocks.length)
        try w.endObject()
        w.newline()
        try w.flush()
    }

    private func writeDat(_ decoder: AudioDecoder, rate: Int, blocks: inout PeakBlocks, to sink: DataSink) throws {
        guard sink.isSeekable else { throw ValidationError("a .dat is written to a file (its length goes in the header at the end)") }
        try sink.write(PeaksDat.header(sampleRate: rate, samplesPerPixel: blocks.samplesPerPixel, bits: bits, length: 0))
        var pending: [UInt8] = []
        pending.reserveCapacity(1 << 16 + 8)
        let wide = bits == 16
        try read(decoder, into: &blocks) { low, high in
            if wide {
                PeaksDat.append(Int16(low), to: &pending)
                PeaksDat.append(Int16(high), to: &pending)
            } else {
                pending.append(UInt8(bitPattern: Int8(low)))
                pending.append(UInt8(bitPattern: Int8(high)))
            }
            if pending.count >= 1 << 16 {
                try sink.write(pending)
                pending.removeAll(keepingCapacity: true)
            }
        }
        try sink.write(pending)
        var length: [UInt8] = []
        PeaksDat.append(UInt32(clamping: blocks.length), to: &length)
        try sink.patch(length, at: PeaksDat.lengthOffset)
    }
}
