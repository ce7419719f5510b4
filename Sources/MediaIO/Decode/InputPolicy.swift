import CFFmpeg

/// How an input is opened (SPEC §9: an input never makes specviz open the network or
/// another file). Three locks, each enough on its own for its part:
///
/// 1. The name must be a local file or standard input (`-`, `pipe:N`): libavformat's
///    protocol for it is looked up first and anything but `file`/`pipe` is refused, and the
///    byte stream is opened by us with `protocol_whitelist` set to that one protocol.
/// 2. The demuxer libavformat probes must be one of `containers` (files that hold their own
///    streams); playlists and lists of other files (HLS, DASH, concat, image sequences,
///    SDP/RTSP…) are refused unless `allowPlaylists`.
/// 3. The demuxer's own opens (`AVFormatContext.io_open`) are refused outright, or, with
///    `allowPlaylists`, limited to reading local files — never the network.
public struct InputPolicy: Sendable, Equatable {
    /// Follow playlists and concat lists that name local files.
    public var allowPlaylists: Bool

    public init(allowPlaylists: Bool = false) { self.allowPlaylists = allowPlaylists }

    /// libavformat demuxers of single media files: they read only the bytes they are given.
    public static let containers = [
        "wav", "w64", "aiff", "flac", "mp3", "ogg", "mov", "matroska", "webm", "aac", "ac3", "eac3", "caf", "au",
        "avi", "asf", "wv", "ape", "tta", "dts", "dtshd", "truehd", "mlp", "amr", "amrnb", "amrwb", "flv", "mpeg",
        "mpegts", "oma", "voc", "mpc", "mpc8", "gsm", "rm", "nut", "shn", "tak", "dsf", "iff", "xwma", "sox",
        "ircam", "nistsphere", "avr", "epaf", "mxf", "dv", "ivf", "adp", "ast", "qcp", "mmf", "sbc", "codec2",
        "loas", "smjpeg", "gif", "vqf", "wsaud", "s337m", "bit", "g722", "g729", "g723_1", "dfpwm", "aptx",
    ]

    /// The URL libavformat is given for a name on the command line: `-` is standard input.
    public static func url(for path: String) -> String { path == "-" ? "pipe:0" : path }

    /// True when the probed demuxer name (e.g. "mov,mp4,m4a,3gp,3g2,mj2") is a plain container.
    static func isContainer(_ demuxer: String) -> Bool {
        demuxer.split(separator: ",").contains { containers.contains(String($0)) }
    }

    /// Opens `path` for demuxing under this policy. The caller closes it with `close()`.
    func open(_ path: String) throws -> OpenedInput {
        _ = quietLibav
        let url = Self.url(for: path)
        let proto = avio_find_protocol_name(url).map { String(cString: $0) }
        guard proto == "file" || proto == "pipe" else {
            throw MediaError(
                "cannot open '\(path)': not a local file (specviz reads local files and - for standard input, never URLs; write ./\(path) for a file name with a colon)",
                path: path)
        }
        var options: OpaquePointer? = nil
        av_dict_set(&options, "protocol_whitelist", proto, 0)
        var io: UnsafeMutablePointer<AVIOContext>? = nil
        let opened = avio_open2(&io, url, AVIO_FLAG_READ, nil, &options)
        av_dict_free(&options)
        guard opened >= 0, io != nil else {
            throw MediaError("cannot open '\(path)': \(MediaError.avText(opened))", function: "avio_open2", code: opened, path: path)
        }
        var probed: UnsafePointer<AVInputFormat>? = nil
        let probe = av_probe_input_buffer2(io, &probed, url, nil, 0, 0)
        guard probe >= 0, let probed else {
            avio_closep(&io)
            throw MediaError("cannot open '\(path)': \(MediaError.avText(probe))", function: "av_probe_input_buffer2", code: probe, path: path)
        }
        let demuxer = String(cString: probed.pointee.name)
        if !allowPlaylists && !Self.isContainer(demuxer) {
            avio_closep(&io)
            throw MediaError(
                "cannot open '\(path)': a '\(demuxer.split(separator: ",").first ?? "")' input can name other files or URLs; not followed (--allow-playlists follows local files only)",
                path: path)
        }
        guard let context = avformat_alloc_context() else {
            avio_closep(&io)
            throw MediaError("cannot open '\(path)': out of memory", path: path)
        }
        let refused = UnsafeMutablePointer<Int32>.allocate(capacity: 1)
        refused.pointee = 0
        context.pointee.pb = io
        spv_guard_nested_opens(context, allowPlaylists ? 1 : 0, refused)
        var demuxOptions: OpaquePointer? = nil
        av_dict_set(&demuxOptions, "protocol_whitelist", "file", 0)
        if !allowPlaylists { av_dict_set(&demuxOptions, "format_whitelist", Self.containers.joined(separator: ","), 0) }
        var format: UnsafeMutablePointer<AVFormatContext>? = context
        let code = avformat_open_input(&format, url, probed, &demuxOptions) // frees `context` on failure
        av_dict_free(&demuxOptions)
        guard code >= 0, let format else {
            avio_closep(&io)
            let why = refused.pointee > 0 ? OpenedInput.refusalText : MediaError.avText(code)
            refused.deallocate()
            throw MediaError("cannot open '\(path)': \(why)", function: "avformat_open_input", code: code, path: path)
        }
        return OpenedInput(format: format, io: io!, refused: refused)
    }
}

/// A demuxer over a byte stream we opened ourselves (custom I/O: closing the demuxer
/// does not close the stream).
struct OpenedInput {
    static let refusalText = "it refers to other files or URLs, which specviz does not open"
    var format: UnsafeMutablePointer<AVFormatContext>
    var io: UnsafeMutablePointer<AVIOContext>
    /// How many nested opens the demuxer tried and was refused.
    var refused: UnsafeMutablePointer<Int32>

    var refusedOpens: Int { Int(refused.pointee) }

    func close() {
        var f: UnsafeMutablePointer<AVFormatContext>? = format
        avformat_close_input(&f)
        var p: UnsafeMutablePointer<AVIOContext>? = io
        avio_closep(&p)
        refused.deallocate()
    }
}
