import SpecvizCore
import Tuning

/// `specviz tune FILE --report out.png` (issue 19): an intonation chart over time. One lane
/// per note played (highest at the top), the cents deviation of what the tuner showed as a
/// line (green within ±5 ¢, amber within ±15 ¢, red beyond), the ±5 ¢ in-tune band shaded,
/// note names on the left and times along the bottom. Pure: points in, triangles and text
/// out, drawn by our rasteriser.
public struct IntonationChart {
    /// One tuner reading: media time (s), the shown note (MIDI, as named) and its cents.
    public struct Point: Sendable, Equatable {
        public var time: Float
        public var midi: Int16
        public var cents: Float
        public init(time: Double, midi: Int, cents: Double) {
            self.time = Float(time)
            self.midi = Int16(clamping: midi)
            self.cents = Float(cents)
        }
    }

    public var points: [Point]
    public var duration: Double
    public var title: String
    public var subtitle: String
    public var flats: Bool
    /// Readings further apart than this (s) are not joined by the line.
    public var gap: Float = 0.08

    public init(points: [Point], duration: Double, title: String, subtitle: String, flats: Bool = false) {
        self.points = points
        self.duration = duration
        self.title = title
        self.subtitle = subtitle
        self.flats = flats
    }

    /// Cents shown from the lane's centre to its edge.
    public static let range: Float = 50
    static let inTune = SIMD4<Float>(0.30, 0.85, 0.45, 1)
    static let close = SIMD4<Float>(0.95, 0.75, 0.25, 1)
    static let off = SIMD4<Float>(0.95, 0.35, 0.30, 1)

    /// A deviation line's colour by its class (`TuningTolerance`).
    static func color(cents: Double) -> SIMD4<Float> {
        switch TuningTolerance.classify(cents: cents) {
        case .inTune: inTune
        case .near: close
        case .far: off
        }
    }

    /// The notes with a lane, highest first.
    public var lanes: [Int] { Array(Set(points.map { Int($0.midi) })).sorted(by: >) }

    /// The picture's size for `width` pixels: 80 px per lane (at least 24), at most 2400 high.
    public func height(width: Int) -> Int {
        let laneHeight = max(24, min(80, 1600 / max(lanes.count, 1)))
        return min(2400, Self.top + Self.bottom + max(lanes.count, 1) * laneHeight)
    }

    static let top = 96, bottom = 56, left = 84, right = 24

    /// Pixel box of lane `i` (y down).
    public func laneBox(_ i: Int, count: Int, width: Int, height: Int) -> (x0: Float, y0: Float, x1: Float, y1: Float) {
        let h = Float(height - Self.top - Self.bottom) / Float(max(count, 1))
        let y0 = Float(Self.top) + Float(i) * h
        return (Float(Self.left), y0, Float(width - Self.right), y0 + h)
    }

