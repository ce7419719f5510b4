import SpecvizCore

/// One hop's raw-window analysis done ahead: the window loaded, its lag functions with the
/// Pearson normalisation, and the autocorrelation peak search. None of it depends on what
/// the tracker has latched, so a file analysis can compute it on a second thread
/// (`HopPreparer`) while the tracker works on the hops before.
public final class PreparedWindow {
    public let analysis: LagAnalysis
    public private(set) var pearson: PearsonPeakSearch.Result?
    /// Samples fed before the end of its hop (the tracker checks it is its own hop).
    public internal(set) var position = -1

    init(size: Int, maxLag: Int) { analysis = LagAnalysis(size: size, maxLag: maxLag) }

    func prepare(_ window: UnsafePointer<Float>, minLag: Int, maxLag: Int) {
        analysis.load(window)
        analysis.computeLags()
        pearson = PearsonPeakSearch.search(analysis, minLag: minLag, maxLag: maxLag)
    }
}

/// The hops a chunk of samples completes, prepared in order (`PitchTracker.process(_:prepared:onHop:)`).
public final class PreparedHops {
    var windows: [PreparedWindow] = []
    var count = 0
    var next = 0

    public init() {}
}

/// Mirrors a `PitchTracker`'s ring buffer on another thread: fed the same chunks in the same
/// order, it prepares the raw window of every hop the tracker will analyse.
public final class HopPreparer {
    private let windowSize: Int, hopSize: Int
    private let minLag: Int, maxLag: Int
    private let ring: OwnedBuffer<Float>
    private let window: OwnedBuffer<Float>
    private var writeIndex = 0, filled = 0, sinceHop = 0, samplesSeen = 0

    /// For hops of `tracker` (its sizes and the detector's lag range).
    public init(for tracker: PitchTracker) {
        windowSize = tracker.windowSize
        hopSize = tracker.hopSize
        minLag = tracker.detector.minLag
        maxLag = tracker.detector.maxLag
        ring = OwnedBuffer(zeroed: windowSize)
        window = OwnedBuffer(zeroed: windowSize)
    }

    /// Prepares the hops `samples` completes into `hops` (reusing its windows).
    public func prepare(_ samples: UnsafeBufferPointer<Float>, into hops: PreparedHops) {
        hops.count = 0
        hops.next = 0
        guard let base = samples.baseAddress else { return }
        var i = 0
        let n = samples.count
        while i < n {
            let take = min(n - i, hopSize - sinceHop, windowSize - writeIndex)
            (ring.base + writeIndex).update(from: base + i, count: take)
            writeIndex = (writeIndex + take) % windowSize
            filled = min(windowSize, filled + take)
            sinceHop += take
            samplesSeen += take
            i += take
            guard sinceHop == hopSize else { continue }
            sinceHop = 0
            // As `PitchTracker.analyseHop`: oldest sample first, zeros before the ring fills.
            let head = windowSize - writeIndex
            window.base.update(from: ring.base + writeIndex, count: head)
            (window.base + head).update(from: ring.base, count: writeIndex)
            if hops.count == hops.windows.count { hops.windows.append(PreparedWindow(size: windowSize, maxLag: maxLag + 2)) }
            let prepared = hops.windows[hops.count]
            prepared.position = -1
            if filled >= hopSize {
                prepared.prepare(window.base, minLag: minLag, maxLag: maxLag)
                prepared.position = samplesSeen
            }
            hops.count += 1
        }
    }
}
