import Analysis
import Foundation
import XCTest

/// Calibration of the analyser-grade spectrum (issue 16) on synthetic signals: sweep
/// flatness on every scale, pink noise on fractional-octave bands, IEC 61260 centres,
/// the notes scale, and the weighting curves against the standards' tables.
final class SpectrumCalibrationTests: XCTestCase {
    static let rate = 44100

    /// Band levels (dB) of every hop of `samples` under `config`.
    func levels(_ samples: [Float], _ config: AnalysisConfig) -> (bands: BandLayout, frames: [[Float]]) {
        let a = SpectrumAnalyzer(sampleRate: Self.rate, config: config)
        var frame = SpectrumFrame(bands: a.layout.count)
        var out: [[Float]] = []
        var i = 0
        samples.withUnsafeBufferPointer { s in
            while i + a.hopSize <= s.count {
                a.process(UnsafeBufferPointer(rebasing: s[i..<(i + a.hopSize)]), into: &frame)
                out.append(frame.bandDB)
                i += a.hopSize
            }
        }
        return (a.layout, out)
    }

    static func measuring(_ scale: FrequencyScale) -> AnalysisConfig {
        var c = AnalysisConfig()
        c.scale = scale
        c.tilt = .off
        c.weighting = .none
        c.dbRange = -120...0
        return c
    }

    /// x(t) = a·sin(φ(t)), instantaneous frequency f0·(f1/f0)^(t/T).
    static func logSweep(from f0: Double, to f1: Double, seconds: Double, amplitude: Float) -> [Float] {
        let n = Int(seconds * Double(rate)), k = log(f1 / f0)
        return (0..<n).map { i in
            let t = Double(i) / Double(rate)
            return amplitude * Float(sin(2 * Double.pi * f0 * seconds / k * (exp(t / seconds * k) - 1)))
        }
    }

    /// Pink noise (−3 dB/octave) by shaping white noise with Paul Kellet's filter, seeded.
    static func pinkNoise(seconds: Double) -> [Float] {
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        var b0 = 0.0, b1 = 0.0, b2 = 0.0, b3 = 0.0, b4 = 0.0, b5 = 0.0, b6 = 0.0
        return (0..<Int(seconds * Double(rate))).map { _ in
            state = state &* 6364136223846793005 &+ 1442695040888963407
            let w = Double(Int64(bitPattern: state) >> 11) / Double(1 << 52)
            b0 = 0.99886 * b0 + w * 0.0555179; b1 = 0.99332 * b1 + w * 0.0750759
            b2 = 0.96900 * b2 + w * 0.1538520; b3 = 0.86650 * b3 + w * 0.3104856
            b4 = 0.55000 * b4 + w * 0.5329522; b5 = -0.7616 * b5 - w * 0.0168980
            let p = b0 + b1 + b2 + b3 + b4 + b5 + b6 + w * 0.5362
            b6 = w * 0.115926
            return Float(p * 0.02)
        }
    }

    // MARK: sweep

    /// A slow log sweep at −6.02 dBFS: every band's loudest reading is the sweep's level
    /// within ±1 dB, on every scale (weighting none, fixed range, no tilt), 20 Hz – 19 kHz.
    func testLogSweepReadsFlatOnEveryScale() {
        let sweep = Self.logSweep(from: 15, to: 21_000, seconds: 40, amplitude: 0.5)
        let level = 20 * log10(Float(0.5))
        let scales: [FrequencyScale] = [.log, .mel, .bark, .erb, .notes, .octave(1), .octave(3), .octave(6), .octave(12), .octave(24)]
        // Each scale has its own analyser: measured side by side on the machine's cores.
        var worstAt = [(Float, Double)](repeating: (0, 0), count: scales.count)
        worstAt.withUnsafeMutableBufferPointer { out in
            DispatchQueue.concurrentPerform(iterations: scales.count) { i in
                let (bands, frames) = levels(sweep, Self.measuring(scales[i]))
                var worst: Float = 0, at = 0.0
                for b in 0..<bands.count where bands.centers[b] >= 20 && bands.centers[b] <= 19_000 {
                    let peak = frames.map { $0[b] }.max()!
                    if abs(peak - level) > abs(worst) { worst = peak - level; at = bands.centers[b] }
                }
                out[i] = (worst, at)
            }
        }
        for (scale, (worst, at)) in zip(scales, worstAt) {
            XCTAssertLessThanOrEqual(abs(worst), 1, "\(scale): worst band \(at) Hz reads \(worst) dB off")
        }
    }

