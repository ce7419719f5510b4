import SpecvizCore

#if canImport(Glibc)
import Glibc
#endif

/// Shows frames on a Linux framebuffer (`/dev/fb0`), or writes them into a plain file laid
/// out like one (headless use and tests).
///
/// A character device is queried with the fbdev ioctls (`FBIOGET_VSCREENINFO`,
/// `FBIOGET_FSCREENINFO`) for its geometry, stride and channel bitfields, and mapped with
/// `mmap`. When the virtual height holds two screens and the driver can pan
/// (`ypanstep > 0`), frames are drawn into the hidden half and shown with
/// `FBIOPAN_DISPLAY` (double buffering); otherwise each frame is one copy into the visible
/// memory. A plain file gets the size and depth it is given, is sized to
/// `stride × height` bytes and mapped shared, so every frame lands in the file.
/// A frame of another size is centred (cropped or bordered). `write` does not allocate.
public final class FramebufferSink: FrameSink {
    public let path: String
    public let format: FramebufferFormat
    /// True when frames alternate between two halves of the virtual screen.
    public let doubleBuffered: Bool
    private let fd: Int32
    private let map: UnsafeMutableRawPointer
    private let mapLength: Int
    private let isDevice: Bool
    private var varInfo = [UInt32](repeating: 0, count: 40) // struct fb_var_screeninfo, 160 bytes
    private var backHalf = 1
    /// The changed rows of the last frames written, the frame each half of the memory holds
    /// (-1: none, or another size) and the size of the last frame.
    private var changes = ChangeHistory(keeping: 3)
    private var halfHolds = [-1, -1]
    private var lastSize = (width: 0, height: 0)

    // <linux/fb.h> ioctl numbers and field offsets (checked against the header with offsetof).
    static let getVar: UInt = 0x4600, getFix: UInt = 0x4602, panDisplay: UInt = 0x4606

    /// Opens `path`. A character device is probed with ioctls (`width`/`height`/`bitsPerPixel`
    /// are ignored); any other path is a file standing in for one, created or resized to fit,
    /// and needs all three.
    public init(path: String, width: Int? = nil, height: Int? = nil, bitsPerPixel: Int? = nil) throws {
        self.path = path
        var st = stat()
        let exists = stat(path, &st) == 0
        isDevice = exists && (st.st_mode & S_IFMT) == S_IFCHR
        if isDevice {
            let dev = open(path, O_RDWR)
            guard dev >= 0 else { throw MediaError("cannot open framebuffer '\(path)': \(String(cString: strerror(errno)))", path: path) }
            fd = dev
            var fix = [UInt8](repeating: 0, count: 80) // struct fb_fix_screeninfo
            var info = [UInt32](repeating: 0, count: 40)
            let rv = info.withUnsafeMutableBytes { ioctl(dev, Self.getVar, $0.baseAddress!) }
            let rf = fix.withUnsafeMutableBytes { ioctl(dev, Self.getFix, $0.baseAddress!) }
            varInfo = info
            guard rv == 0, rf == 0 else {
                Glibc.close(dev)
                throw MediaError("'\(path)' is not a framebuffer: FBIOGET_*SCREENINFO failed: \(String(cString: strerror(errno)))", path: path)
            }
            func u32(_ o: Int) -> Int { Int(fix[o]) | Int(fix[o + 1]) << 8 | Int(fix[o + 2]) << 16 | Int(fix[o + 3]) << 24 }
            let bpp = Int(varInfo[6])
            var f = try FramebufferFormat(width: Int(varInfo[0]), height: Int(varInfo[1]), bitsPerPixel: bpp)
            f.red = (Int(varInfo[8]), Int(varInfo[9]))
            f.green = (Int(varInfo[11]), Int(varInfo[12]))
            f.blue = (Int(varInfo[14]), Int(varInfo[15]))
            f.stride = u32(48)
            format = f
            let smemLen = u32(24)
            let yPanStep = Int(fix[42]) | Int(fix[43]) << 8
            let virtualHeight = Int(varInfo[3])
            doubleBuffered = yPanStep > 0 && virtualHeight >= 2 * f.height && smemLen >= 2 * f.height * f.stride
            mapLength = max(smemLen, f.stride * f.height * (doubleBuffered ? 2 : 1))
        } else {
            guard let width, let height, let bitsPerPixel else {
                throw MediaError(
                    exists
                        ? "'\(path)' is not a framebuffer device: give --fb-size WxH and --fb-bpp for a file"
                        : "no framebuffer at '\(path)' (in a terminal use --display terminal; for a file give --fb-size WxH)")
            }
            format = try FramebufferFormat(width: width, height: height, bitsPerPixel: bitsPerPixel)
            fd = open(path, O_RDWR | O_CREAT, 0o644)
            guard fd >= 0 else { throw MediaError("cannot open '\(path)' as a framebuffer file: \(String(cString: strerror(errno)))", path: path) }
            mapLength = format.stride * format.height
            guard ftruncate(fd, off_t(mapLength)) == 0 else {
                Glibc.close(fd)
                throw MediaError("cannot size '\(path)' to \(mapLength) bytes: \(String(cString: strerror(errno)))", path: path)
            }
            doubleBuffered = false
        }
        guard let m = mmap(nil, mapLength, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0), m != MAP_FAILED else {
            Glibc.close(fd)
            throw MediaError("cannot map framebuffer '\(path)': \(String(cString: strerror(errno)))", path: path)
        }
        map = m
    }

