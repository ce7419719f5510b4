#if canImport(Glibc)
import Glibc
#endif

/// The spectrum at any moment between hops (issue 39: the picture of a video frame is the
/// sound of that frame, not of the last hop before it).
extension SpectrumAnalyzer {
    /// Measures the `fftSize` samples that end with `ahead` (the samples that came after
    /// the last hop; the hops' newest samples before them) into `frame`'s bands and band
    /// levels, by the hops' own measure, shown on the display range of the last hop (`hop`),
    /// whose other fields (waveform, range, levels, index and time) it copies. Leaves the
    /// analysis as it was: auto-level, tilt and bass path move with the hops alone. Does not
    /// allocate once `frame` has the layout's band count.
    public func measure(ahead: UnsafeBufferPointer<Float>, after hop: SpectrumFrame, into frame: inout SpectrumFrame) {
        let bands = layout.count
        if frame.bands.count != bands { frame.resize(bands: bands) }
        let m = ahead.count, len = history.count
        moment.withUnsafeMutableBufferPointer { w in
            let dst = w.baseAddress!
            if m >= n {
                memcpy(dst, ahead.baseAddress! + (m - n), n * MemoryLayout<Float>.size)
            } else {
                _ = history.withUnsafeBufferPointer { h in
                    memcpy(dst, h.baseAddress! + (len - (n - m)), (n - m) * MemoryLayout<Float>.size)
                }
                if m > 0 { memcpy(dst + (n - m), ahead.baseAddress!, m * MemoryLayout<Float>.size) }
            }
        }
        _ = moment.withUnsafeBufferPointer { powerSpectrum(of: $0) }
        let range = (top: hop.dbTop, bottom: hop.dbBottom)
        if config.tilt.usesSeedLevels {
            seedBands(into: &frame, range: range)
        } else {
            powerBands(into: &frame, range: range)
        }
        frame.waveform.withUnsafeMutableBufferPointer { out in
            hop.waveform.withUnsafeBufferPointer { src in for i in 0..<min(out.count, src.count) { out[i] = src[i] } }
        }
        frame.axis = hop.axis
        frame.levelUnit = hop.levelUnit
        frame.index = hop.index
        frame.time = hop.time
        frame.peakHz = hop.peakHz
        frame.rmsDB = hop.rmsDB
        frame.peakDB = hop.peakDB
    }
}