    /// Linear bands are narrow at the top: the sweep must dwell there (the same ±1 dB
    /// over a slower sweep of the top decade, and a full sweep below 2 kHz).
    func testLogSweepReadsFlatOnLinearScale() {
        let level = 20 * log10(Float(0.5))
        for (f0, f1, seconds) in [(20.0, 2000.0, 20.0), (2000.0, 20_000.0, 60.0)] {
            let sweep = Self.logSweep(from: f0 * 0.9, to: f1 * 1.05, seconds: seconds, amplitude: 0.5)
            let (bands, frames) = levels(sweep, Self.measuring(.linear))
            for b in 0..<bands.count where bands.centers[b] >= max(f0, 80) && bands.centers[b] <= min(f1, 19_000) {
                let peak = frames.map { $0[b] }.max()!
                XCTAssertEqual(peak, level, accuracy: 1, "linear band \(bands.centers[b]) Hz")
            }
        }
    }

    /// A slow sweep through bands narrower than an FFT bin moves smoothly: each band's
    /// level rises and falls once (no flat "stairs" shared by neighbours), and neighbouring
    /// bands peak at different times in order.
    func testSlowSweepMovesThroughNarrowBassBands() {
        let sweep = Self.logSweep(from: 18, to: 200, seconds: 20, amplitude: 0.5)
        let (bands, frames) = levels(sweep, Self.measuring(.log))
        var lastPeak = -1
        for b in 0..<bands.count where bands.centers[b] >= 22 && bands.centers[b] <= 180 {
            let series = frames.map { $0[b] }
            let peak = series.indices.max { series[$0] < series[$1] }!
            XCTAssertGreaterThan(peak, lastPeak, "band \(bands.centers[b]) Hz peaks no later than the one below it")
            lastPeak = peak
        }
    }

    // MARK: pink noise

    /// Pink noise reads flat (±1 dB about its median) on fractional-octave bands wherever
    /// the bands are at least as wide as the analysis resolution: octave:1 from 31.5 Hz,
    /// octave:3 from 31.5 Hz, octave:6 from 250 Hz at the default FFT size (narrower bands
    /// read the spectrum interpolated at their centre, which over-reads noise by up to the
    /// resolution bandwidth over the band's width).
    func testPinkNoiseFlatOnFractionalOctaveBands() {
        let pink = Self.pinkNoise(seconds: 30)
        for (scale, lowest) in [(FrequencyScale.octave(1), 31.0), (.octave(3), 31.0), (.octave(6), 240.0)] {
            let (bands, frames) = levels(pink, Self.measuring(scale))
            let used = frames.dropFirst(8)
            var mean = [Double](repeating: 0, count: bands.count)
            for f in used { for b in 0..<bands.count { mean[b] += pow(10, Double(f[b]) / 10) } }
            let db = mean.map { 10 * log10($0 / Double(used.count)) }
            let chosen = (0..<bands.count).filter { bands.centers[$0] >= lowest && bands.centers[$0] <= 16_500 }
            let sorted = chosen.map { db[$0] }.sorted()
            let median = sorted[sorted.count / 2]
            for b in chosen {
                XCTAssertEqual(db[b], median, accuracy: 1, "\(scale): band \(bands.centers[b]) Hz")
            }
        }
    }

    // MARK: band series

