import ArgumentParser
import MediaIO

extension RenderCommand {
    /// `--audio-only`: an AAC file (.m4a, .mp4, .mov, .mkv, .mka), one input (or a batch
    /// with a pattern), not with what makes pictures.
    func validateAudioOnly() throws {
        let clash =
            live
            ? "--live" : at != nil ? "--at" : dumpFrame != nil ? "--dump-frame" : segment != nil ? "--segment (the sound is one task for all segments)" : nil
        if let clash { throw ValidationError("--audio-only writes the sound alone: not with \(clash)") }
        guard let output else { throw ValidationError("missing -o OUTPUT (--audio-only -o NAME.m4a)") }
        let lower = output.lowercased()
        let ext = lower.lastIndex(of: ".").map { String(lower[lower.index(after: $0)...]) } ?? ""
        guard AudioTrackFile.extensions.contains(ext), output != OutputTarget.standardOutput else {
            throw ValidationError("cannot write '\(output)': --audio-only writes the render's AAC sound to .m4a, .mp4, .mov, .mkv or .mka")
        }
        if let p = batch.progress, p == output { throw ValidationError("--progress and -o both write '\(p)': send the progress elsewhere") }
        if !isBatch { try InputChecks.distinct(output, from: [input]) }
    }

    /// Encodes the sound a video render of the same input and --from/--to would carry (the
    /// same encoder, channels, rate, bit rate and span) into `output`, atomically.
    func writeAudioOnly(to output: String) throws {
        try AtomicFile.checkOutput(output, overwrite: overwrite)
        let decoder = try InputChecks.openDecoder(input, allowPlaylists: allowPlaylists, channels: channelOption.channels.pick)
        let (start, end) = try timeRange(duration: decoder.duration)
        let tee = AudioTee(decoder: decoder)
        tee.analysis.stop()
        do {
            try withExtendedLifetime(tee) {
                _ = try AudioTrackFile.write(
                    source: tee.track(from: start), name: input, to: output, duration: end.map { $0 - start }, start: start,
                    overwrite: overwrite, cancelled: { Termination.isSet })
            }
        } catch {
            try Termination.check()
            throw error
        }
    }
}
