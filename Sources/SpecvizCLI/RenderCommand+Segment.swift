import ArgumentParser
import MediaIO
import Specviz
import SpecvizCore

extension Segment: ExpressibleByArgument {
    public init?(argument: String) { self.init(parsing: argument) }
}

extension RenderCommand {
    /// With `--segment K/N`: narrows --from/--to to the segment's whole frames, so the
    /// render holds exactly those frames of a single pass over [--from, --to or the end).
    /// Returns what the part is, for its metadata (`join` checks it).
    mutating func applySegment(duration: Double?, settings: RenderSettings) throws -> SegmentStamp? {
        let fps = settings.fps
        guard let segment else { return nil }
        let out = (output ?? "").lowercased()
        if live || at != nil || (out.hasSuffix(".png") && !PNGSequenceSink.isPattern(out)) {
            throw ValidationError("--segment renders part of a video or PNG sequence: not with --live, --at or a PNG still")
        }
        let start = from ?? 0
        guard let end = to ?? duration else {
            throw ValidationError("--segment needs to know where the audio ends: '\(input)' does not say; give --to")
        }
        let span = segment.span(start: start, end: end, fps: fps)
        if span.frames.isEmpty {
            throw ValidationError("segment \(segment) holds no frames (the render has only \(Int((Double(fps) * (end - start) - 1e-6).rounded(.up))) frames)")
        }
        if !overwrite, PNGSequenceSink.isPattern(out), let o = output,
            AtomicFile.exists(PNGSequenceSink.path(o, span.frames.lowerBound))
        {
            throw CLIError.exists(path: PNGSequenceSink.path(o, span.frames.lowerBound))
        }
        let stamp = SegmentStamp(
            index: segment.index, count: segment.count, frames: span.frames, source: SegmentStamp.identity(ofFile: input),
            settings: settingsDigest(settings, start: start, end: end))
        from = span.from
        to = span.to
        return stamp
    }

    /// A digest of everything that shapes the frames and the stream of a render of
    /// [start, end): the settings (pictures by their pixels; not the thread count), the
    /// span, and the encoder's preset and quality.
    func settingsDigest(_ settings: RenderSettings, start: Double, end: Double) -> String {
        var plain = settings
        plain.threads = 0
        plain.artwork.cover = nil
        plain.artwork.logo = nil
        plain.artwork.background = nil
        var digest = SegmentStamp.Digest()
        digest.add(String(describing: plain).utf8)
        digest.add("\(start) \(end) \(x264Preset.rawValue) \(crf)".utf8)
        for picture in [settings.artwork.cover, settings.artwork.logo, settings.artwork.background] {
            guard let picture else { digest.add([0]); continue }
            digest.add("\(picture.width)x\(picture.height)".utf8)
            picture.pixels.withUnsafeBytes { digest.add($0) }
        }
        return digest.hex
    }

    /// A PNG sequence of a segment is numbered by the frame's index from time 0 (as a
    /// whole render from 0 numbers it), so all segments can write into one pattern.
    func numberedForSegment(_ sink: FrameSink, fps: Int) -> FrameSink {
        guard segment != nil, let from else { return sink }
        return OffsetFrameSink(sink, offset: Int((from * Double(fps)).rounded()))
    }
}

/// Passes frames on with their index shifted by `offset`.
final class OffsetFrameSink: FrameSink {
    let base: FrameSink
    let offset: Int
    init(_ base: FrameSink, offset: Int) { self.base = base; self.offset = offset }
    func write(_ frame: PixelBuffer, index: Int) throws { try base.write(frame, index: index + offset) }
    func write(_ frame: PixelBuffer, index: Int, changed: ChangedRows) throws {
        try base.write(frame, index: index + offset, changed: changed)
    }
    var changedRowBands: Int? { base.changedRowBands }
    func finish() throws { try base.finish() }
    func cancel() { base.cancel() }
}
