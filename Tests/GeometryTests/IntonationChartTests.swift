import Geometry
import Raster
import ShadersCPU
import SpecvizCore
import XCTest

/// The `tune --report` chart: a lane per note, the cents line at its height and colour.
final class IntonationChartTests: XCTestCase {
    func testLanesAndLinesLandWhereTheReadingsSay() throws {
        // A4 +10 ¢ for 0–1 s, C5 −20 ¢ for 1.2–2.2 s, E5 in tune for 2.4–3.4 s (100 readings/s).
        var points: [IntonationChart.Point] = []
        for (start, midi, cents) in [(0.0, 69, 10.0), (1.2, 72, -20.0), (2.4, 76, 0.0)] {
            for k in 0..<100 { points.append(IntonationChart.Point(time: start + Double(k) / 100, midi: midi, cents: cents)) }
        }
        let chart = IntonationChart(points: points, duration: 3.5, title: "t", subtitle: "s")
        XCTAssertEqual(chart.lanes, [76, 72, 69])
        let width = 800, height = chart.height(width: width)
        var scene = Scene(width: width, height: height, clearColor: SIMD4(0, 0, 0, 1))
        chart.build(into: &scene)
        var picture = PixelBuffer(width: width, height: height)
        try Rasterizer(threads: 1).render(scene, into: &picture, shader2D: FlatShader(), shader3D: LitShader())
        func pixelAt(lane: Int, time: Float, cents: Float) -> SIMD4<UInt8> {
            let b = chart.laneBox(lane, count: 3, width: width, height: height)
            let mid = (b.y0 + b.y1) / 2, perCent = (b.y1 - b.y0) * 0.45 / IntonationChart.range
            let x = b.x0 + (b.x1 - b.x0) * time / 3.5
            return picture.rgba(x: Int(x), y: Int((mid - cents * perCent).rounded(.down)))
        }
        let a4 = pixelAt(lane: 2, time: 0.5, cents: 10), c5 = pixelAt(lane: 1, time: 1.7, cents: -20), e5 = pixelAt(lane: 0, time: 2.9, cents: 0)
        XCTAssertTrue(a4.x > 200 && a4.y > 150 && a4.z < 110, "amber at +10 ¢: \(a4)")
        XCTAssertTrue(c5.x > 200 && c5.y < 120, "red at −20 ¢: \(c5)")
        XCTAssertTrue(e5.y > 180 && e5.x < 120, "green at 0 ¢: \(e5)")
        // Nothing drawn on the A4 lane where it was not played.
        let empty = pixelAt(lane: 2, time: 3.0, cents: 10)
        XCTAssertLessThan(Int(empty.x), 60, "\(empty)")
    }
}