    /// IEC 61260-1 base-10 midband frequencies and nominal names; contiguous edges.
    func testOctaveBandCentresMatchIEC61260() {
        let octave = BandLayout(scale: .octave(1), bands: 0, lowHz: 20, highHz: 20_000)
        XCTAssertEqual(
            octave.centers.map(BandLayout.nominalName),
            ["31.5", "63", "125", "250", "500", "1k", "2k", "4k", "8k", "16k"])
        for (f, exact) in zip(octave.centers, [31.623, 63.096, 125.89, 251.19, 501.19, 1000, 1995.3, 3981.1, 7943.3, 15849]) {
            XCTAssertEqual(f, exact, accuracy: exact * 1e-4)
        }
        let third = BandLayout(scale: .octave(3), bands: 0, lowHz: 20, highHz: 20_000)
        XCTAssertEqual(
            third.centers.map(BandLayout.nominalName),
            [
                "20", "25", "31.5", "40", "50", "63", "80", "100", "125", "160", "200", "250", "315", "400", "500", "630",
                "800", "1k", "1.25k", "1.6k", "2k", "2.5k", "3.15k", "4k", "5k", "6.3k", "8k", "10k", "12.5k", "16k", "20k",
            ])
        for s in [1, 2, 3, 6, 12, 24] {
            let l = BandLayout(scale: .octave(s), bands: 0, lowHz: 20, highHz: 20_000)
            for i in 1..<l.count { XCTAssertEqual(l.lower[i], l.upper[i - 1], accuracy: l.upper[i - 1] * 1e-9) }
            // Bandwidth ratio G^(1/N), G = 10^0.3.
            XCTAssertEqual(l.upper[0] / l.lower[0], pow(pow(10, 0.3), 1 / Double(s)), accuracy: 1e-9)
        }
        // Even N: midbands sit between the odd series' (1000·G^((2x+1)/(2N))).
        let half = BandLayout(scale: .octave(2), bands: 0, lowHz: 900, highHz: 1500)
        XCTAssertEqual(half.centers.first!, 1000 * pow(pow(10, 0.3), 1.0 / 4), accuracy: 1e-6)
    }

    /// `notes`: one band per semitone from C1 up, no empty or duplicated band: each note's
    /// tone is loudest in its own band, and every band is some note's loudest.
    func testNotesScaleHasOneBandPerSemitoneFromC1() {
        var config = Self.measuring(.notes)
        config.lowHz = 32.0 // C1 = 32.70 Hz
        config.highHz = 4200 // C8 = 4186 Hz
        let layout = config.layout
        XCTAssertEqual(layout.count, 85)
        XCTAssertEqual(layout.centers[0], 440 * pow(2, -45.0 / 12), accuracy: 1e-9)
        for i in 1..<layout.count { XCTAssertEqual(layout.centers[i] / layout.centers[i - 1], pow(2, 1.0 / 12), accuracy: 1e-12) }
        var owner = Set<Int>()
        for i in 0..<layout.count {
            let tone = (0..<Int(0.5 * Double(Self.rate))).map { Float(0.3 * sin(2 * Double.pi * layout.centers[i] * Double($0) / Double(Self.rate))) }
            let (_, frames) = levels(tone, config)
            let last = frames.last!
            let loudest = last.indices.max { last[$0] < last[$1] }!
            XCTAssertEqual(loudest, i, "note \(BandLayout.noteName(midi: 24 + i)) lights band \(loudest)")
            owner.insert(loudest)
            XCTAssertEqual(last[i], 20 * log10(0.3), accuracy: 1, "note \(BandLayout.noteName(midi: 24 + i)) level")
        }
        XCTAssertEqual(owner.count, layout.count)
    }

    func testDefaultLayoutIsTheSeedsLogBands() {
        let l = AnalysisConfig().layout
        XCTAssertEqual(l.count, 128)
        for i in 0..<128 {
            XCTAssertEqual(l.lower[i], LogBands.edge(i))
            XCTAssertEqual(l.centers[i], LogBands.center(i))
        }
        let mel = BandLayout(scale: .mel, bands: 64, lowHz: 20, highHz: 20_000)
        XCTAssertEqual(mel.count, 64)
        XCTAssertEqual(mel.lower[0], 20, accuracy: 1e-9)
        XCTAssertEqual(mel.upper[63], 20_000, accuracy: 1e-6)
        for s in [FrequencyScale.mel, .bark, .erb] {
            for f in [20.0, 440, 5000, 19_000] { XCTAssertEqual(s.unwarp(s.warp(f)), f, accuracy: f * 1e-9) }
        }
    }

    // MARK: weighting

