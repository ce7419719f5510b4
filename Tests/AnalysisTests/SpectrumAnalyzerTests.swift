import SpecvizTestSupport
import XCTest

@testable import Analysis

final class SpectrumAnalyzerTests: XCTestCase {
    func testBandEdgesAreLogarithmic() {
        XCTAssertEqual(LogBands.edge(0), 20, accuracy: 1e-9)
        XCTAssertEqual(LogBands.edge(128), 20_000, accuracy: 1e-6)
        XCTAssertEqual(LogBands.edge(64), 20 * pow(10, 1.5), accuracy: 1e-6) // 632.5 Hz, the geometric middle
        // Every band has at least one bin below Nyquist at 44.1 kHz, and bins ascend.
        let b = LogBands(fftSize: 2048, sampleRate: 44100)
        for i in 0..<128 { XCTAssertGreaterThanOrEqual(b.binCount[i], 1, "band \(i)") }
        for i in 1..<128 { XCTAssertGreaterThanOrEqual(b.firstBin[i], b.firstBin[i - 1]) }
        // 440 Hz lies in band floor(128·log10(22)/3).
        XCTAssertEqual(LogBands.index(ofFrequency: 440), 57)
    }

    func testTiltValues() {
        // +5·(octaves above 200 Hz)^1.4 dB: 2 kHz = 3.32 octaves → 26.8 dB; 10 kHz = 5.64 octaves → 56.4 dB.
        XCTAssertEqual(SpectrumAnalyzer.tilt(frequency: 2000), 5 * powf(log2f(10), 1.4), accuracy: 1e-3)
        XCTAssertEqual(SpectrumAnalyzer.tilt(frequency: 2000), 26.85, accuracy: 0.05)
        XCTAssertEqual(SpectrumAnalyzer.tilt(frequency: 10000), 56.41, accuracy: 0.05)
        XCTAssertEqual(SpectrumAnalyzer.tilt(frequency: 150), 0)
    }

    private func analyse(_ samples: [Float], musicMode: Bool = false) -> [SpectrumFrame] {
        let a = SpectrumAnalyzer(sampleRate: 44100, musicMode: musicMode)
        var frames: [SpectrumFrame] = []
        var f = SpectrumFrame()
        var i = 0
        while i + 2048 <= samples.count {
            samples.withUnsafeBufferPointer { a.process(UnsafeBufferPointer(rebasing: $0[i..<(i + 2048)]), into: &f) }
            frames.append(f)
            i += 2048
        }
        return frames
    }

    func testToneLightsItsBand() {
        let frames = analyse(Signals.sines([(440, 0.5)], seconds: 0.5))
        let last = frames.last!
        let loudest = last.bands.indices.max { last.bandDB[$0] < last.bandDB[$1] }!
        XCTAssertEqual(loudest, LogBands.index(ofFrequency: 440))
        XCTAssertEqual(last.bands[loudest], 1, accuracy: 0.2)
        // A 0.5 sine is −6 dB in power terms (4/N² scaling, Hann-windowed peak is −6 dB lower than rectangular).
        XCTAssertEqual(last.bandDB[loudest], -12, accuracy: 3)
        // Far-away bands are dark.
        XCTAssertLessThan(last.bands[LogBands.index(ofFrequency: 5000)], 0.05)
    }

    func testAutoLevelFollowsAStepInLoudness() {
        let loud = Signals.sines([(1000, 0.5)], seconds: 1)
        let quiet = Signals.sines([(1000, 0.005)], seconds: 7)
        let frames = analyse(loud + quiet)
        let loudFrames = Int(44100.0 / 2048)
        let atLoud = frames[loudFrames - 1]
        // A 0.5 sine peaks at −12 dB (Hann gain ½, 4/N² scaling), less up to 1.5 dB of scalloping:
        // with 1 dB of headroom the top is the next multiple of 5 above, −10 dB.
        XCTAssertEqual(atLoud.dbTop, -10)
        // The scale holds for `holdSeconds` after the drop: a second later it has not moved.
        let later = frames[loudFrames + loudFrames]
        XCTAssertEqual(later.dbTop, -10)
        XCTAssertEqual(later.dbBottom, later.dbTop - 40, accuracy: 1e-4)
        // Eventually the window settles round the quiet tone (loudest bin −52 to −54 dB with
        // scalloping; + 1 dB headroom rounds up to −50), so it fills the display again.
        let end = frames.last!
        XCTAssertEqual(end.dbTop, -50)
        // (The band is the mean dB of its 3 bins, so it sits a few dB under the peak.)
        XCTAssertGreaterThan(end.bands[LogBands.index(ofFrequency: 1000)], 0.6)
    }

    func testSilenceShowsNothing() {
        let frames = analyse([Float](repeating: 0, count: 44100))
        XCTAssertEqual(frames.last!.bands.max()!, 0)
    }

    func testWhiteNoiseIsRoughlyFlatWithoutTilt() {
        let frames = analyse(Signals.whiteNoise(seconds: 3))
        // Average band dB over frames, for bands wide enough to average several bins (> 300 Hz).
        var mean = [Float](repeating: 0, count: 128)
        for f in frames.dropFirst(4) { for i in 0..<128 { mean[i] += f.bandDB[i] } }
        let lo = LogBands.index(ofFrequency: 300), hi = LogBands.index(ofFrequency: 18000)
        let values = (lo...hi).map { mean[$0] / Float(frames.count - 4) }
        XCTAssertLessThan(values.max()! - values.min()!, 3, "white noise spectrum should be flat within 3 dB")
    }
}
