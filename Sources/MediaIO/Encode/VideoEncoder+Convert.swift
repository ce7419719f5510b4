import CFFmpeg
import SpecvizCore

/// The RGBA → YUV conversion of `write`: libswscale converters, and the conversion of only
/// the bands of rows that changed.
extension VideoEncoder {
    /// libswscale flags of the RGBA → YUV conversion. Same size, so only the chroma is
    /// resampled; with full-width chroma input swscale takes its SIMD path for RGBA.
    /// Measured at 1080p (`specviz bench`): 3.9 ms per frame with SWS_POINT alone, 2.2 ms
    /// with full-width chroma input.
    static let scalerFlags = SWS_POINT | SWS_FULL_CHR_H_INP

    /// A converter from our RGBA frames to `pixFmt` at the same size: full-range RGB to
    /// limited-range BT.709 YUV (the colour the encoder tags), or the GIF palette format.
    static func makeScaler(width: Int, height: Int, to pixFmt: AVPixelFormat) throws -> OpaquePointer {
        guard
            let scaler = sws_getContext(
                Int32(width), Int32(height), AV_PIX_FMT_RGBA,
                Int32(width), Int32(height), pixFmt, scalerFlags, nil, nil, nil)
        else {
            throw MediaError("sws_getContext failed for \(width)x\(height)")
        }
        if pixFmt != AV_PIX_FMT_RGB8 {
            let coeffs = sws_getCoefficients(SWS_CS_ITU709)
            sws_setColorspaceDetails(scaler, coeffs, 1, coeffs, 0, 0, 1 << 16, 1 << 16)
        }
        return scaler
    }

    /// The converters of this video's size: the whole frame, and for yuv420p a band of
    /// `bandRows` rows and the last, shorter band.
    func makeScalers(to pixFmt: AVPixelFormat) throws {
        scaler = try VideoEncoder.makeScaler(width: options.width, height: options.height, to: pixFmt)
        self.pixFmt = pixFmt
        if pixFmt == AV_PIX_FMT_YUV420P {
            let band = VideoEncoder.bandRows, h = options.height
            if h >= band { bandScaler = try VideoEncoder.makeScaler(width: options.width, height: band, to: pixFmt) }
            if h % band != 0 { lastBandScaler = try VideoEncoder.makeScaler(width: options.width, height: h % band, to: pixFmt) }
        }
    }

    /// yuv420p output reads only the bands of each picture that changed (the rest come
    /// from the pooled frames); other formats convert whole pictures.
    public var changedRowBands: Int? { pixFmt == AV_PIX_FMT_YUV420P ? VideoEncoder.bandRows : nil }

    /// Rows per band of a partial conversion: a multiple of 16, so that every band starts
    /// on the same chroma row and dither row as in a whole conversion (the same bytes,
    /// checked by `ChangedRowsEncodeTests`), and long enough to cost no more per row.
    static let bandRows = 32

    /// Fills `f` with `frame`, whose rows `changed` differ from the last frame written;
    /// `since`: the rows that changed from the frame `f` holds to the last frame. For
    /// yuv420p, unless every row changed (or this is the first frame), only the bands that
    /// changed are converted; those that changed only since are copied from the last
    /// frame's pooled frame (a plane copy is several times cheaper than a conversion), and
    /// the rest are already right. No other band of `frame` is read (`changedRowBands`): it
    /// may hold older pixels there. Other formats convert the whole frame.
    func convert(
        _ frame: PixelBuffer, into f: UnsafeMutablePointer<AVFrame>, changed: ChangedRows, since: ChangedRows
    ) {
        let h = frame.height, band = VideoEncoder.bandRows
        let stride = Int32(frame.width * 4)
        guard pixFmt == AV_PIX_FMT_YUV420P, !changed.isAll, let last = lastFrame else {
            frame.pixels.withUnsafeBytes { raw in
                var src: UnsafePointer<UInt8>? = raw.baseAddress!.assumingMemoryBound(to: UInt8.self)
                var stride = stride
                _ = sws_scale(scaler, &src, &stride, 0, Int32(h), spv_frame_data_ptr(f), spv_frame_linesize_ptr(f))
            }
            return
        }
        // Bands that changed since the held frame (all, when it is unknown) are copied,
        // unless they changed in this frame: those are converted.
        let bands = (h + band - 1) / band
        bandWork.removeAll(keepingCapacity: true)
        bandWork.append(contentsOf: repeatElement(since.isAll ? .copy : .keep, count: bands))
        func mark(_ rows: ChangedRows, _ work: BandWork) {
            rows.forEach { r in
                let lo = max(0, r.lowerBound) / band, hi = min(bands, (min(r.upperBound, h) + band - 1) / band)
                for b in lo..<max(lo, hi) where work.rawValue > bandWork[b].rawValue { bandWork[b] = work }
            }
        }
        mark(since, .copy)
        mark(changed, .convert)
        frame.pixels.withUnsafeBytes { raw in
            let base = raw.baseAddress!.assumingMemoryBound(to: UInt8.self)
            for b in 0..<bands {
                let y = b * band, n = min(band, h - y)
                switch bandWork[b] {
                case .keep:
                    break
                case .copy:
                    // (`f` is the last frame's own only when it holds that frame: no copy.)
                    if last != f { spv_copy_rows_420(f, last, Int32(y), Int32(n)) }
                case .convert:
                    _ = spv_sws_scale_rows_420(n == band ? bandScaler : lastBandScaler, base, stride, f, Int32(y), Int32(n))
                }
            }
        }
    }
}