    /// IEC 61672-1 Table 3 (A and C, nominal frequencies → exact base-10 frequencies).
    static let iecNominal: [Double] = [
        10, 12.5, 16, 20, 25, 31.5, 40, 50, 63, 80, 100, 125, 160, 200, 250, 315, 400, 500, 630,
        800, 1000, 1250, 1600, 2000, 2500, 3150, 4000, 5000, 6300, 8000, 10000, 12500, 16000, 20000,
    ]
    static let iecA: [Double] = [
        -70.4, -63.4, -56.7, -50.5, -44.7, -39.4, -34.6, -30.2, -26.2, -22.5, -19.1, -16.1, -13.4,
        -10.9, -8.6, -6.6, -4.8, -3.2, -1.9, -0.8, 0, 0.6, 1.0, 1.2, 1.3, 1.2, 1.0, 0.5, -0.1, -1.1,
        -2.5, -4.3, -6.6, -9.3,
    ]
    static let iecC: [Double] = [
        -14.3, -11.2, -8.5, -6.2, -4.4, -3.0, -2.0, -1.3, -0.8, -0.5, -0.3, -0.2, -0.1, 0, 0, 0, 0,
        0, 0, 0, 0, 0, -0.1, -0.2, -0.3, -0.5, -0.8, -1.3, -2.0, -3.0, -4.4, -6.2, -8.5, -11.2,
    ]

    func testAAndCWeightingMatchIEC61672Table() {
        for (i, nominal) in Self.iecNominal.enumerated() {
            let exact = 1000 * pow(10, (10 * log10(nominal / 1000)).rounded() / 10)
            XCTAssertEqual(Weighting.a.gain(exact), Self.iecA[i], accuracy: 0.1, "A at \(nominal) Hz")
            XCTAssertEqual(Weighting.c.gain(exact), Self.iecC[i], accuracy: 0.1, "C at \(nominal) Hz")
        }
    }

    /// ITU-R BS.468-4 table (1 kHz-referenced).
    func testITU468WeightingMatchesTable() {
        let table: [(Double, Double)] = [
            (31.5, -29.9), (63, -23.9), (100, -19.8), (200, -13.8), (400, -7.8), (800, -1.9),
            (1000, 0), (2000, 5.6), (3150, 9.0), (4000, 10.5), (5000, 11.7), (6300, 12.2),
            (7100, 12.0), (8000, 11.4), (9000, 10.1), (10000, 8.1), (12500, 0), (14000, -5.3),
            (16000, -11.7), (20000, -22.2), (31500, -42.7),
        ]
        for (f, v) in table { XCTAssertEqual(Weighting.itu468.gain(f), v, accuracy: 0.1, "468 at \(f) Hz") }
    }

    func testBAndDWeightingShape() {
        // IEC 60651 B: −17.1 dB at 31.5 Hz, −11.6 at 50, −4.2 at 125, −0.7 at 4 kHz, −2.9 at 8 kHz;
        // IEC 60537 D: +11 dB near 3 kHz, −12.8 at 50 Hz.
        for (nominal, v) in [(31.5, -17.1), (50, -11.6), (125, -4.2), (4000, -0.7), (8000, -2.9)] {
            let exact = 1000 * pow(10, (10 * log10(nominal / 1000)).rounded() / 10)
            XCTAssertEqual(Weighting.b.gain(exact), v, accuracy: 0.1, "B at \(nominal) Hz")
        }
        XCTAssertEqual(Weighting.d.gain(1000), 0, accuracy: 1e-9)
        XCTAssertEqual(Weighting.d.gain(3150), 11, accuracy: 0.6)
        XCTAssertEqual(Weighting.d.gain(1000 * pow(10, -13.0 / 10)), -12.8, accuracy: 0.5)
    }

    /// A 1 kHz tone reads the same under none, A, B, C, D and 468 (their 0 dB point).
    func testOneKilohertzReadsTheSameUnderEveryWeighting() {
        let tone = (0..<Self.rate).map { Float(0.25 * sin(2 * Double.pi * 1000 * Double($0) / Double(Self.rate))) }
        var readings: [Float] = []
        for w in Weighting.allCases {
            var c = Self.measuring(.octave(3))
            c.weighting = w
            let (bands, frames) = levels(tone, c)
            let k = bands.centers.firstIndex { abs($0 - 1000) < 1 }!
            readings.append(frames.last![k])
        }
        for r in readings { XCTAssertEqual(r, readings[0], accuracy: 0.05) }
        XCTAssertEqual(readings[0], 20 * log10(0.25), accuracy: 0.1)
    }

