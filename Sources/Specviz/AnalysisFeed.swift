import Analysis
import SpecvizCore

#if canImport(Glibc)
import Glibc
#endif

/// Something else that listens to the same audio as the spectrum (pitch, tempo).
public protocol AnalysisTap: AnyObject {
    /// Receives every sample once, in order, in chunks of any size. Must not allocate.
    func process(_ samples: UnsafeBufferPointer<Float>)
}

/// Pulls audio from a source in hops (2048 samples by default) and keeps the latest spectrum
/// frame. Causal: `advance(to: t)` analyses exactly the hops that end at or before t (their
/// frames feed the histories, the auto-level and the taps). Then it measures `current`, the
/// spectrum of the frame's own time: the FFT window centred on t, reading half a window
/// ahead of the hops (`centred`; the live view's window ends at t instead: it shows
/// nothing of a sound before it is heard).
public final class AnalysisFeed {
    public let source: AudioSource
    public let analyzer: SpectrumAnalyzer
    public private(set) var latest = SpectrumFrame()
    /// The spectrum at the time of the last `advance(to:)` (window centred on it), on the
    /// display range of `latest`: what a video frame draws.
    public private(set) var current = SpectrumFrame()
    public var taps: [AnalysisTap] = []
    public private(set) var samplesRead = 0
    public private(set) var exhausted = false
    /// The window of `current` is centred on the frame's time (a render), or ends at it
    /// (false: `live`, causal).
    public var centred = true
    private var hop: [Float]
    private let hopSize: Int
    /// Samples read ahead of the hops (oldest first), for `current`; they go to the hops
    /// and the taps in their turn.
    private var ahead: [Float]
    private var aheadCount = 0

    /// The seed's analysis (music mode: seed tilt; mic mode: none).
    public convenience init(source: AudioSource, musicMode: Bool = true, gainDB: Float = 0) {
        self.init(source: source, config: .seed(musicMode: musicMode, gainDB: gainDB))
    }

    public init(source: AudioSource, config: AnalysisConfig) {
        self.source = source
        analyzer = SpectrumAnalyzer(sampleRate: source.sampleRate, config: config)
        hopSize = analyzer.hopSize
        hop = [Float](repeating: 0, count: hopSize)
        ahead = [Float](repeating: 0, count: hopSize + config.fftSize)
        latest = SpectrumFrame(bands: analyzer.layout.count)
        latest.axis = analyzer.layout.axis
        current = latest
    }

    public var sampleRate: Int { source.sampleRate }

    /// Seconds of audio read so far.
    public var timeRead: Double { Double(samplesRead) / Double(source.sampleRate) }

    /// End time (s) of the next hop to analyse.
    public var nextHopTime: Double { Double(latest.index + 2) * Double(hopSize) / Double(source.sampleRate) }

    /// Analyses every hop ending at or before `time` (seconds), then measures `current` at
    /// `time`. A final partial hop is padded with silence. Does not allocate.
    public func advance(to time: Double) throws {
        while !exhausted && nextHopTime <= time + 1e-9 {
            try readHop()
        }
        try measure(at: time)
    }

    /// `current`: the window centred on `time` (or ending at it), as far as the source has the samples.
    private func measure(at time: Double) throws {
        let end = Int((time * Double(source.sampleRate)).rounded()) + (centred ? analyzer.config.fftSize / 2 : 0)
        let wanted = min(max(end - samplesRead, 0), ahead.count)
        try ahead.withUnsafeMutableBufferPointer { buf in
            while !exhausted && aheadCount < wanted {
                let n = try source.readMono(into: UnsafeMutableBufferPointer(rebasing: buf[aheadCount..<wanted]))
                if n == 0 { break }
                aheadCount += n
            }
        }
        let m = min(aheadCount, wanted)
        ahead.withUnsafeBufferPointer { buf in
            analyzer.measure(ahead: UnsafeBufferPointer(rebasing: buf[0..<m]), after: latest, into: &current)
        }
    }

    private func readHop() throws {
        var filled = 0
        try hop.withUnsafeMutableBufferPointer { buf in
            // The samples read ahead first, then the source.
            let early = min(aheadCount, hopSize)
            if early > 0 {
                ahead.withUnsafeMutableBufferPointer { a in
                    memcpy(buf.baseAddress!, a.baseAddress!, early * MemoryLayout<Float>.size)
                    memmove(a.baseAddress!, a.baseAddress! + early, (aheadCount - early) * MemoryLayout<Float>.size)
                }
                aheadCount -= early
                filled = early
            }
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
