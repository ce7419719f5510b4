import SpecvizCore

/// The min/max pairs of audiowaveform's waveform data (issue 40 item 7), gathered block by
/// block from a stream of samples: each block of `samplesPerPixel` samples (the last may be
/// shorter) gives its lowest and highest value, as audiowaveform's `.dat` and `.json`
/// hold them (https://github.com/bbc/audiowaveform/blob/master/doc/DataFormat.md).
///
/// Samples are quantised to 16 bits as the decoder's floats came from them (x · 32768,
/// rounded, clamped to −32768…32767: a 16-bit source gives its own values back); 8-bit
/// data is the 16-bit value divided by 256, truncated toward zero (−128…127), as
/// audiowaveform's WaveformBuffer writes it.
struct PeakBlocks {
    let samplesPerPixel: Int
    let bits: Int
    private var low = Int.max, high = Int.min, count = 0
    /// Blocks finished so far.
    private(set) var length = 0

    init(samplesPerPixel: Int, bits: Int) {
        precondition(samplesPerPixel > 0 && (bits == 8 || bits == 16))
        self.samplesPerPixel = samplesPerPixel
        self.bits = bits
    }

    /// The 16-bit value of a decoded sample (NaN as 0).
    @inline(__always) static func quantise(_ x: Float) -> Int {
        guard x == x else { return 0 }
        return Int(max(-32768, min(32767, (x * 32768).rounded())))
    }

    /// Feeds `samples`; `emit(min, max)` is called for every block they complete.
    mutating func add(_ samples: UnsafeBufferPointer<Float>, emit: (Int, Int) throws -> Void) rethrows {
        for x in samples {
            let v = Self.quantise(x)
            if v < low { low = v }
            if v > high { high = v }
            count += 1
            if count == samplesPerPixel { try flush(emit) }
        }
    }

    /// Ends the stream: a last, shorter block is emitted too.
    mutating func finish(emit: (Int, Int) throws -> Void) rethrows {
        if count > 0 { try flush(emit) }
    }

    private mutating func flush(_ emit: (Int, Int) throws -> Void) rethrows {
        if bits == 8 {
            try emit(low / 256, high / 256)
        } else {
            try emit(low, high)
        }
        low = .max
        high = .min
        count = 0
        length += 1
    }
}

/// audiowaveform's binary `.dat`, version 2: a 24-byte little-endian header (version 2,
/// flags with bit 0 set for 8-bit data, sample rate, samples per pixel, length in pairs,
/// channels), then the int8 or int16 min/max pairs. The length is known only at the end:
/// it is written as 0 and patched in place by the caller (`lengthOffset`).
enum PeaksDat {
    static let lengthOffset = 16

    static func header(sampleRate: Int, samplesPerPixel: Int, bits: Int, length: Int) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(24)
        append(Int32(2), to: &out)
        append(UInt32(bits == 8 ? 1 : 0), to: &out)
        append(Int32(clamping: sampleRate), to: &out)
        append(Int32(clamping: samplesPerPixel), to: &out)
        append(UInt32(clamping: length), to: &out)
        append(Int32(1), to: &out)
        return out
    }

    static func append<T: FixedWidthInteger>(_ v: T, to out: inout [UInt8]) {
        withUnsafeBytes(of: v.littleEndian) { out.append(contentsOf: $0) }
    }
}