    deinit {
        munmap(map, mapLength)
        Glibc.close(fd)
    }

    /// The picture size this display wants (its visible size).
    public var preferredSize: (width: Int, height: Int)? { (format.width, format.height) }

    /// Converts `frame` to the device's pixel format into the back buffer (or the visible
    /// memory) and shows it. Does not allocate.
    public func write(_ frame: PixelBuffer, index: Int) throws {
        try write(frame, index: index, changed: .all)
    }

    /// `write`, converting only the rows that changed since the frame the memory it draws
    /// into holds (`changed`: since the frame written before this one).
    public func write(_ frame: PixelBuffer, index: Int, changed: ChangedRows) throws {
        let f = format
        let half = doubleBuffered ? backHalf : 0
        let yBase = half * f.height
        let w = min(frame.width, f.width), h = min(frame.height, f.height)
        let srcX = (frame.width - w) / 2, srcY = (frame.height - h) / 2
        let dstX = (f.width - w) / 2, dstY = (f.height - h) / 2
        let bpp = f.bytesPerPixel
        let xrgb = f.red == (16, 8) && f.green == (8, 8) && f.blue == (0, 8)
        // The rows to convert: those changed since the frame this memory holds.
        if lastSize != (frame.width, frame.height) { halfHolds = [-1, -1] }
        lastSize = (frame.width, frame.height)
        let shown = changes.record(changed)
        let rows = changes.since(halfHolds[half])
        halfHolds[half] = shown
        frame.pixels.withUnsafeBufferPointer { src in
            for y in 0..<h where rows.isAll || rows.intersects((srcY + y)..<(srcY + y + 1)) {
                let row = map + (yBase + dstY + y) * f.stride + dstX * bpp
                let s = (srcY + y) * frame.width + srcX
                switch bpp {
                case 4 where xrgb:
                    // The common XRGB8888 layout: swap R and B, set X, 8 pixels a step (the
                    // compiler left the plain loop scalar).
                    let from = UnsafeRawPointer(src.baseAddress! + s)
                    var x = 0
                    while x + 8 <= w {
                        let p = from.loadUnaligned(fromByteOffset: 4 * x, as: SIMD8<UInt32>.self)
                        let v = (p & 0x0000_FF00) | (p & 0xFF) &<< 16 | (p &>> 16) & 0xFF | 0xFF00_0000
                        row.storeBytes(of: v, toByteOffset: 4 * x, as: SIMD8<UInt32>.self)
                        x += 8
                    }
                    let d = row.assumingMemoryBound(to: UInt32.self)
                    while x < w {
                        let p = src[s + x]
                        d[x] = (p & 0x0000_FF00) | (p & 0xFF) << 16 | (p >> 16) & 0xFF | 0xFF00_0000
                        x += 1
                    }
                case 4:
                    let d = row.assumingMemoryBound(to: UInt32.self)
                    for x in 0..<w { d[x] = f.encode(src[s + x]) }
                case 3:
                    let d = row.assumingMemoryBound(to: UInt8.self)
                    for x in 0..<w {
                        let v = f.encode(src[s + x])
                        d[3 * x] = UInt8(truncatingIfNeeded: v)
                        d[3 * x + 1] = UInt8(truncatingIfNeeded: v >> 8)
                        d[3 * x + 2] = UInt8(truncatingIfNeeded: v >> 16)
                    }
                default:
                    let d = row.assumingMemoryBound(to: UInt16.self)
                    for x in 0..<w { d[x] = UInt16(truncatingIfNeeded: f.encode(src[s + x])) }
                }
            }
        }
        if doubleBuffered {
            varInfo[5] = UInt32(yBase) // yoffset
            _ = varInfo.withUnsafeMutableBytes { ioctl(fd, Self.panDisplay, $0.baseAddress!) }
            backHalf = 1 - backHalf
        }
    }

    /// Reads the visible picture back (tests, screenshots of a device).
    public func readBack() -> PixelBuffer {
        let f = format
        var picture = PixelBuffer(width: f.width, height: f.height)
        let yBase = doubleBuffered ? (1 - backHalf) * f.height : 0
        for y in 0..<f.height {
            let row = map + (yBase + y) * f.stride
            for x in 0..<f.width {
                var v: UInt32 = 0
                for b in 0..<f.bytesPerPixel { v |= UInt32(row.load(fromByteOffset: x * f.bytesPerPixel + b, as: UInt8.self)) << UInt32(8 * b) }
                picture.pixels[y * f.width + x] = f.decode(v)
            }
        }
        return picture
    }

    /// Flushes a file's mapping to disk; a device needs nothing.
    public func finish() throws {
        if !isDevice && msync(map, mapLength, MS_SYNC) != 0 {
            throw MediaError("cannot write '\(path)': \(String(cString: strerror(errno)))", path: path)
        }
    }

    public func cancel() {}
}
