import Analysis
import SpecvizCore

/// Something else that listens to the same audio as the spectrum (pitch, tempo).
public protocol AnalysisTap: AnyObject {
    /// Receives every sample once, in order, in chunks of any size. Must not allocate.
    func process(_ samples: UnsafeBufferPointer<Float>)
}

/// Pulls audio from a source in hops (2048 samples by default) and keeps the latest spectrum frame.
/// Causal: `advance(to: t)` analyses exactly the hops that end at or before t.
public final class AnalysisFeed {
    public let source: AudioSource
    public let analyzer: SpectrumAnalyzer
    public private(set) var latest = SpectrumFrame()
    public var taps: [AnalysisTap] = []
    public private(set) var samplesRead = 0
    public private(set) var exhausted = false
    private var hop: [Float]
    private let hopSize: Int

    /// The seed's analysis (music mode: seed tilt; mic mode: none).
    public convenience init(source: AudioSource, musicMode: Bool = true, gainDB: Float = 0) {
        self.init(source: source, config: .seed(musicMode: musicMode, gainDB: gainDB))
    }

    public init(source: AudioSource, config: AnalysisConfig) {
        self.source = source
        analyzer = SpectrumAnalyzer(sampleRate: source.sampleRate, config: config)
        hopSize = analyzer.hopSize
        hop = [Float](repeating: 0, count: hopSize)
        latest = SpectrumFrame(bands: analyzer.layout.count)
        latest.axis = analyzer.layout.axis
    }

    public var sampleRate: Int { source.sampleRate }

    /// Seconds of audio read so far.
    public var timeRead: Double { Double(samplesRead) / Double(source.sampleRate) }

    /// End time (s) of the next hop to analyse.
    public var nextHopTime: Double { Double(latest.index + 2) * Double(hopSize) / Double(source.sampleRate) }

    /// Analyses every hop ending at or before `time` (seconds). A final partial hop is
    /// padded with silence. Does not allocate.
    public func advance(to time: Double) throws {
        while !exhausted && nextHopTime <= time + 1e-9 {
            try readHop()
        }
    }

    private func readHop() throws {
        var filled = 0
        try hop.withUnsafeMutableBufferPointer { buf in
            while filled < hopSize {
                let n = try source.readMono(into: UnsafeMutableBufferPointer(rebasing: buf[filled...]))
                if n == 0 { break }
                filled += n
            }
            if filled < hopSize {
                exhausted = true
                for i in filled..<hopSize { buf[i] = 0 }
            }
        }
        samplesRead += filled
        if filled == 0 { return }
        hop.withUnsafeBufferPointer { buf in
            for tap in taps { tap.process(UnsafeBufferPointer(rebasing: buf[0..<filled])) }
            analyzer.process(buf, into: &latest)
        }
    }
}
