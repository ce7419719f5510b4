import Foundation
import MediaIO
import SpecvizCore
import XCTest

/// Told which rows changed, the video encoder converts only those bands into its pooled
/// YUV frames and keeps the rest: the file must be the one it writes when told nothing,
/// byte for byte (x264 is deterministic), and a hint that leaves out a changed row must
/// show (so the comparison can fail). Rows outside the hint are never read.
final class ChangedRowsEncodeTests: XCTestCase {
    /// 320x200: six bands of 32 rows and a last one of 8. A gradient, with a bar that moves
    /// down two rows per frame and a dot that blinks near the bottom; frame 12 darkens the
    /// top 150 rows (most of the frame changes, twice).
    let w = 320, h = 200

    func frame(_ k: Int) -> (PixelBuffer, ChangedRows) {
        var p = PixelBuffer(width: w, height: h)
        for y in 0..<h {
            for x in 0..<w { p.pixels[y * w + x] = UInt32(x & 0xFF) | UInt32((y + x / 3) & 0xFF) << 8 | 0x40 << 16 | 0xFF00_0000 }
        }
        let bar = 20 + 2 * k
        for y in bar..<(bar + 6) { for x in 10..<300 { p.pixels[y * w + x] = 0xFF20_E0F0 } }
        if k % 4 < 2 { for y in 190..<196 { for x in 150..<160 { p.pixels[y * w + x] = 0xFFFF_FFFF } } }
        if k == 12 { for i in 0..<(150 * w) { p.pixels[i] &= 0xFF3F_3F3F } }
        var changed = ChangedRows.none
        if k == 0 {
            changed = .all
        } else {
            changed.insert((bar - 2)..<(bar + 6))
            if k % 2 == 0 { changed.insert(190..<196) }
            if k == 12 || k == 13 { changed.insert(0..<150) }
        }
        return (p, changed)
    }

    /// - stale: fill the bands without a row in the hint with noise first (the encoder,
    ///   reading only the bands it is told changed, must not see it).
    func encode(stale: Bool = false, _ hint: (Int, ChangedRows) -> ChangedRows) throws -> Data {
        let path = NSTemporaryDirectory() + "/specviz-changed-\(getpid())-\(UUID().uuidString).mp4"
        defer { unlink(path) }
        let encoder = try VideoEncoder(path: path, options: VideoEncoder.Options(width: w, height: h, fps: 30))
        for k in 0..<24 {
            let (picture, changed) = frame(k)
            var p = picture
            let told = hint(k, changed)
            if stale && !told.isAll {
                let band = try XCTUnwrap(encoder.changedRowBands, "yuv420p output reads only the changed bands")
                var listed = [Bool](repeating: false, count: h)
                told.forEach { r in for y in max(0, r.lowerBound)..<min(h, r.upperBound) { listed[y] = true } }
                for y in 0..<h where !listed[(y / band * band)..<min(h, y / band * band + band)].contains(true) {
                    for x in 0..<w { p.pixels[y * w + x] = UInt32(truncatingIfNeeded: (x &* 7919) ^ (y &* 104_729) ^ (k &* 31)) | 0xFF00_0000 }
                }
            }
            try encoder.write(p, index: k, changed: told)
        }
        try encoder.finish()
        return try Data(contentsOf: URL(fileURLWithPath: path))
    }

    func testOnlyTheChangedBandsAreConvertedAndTheFileIsTheSame() throws {
        let whole = try encode { _, _ in .all }
        let banded = try encode { _, changed in changed }
        XCTAssertGreaterThan(whole.count, 1000)
        XCTAssertEqual(banded, whole, "told the changed rows, the encoder writes the same file")
        let stale = try encode(stale: true) { _, changed in changed }
        XCTAssertEqual(stale, whole, "rows outside the changed ones are not read")
        // A hint without the blinking dot's rows: those bands keep an older picture.
        let wrong = try encode { k, changed in
            var c = ChangedRows.none
            if k == 0 { return changed }
            c.insert((20 + 2 * k - 2)..<(20 + 2 * k + 6))
            return c
        }
        XCTAssertNotEqual(wrong, whole, "a hint that misses changed rows shows in the file")
    }
}
