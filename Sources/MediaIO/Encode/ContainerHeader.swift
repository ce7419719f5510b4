import CFFmpeg
import SpecvizCore

/// Opens the file of `oc` at `temp` (unless its format writes none) and writes the
/// container's header, MP4 and MOV with their index at the front (`+faststart`, which reads
/// the file back: not on a stream that cannot seek). `path` is the output's final name, for
/// messages. Standard output (`-`) is libavformat's `pipe:1`: Matroska written to a stream
/// leaves out its cues and sizes rather than seeking back. Matroska and WebM are written
/// bit-exact (no random UIDs), so the same render gives the same bytes.
func writeContainerHeader(_ oc: UnsafeMutablePointer<AVFormatContext>, temp: String, path: String) throws {
    if spv_fmt_has_nofile(oc) == 0 {
        try avCheck(avio_open(&oc.pointee.pb, OutputTarget.avioURL(temp), AVIO_FLAG_WRITE), "avio_open", "cannot write '\(path)'", path: path)
    }
    var opts: OpaquePointer? = nil
    let seekable = oc.pointee.pb.map { $0.pointee.seekable & AVIO_SEEKABLE_NORMAL != 0 } ?? false
    if let name = oc.pointee.oformat.pointee.name.map({ String(cString: $0) }), seekable, name.contains("mp4") || name.contains("mov") {
        av_dict_set(&opts, "movflags", "+faststart", 0)
    }
    // Matroska and WebM draw their segment and track UIDs at random unless asked to be
    // bit-exact: without it, two renders of the same input differ in those 32 bytes.
    if let name = oc.pointee.oformat.pointee.name.map({ String(cString: $0) }), name.contains("matroska") || name.contains("webm") {
        oc.pointee.flags |= AVFMT_FLAG_BITEXACT
    }
    let h = avformat_write_header(oc, &opts)
    av_dict_free(&opts)
    try avCheck(h, "avformat_write_header", "cannot write '\(path)'", path: path)
}
