import CFFmpeg
import SpecvizCore

/// Opens the file of `oc` at `temp` (unless its format writes none) and writes the
/// container's header, MP4 and MOV with their index at the front (`+faststart`). `path` is
/// the output's final name, for messages.
func writeContainerHeader(_ oc: UnsafeMutablePointer<AVFormatContext>, temp: String, path: String) throws {
    if spv_fmt_has_nofile(oc) == 0 {
        try avCheck(avio_open(&oc.pointee.pb, temp, AVIO_FLAG_WRITE), "avio_open", "cannot write '\(path)'", path: path)
    }
    var opts: OpaquePointer? = nil
    if let name = oc.pointee.oformat.pointee.name.map({ String(cString: $0) }), name.contains("mp4") || name.contains("mov") {
        av_dict_set(&opts, "movflags", "+faststart", 0)
    }
    let h = avformat_write_header(oc, &opts)
    av_dict_free(&opts)
    try avCheck(h, "avformat_write_header", "cannot write '\(path)'", path: path)
}