    /// Builds the chart into `scene` (sized `width`×`height`).
    public func build(into scene: inout Scene) {
        let w = scene.width, h = scene.height
        func clip(_ x: Float, _ y: Float) -> SIMD2<Float> { SIMD2(x / Float(w) * 2 - 1, 1 - y / Float(h) * 2) }
        func rect(_ x0: Float, _ y0: Float, _ x1: Float, _ y1: Float, _ c: SIMD4<Float>) {
            let a = clip(x0, y1), b = clip(x1, y0)
            scene.quad(x0: a.x, y0: a.y, x1: b.x, y1: b.y, bottom: c, top: c)
        }
        let lanes = self.lanes, index = Dictionary(uniqueKeysWithValues: lanes.enumerated().map { ($1, $0) })
        let span = Float(max(duration, 1e-3))
        let plotX0 = Float(Self.left), plotX1 = Float(w - Self.right)
        func x(_ t: Float) -> Float { plotX0 + (plotX1 - plotX0) * min(max(t / span, 0), 1) }

        scene.begin2D()
        for (i, _) in lanes.enumerated() {
            let b = laneBox(i, count: lanes.count, width: w, height: h)
            rect(b.x0, b.y0, b.x1, b.y1, i % 2 == 0 ? SIMD4(0.10, 0.11, 0.14, 1) : SIMD4(0.075, 0.08, 0.10, 1))
            let mid = (b.y0 + b.y1) / 2, perCent = (b.y1 - b.y0) * 0.45 / Self.range
            rect(b.x0, mid - 5 * perCent, b.x1, mid + 5 * perCent, SIMD4(0.30, 0.85, 0.45, 0.16))
            rect(b.x0, mid - 0.5, b.x1, mid + 0.5, SIMD4(0.6, 0.65, 0.7, 0.5))
            for c: Float in [-25, 25] { rect(b.x0, mid - c * perCent - 0.5, b.x1, mid - c * perCent + 0.5, SIMD4(0.5, 0.55, 0.6, 0.18)) }
        }
        // Time grid.
        let step = Self.tickStep(Double(span))
        var t = 0.0
        while t <= Double(span) + 1e-9 {
            let px = x(Float(t))
            rect(px - 0.5, Float(Self.top), px + 0.5, Float(h - Self.bottom), SIMD4(0.5, 0.55, 0.6, 0.22))
            t += step
        }
        // The deviation lines.
        var previous: Point?
        for p in points {
            defer { previous = p }
            guard let lane = index[Int(p.midi)], let q = previous, q.midi == p.midi, p.time - q.time <= gap else { continue }
            let b = laneBox(lane, count: lanes.count, width: w, height: h)
            let mid = (b.y0 + b.y1) / 2, perCent = (b.y1 - b.y0) * 0.45 / Self.range
            func y(_ c: Float) -> Float { mid - max(-Self.range, min(Self.range, c)) * perCent }
            let worst = max(abs(p.cents), abs(q.cents))
            let color = Self.color(cents: Double(worst))
            scene.segment(clip(x(q.time), y(q.cents)), clip(x(p.time), y(p.cents)), halfWidthPixels: 1.4, color: color)
        }
        scene.end2D()

        // Text: title, note names, cents scale, times.
        let text = SIMD4<Float>(0.85, 0.88, 0.95, 1), dim = SIMD4<Float>(0.55, 0.6, 0.7, 1)
        scene.addText(TextRun(title, at: SIMD2(Float(Self.left), 40), size: 26, color: text))
        scene.addText(TextRun(subtitle, at: SIMD2(Float(Self.left), 72), size: 17, color: dim))
        for (i, midi) in lanes.enumerated() {
            let b = laneBox(i, count: lanes.count, width: w, height: h)
            let mid = (b.y0 + b.y1) / 2
            let size = min(20, (b.y1 - b.y0) * 0.5)
            scene.addText(
                TextRun(Note(midi: midi).name(flats: flats), at: SIMD2(Float(Self.left) - 12, mid + size * 0.36), size: size, color: text, anchor: .right))
            if b.y1 - b.y0 >= 40 {
                let perCent = (b.y1 - b.y0) * 0.45 / Self.range
                for c: Float in [-25, 25] {
                    scene.addText(TextRun(c > 0 ? "+25" : "−25", at: SIMD2(b.x1 - 4, mid - c * perCent - 2), size: 11, color: dim, anchor: .right))
                }
            }
        }
        t = 0
        while t <= Double(span) + 1e-9 {
            scene.addText(TextRun(Self.clock(t, step: step), at: SIMD2(x(Float(t)), Float(h - Self.bottom) + 24), size: 15, color: dim, anchor: .center))
            t += step
        }
        scene.addText(
            TextRun(
                "±5 ¢ shaded · line: green ≤ 5 ¢, amber ≤ 15 ¢, red beyond · lanes ±50 ¢",
                at: SIMD2(Float(w - Self.right), Float(h) - 10), size: 13, color: dim, anchor: .right))
    }

    /// A round time step giving about 6–12 ticks over `span` seconds.
    static func tickStep(_ span: Double) -> Double {
        for s in [0.1, 0.2, 0.5, 1, 2, 5, 10, 15, 30, 60, 120, 300, 600, 900, 1800, 3600] where span / s <= 12 { return s }
        return 7200
    }

    /// `m:ss`, or seconds with one decimal when the ticks are under a second apart.
    static func clock(_ t: Double, step: Double) -> String {
        if step < 1 { let d = Int((t * 10).rounded()); return "\(d / 10).\(d % 10) s" }
        let s = Int(t.rounded())
        return "\(s / 60):" + (s % 60 < 10 ? "0" : "") + "\(s % 60)"
    }
}
