import CFFmpeg
import SpecvizCore

extension StreamJoiner {
    /// Copies the parts' packets into the joined file one part after the other, shifting
    /// each part by the video length before it (in seconds, as a rational of the frame
    /// rate: exact for constant-rate parts); the sound is either the parts' own, copied,
    /// or the original's, encoded alongside, or an AAC file's, copied alongside (`audioEncoder`).
    final class PacketCopier {
        let out: UnsafeMutablePointer<AVFormatContext>
        let path: String
        let rate: AVRational
        /// The joined video stream, and the copied audio stream (nil: none, or encoded).
        let vs: UnsafeMutablePointer<AVStream>
        var copiedAudio: UnsafeMutablePointer<AVStream>?
        var audioEncoder: JoinedSound?
        var packet = av_packet_alloc()
        var framesBefore = 0
        var lastAudioDTS = Int64.min
        var lastVideoDTS: Int64?

        /// Adds the video stream, a copy of the first part's.
        init(out: UnsafeMutablePointer<AVFormatContext>, first: Part, rate: AVRational, path: String) throws {
            self.out = out
            self.path = path
            self.rate = rate
            vs = avformat_new_stream(out, nil)!
            try avCheck(avcodec_parameters_copy(vs.pointee.codecpar, first.videoParameters), "avcodec_parameters_copy", path, path: path)
            vs.pointee.codecpar.pointee.codec_tag = 0
            vs.pointee.time_base = first.stream(first.video).pointee.time_base
            vs.pointee.avg_frame_rate = rate
        }

        deinit {
            audioEncoder = nil
            av_packet_free(&packet)
        }

        /// Adds an audio stream, a copy of `first`'s, for the parts' own sound.
        func copyAudio(of first: Part) throws {
            let a = avformat_new_stream(out, nil)!
            try avCheck(
                avcodec_parameters_copy(a.pointee.codecpar, first.stream(first.audio).pointee.codecpar),
                "avcodec_parameters_copy", path)
            a.pointee.codecpar.pointee.codec_tag = 0
            a.pointee.time_base = first.stream(first.audio).pointee.time_base
            copiedAudio = a
        }

        /// Copies every packet of `part`, after those of the parts before it.
        func copy(_ part: Part) throws {
            let inV = part.stream(part.video)
            let start = inV.pointee.start_time == spv_nopts() ? 0 : inV.pointee.start_time
            let offsetV = av_rescale_q(Int64(framesBefore), spv_rational(rate.den, rate.num), vs.pointee.time_base)
            let partFrames = try part.frameCount()
            while av_read_frame(part.ctx, packet) >= 0 {
                defer { av_packet_unref(packet) }
                let pkt = packet!
                if pkt.pointee.stream_index == part.video {
                    try copyVideo(pkt, from: inV, start: start, offset: offsetV)
                } else if let a = copiedAudio, pkt.pointee.stream_index == part.audio {
                    let inA = part.stream(part.audio)
                    StreamJoiner.shift(pkt, by: -av_rescale_q(start, inV.pointee.time_base, inA.pointee.time_base))
                    av_packet_rescale_ts(pkt, inA.pointee.time_base, a.pointee.time_base)
                    StreamJoiner.shift(pkt, by: av_rescale_q(offsetV, vs.pointee.time_base, a.pointee.time_base))
                    // Keep decode times increasing across a join (drop what overlaps).
                    if pkt.pointee.dts != spv_nopts() {
                        if pkt.pointee.dts <= lastAudioDTS { continue }
                        lastAudioDTS = pkt.pointee.dts
                    }
                    pkt.pointee.stream_index = a.pointee.index
                    try avCheck(av_interleaved_write_frame(out, pkt), "av_interleaved_write_frame", "cannot write '\(path)'", path: path)
                }
            }
            framesBefore += partFrames
        }

        /// One video packet of a part whose video starts at `start` and follows `offset`
        /// (in the joined stream's time base) of video; the encoded sound follows it.
        private func copyVideo(_ pkt: UnsafeMutablePointer<AVPacket>, from inV: UnsafeMutablePointer<AVStream>, start: Int64, offset: Int64)
            throws
        {
            StreamJoiner.shift(pkt, by: -start)
            av_packet_rescale_ts(pkt, inV.pointee.time_base, vs.pointee.time_base)
            StreamJoiner.shift(pkt, by: offset)
            // Matroska leaves the decode time of a part's first frames unset; after a join
            // the muxer cannot guess it, so continue the sequence.
            if pkt.pointee.dts == spv_nopts(), let last = lastVideoDTS {
                pkt.pointee.dts = pkt.pointee.pts == spv_nopts() ? last + 1 : min(pkt.pointee.pts, last + 1)
            }
            if pkt.pointee.dts != spv_nopts() { lastVideoDTS = pkt.pointee.dts }
            pkt.pointee.stream_index = vs.pointee.index
            let end = pkt.pointee.dts == spv_nopts() ? pkt.pointee.pts : pkt.pointee.dts
            try avCheck(av_interleaved_write_frame(out, pkt), "av_interleaved_write_frame", "cannot write '\(path)'", path: path)
            if let audioEncoder, end != spv_nopts() {
                let t = Double(end) * Double(vs.pointee.time_base.num) / Double(vs.pointee.time_base.den)
                try audioEncoder.encode(until: max(0, t), packet: packet!)
            }
        }

        /// Encodes the rest of the original's sound, to `seconds` (nothing for copied sound).
        func finishAudio(until seconds: Double) throws {
            guard let audioEncoder else { return }
            try audioEncoder.encode(until: seconds, packet: packet!)
            try audioEncoder.flush(packet: packet!)
        }
    }
}