    // MARK: windows, FFT sizes, tilt

    /// Every window and FFT size reads a bin-centred and a between-bins sine at its level
    /// on octave bands (band power is normalised by the window's ENBW).
    func testEveryWindowAndSizeIsCalibrated() {
        let windows: [WindowKind] = [.hann, .hamming, .blackman, .blackmanHarris, .flatTop, .kaiser(beta: 9), .rect]
        for w in windows {
            for size in [512, 4096, 65536] {
                var c = Self.measuring(.octave(1))
                c.window = w
                c.fftSize = size
                let f = 1000.0 + 0.5 * 44100 / Double(size)
                let tone = (0..<(size + 4096)).map { Float(0.5 * sin(2 * Double.pi * f * Double($0) / Double(Self.rate))) }
                let (bands, frames) = levels(tone, c)
                let k = bands.centers.firstIndex { abs($0 - 1000) < 1 }!
                XCTAssertEqual(frames.last![k], 20 * log10(0.5), accuracy: w == .rect ? 1 : 0.3, "\(w) at \(size)")
            }
        }
    }

    /// --tilt auto removes most of a steady slope: pink noise (equal energy per octave)
    /// stays within 1 dB/octave of untilted, brown noise (−3 dB per octave of energy per
    /// octave) gets `autoFraction` × 3 dB/octave.
    func testAutoTiltLevelsTheLongTermSpectrum() {
        var c = AnalysisConfig()
        c.tilt = .auto
        let pink = Self.pinkNoise(seconds: 8)
        let a = SpectrumAnalyzer(sampleRate: Self.rate, config: c)
        var frame = SpectrumFrame(bands: a.layout.count)
        pink.withUnsafeBufferPointer { s in
            var i = 0
            while i + 2048 <= s.count { a.process(UnsafeBufferPointer(rebasing: s[i..<(i + 2048)]), into: &frame); i += 2048 }
        }
        XCTAssertEqual(a.autoSlope, 0, accuracy: 1)
        // Brown noise: integrate white noise (−6 dB/octave density, −3 dB/octave per log band).
        var y: Float = 0
        var state: UInt32 = 7
        let brown = (0..<(8 * Self.rate)).map { _ -> Float in
            state = state &* 1664525 &+ 1013904223
            y = 0.999 * y + (Float(state >> 8) / Float(1 << 24) - 0.5) * 0.02
            return y
        }
        let b = SpectrumAnalyzer(sampleRate: Self.rate, config: c)
        brown.withUnsafeBufferPointer { s in
            var i = 0
            while i + 2048 <= s.count { b.process(UnsafeBufferPointer(rebasing: s[i..<(i + 2048)]), into: &frame); i += 2048 }
        }
        XCTAssertEqual(b.autoSlope, 3 * SpectrumAnalyzer.autoFraction, accuracy: 0.7)
    }

    func testParsers() {
        XCTAssertEqual(FrequencyScale(parsing: "octave:3"), .octave(3))
        XCTAssertNil(FrequencyScale(parsing: "octave:5"))
        XCTAssertEqual(FrequencyScale(parsing: "NOTES"), .notes)
        XCTAssertEqual(WindowKind(parsing: "kaiser:7.5"), .kaiser(beta: 7.5))
        XCTAssertEqual(WindowKind(parsing: "blackman-harris"), .blackmanHarris)
        XCTAssertNil(WindowKind(parsing: "triangle"))
        XCTAssertEqual(Tilt(parsing: "-3"), .slope(-3))
        XCTAssertEqual(Tilt(parsing: "off"), .off)
        XCTAssertEqual(Tilt(parsing: "seed"), .seed)
        XCTAssertNil(Tilt(parsing: "sideways"))
        XCTAssertEqual(Weighting(parsing: "a"), .a)
        XCTAssertEqual(Weighting(parsing: "ITU468"), .itu468)
        XCTAssertNil(Weighting(parsing: "E"))
    }

    func testFastDecibelsMatchesLog10() {
        var x: Float = 1e-19
        while x < 1e6 {
            XCTAssertEqual(fastDecibels(x), 10 * log10f(x), accuracy: 1e-3)
            x *= 1.37
        }
        XCTAssertEqual(fastDecibels(0), -200)
    }
}
