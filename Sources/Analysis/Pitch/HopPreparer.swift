import SpecvizCore

/// One hop's raw-window analysis done ahead: the window loaded, its lag functions with the
/// Pearson normalisation, and the autocorrelation peak search. None of it depends on what
/// the tracker has latched, so a file analysis can compute it on a second thread
/// (`HopPreparer`) while the tracker works on the hops before. Where the raw window foretells
/// the detector's fallbacks, also the rumble-free retry and the rescue's probes (equally
/// independent of the latch).
public final class PreparedWindow {
    public let analysis: LagAnalysis
    public private(set) var pearson: PearsonPeakSearch.Result?
    /// Samples fed before the end of its hop (the tracker checks it is its own hop).
    public internal(set) var position = -1
    /// The rumble-free window's YIN and autocorrelation results (nil: not foreseen).
    private(set) var retry: (yin: LagEstimate?, pearson: PearsonPeakSearch.Result?)?
    /// The rescue's candidates and evidence (nil: not foreseen).
    var probes: RescueProbes? { probed ? ownProbes : nil }
    private let ownProbes = RescueProbes()
    private var probed = false

    init(size: Int, maxLag: Int) { analysis = LagAnalysis(size: size, maxLag: maxLag) }

    /// Prepares `window`; with `rumbleFree`, also what it foretells.
    func prepare(_ window: UnsafePointer<Float>, rumbleFree: UnsafePointer<Float>?, using preparer: HopPreparer) {
        let minLag = preparer.minLag, maxLag = preparer.maxLag
        analysis.load(window)
        analysis.computeLags()
        pearson = PearsonPeakSearch.search(analysis, minLag: minLag, maxLag: maxLag)
        retry = nil
        probed = false
        let level = HybridPitchDetector.level(of: analysis)
        preparer.noiseFloor.update(level: level)
        guard let rumbleFree, HybridPitchDetector.isReadable(analysis) else { return }
        // Where YIN and the autocorrelation find no period in the raw window, the detector
        // mostly finds none either and falls back on the rumble-free window, then the rescue
        // (public pitch set, rumble: 82 % of its retries foreseen so; on the demo 98 %). An
        // unforeseen one the tracker does itself; a needless one costs this thread only.
        let rate = preparer.sampleRate
        let yin = YinSearch.search(analysis, minLag: minLag, maxLag: maxLag)
        guard HybridPitchDetector.combine(yin: yin, ac: pearson, sampleRate: rate) == nil else { return }
        preparer.rumbleFreeAnalysis.analyse(rumbleFree)
        let (y2, a2) = HybridPitchDetector.retrySearch(preparer.rumbleFreeAnalysis, minLag: minLag, maxLag: maxLag)
        retry = (y2, a2)
        guard HybridPitchDetector.combine(yin: y2, ac: a2, sampleRate: rate) == nil,
            level > preparer.noiseFloor.effective
        else { return }
        preparer.fingerprint.load(window)
        ownProbes.probe(analysis, fingerprint: preparer.fingerprint, minLag: minLag, maxLag: maxLag)
        probed = true
    }
}

/// The hops a chunk of samples completes, prepared in order (`PitchTracker.process(_:prepared:onHop:)`).
public final class PreparedHops {
    var windows: [PreparedWindow] = []
    var count = 0
    var next = 0
    /// The preparer's count of hops the tracker has taken (`HopPreparer.taken`).
    var taken: Locked<Int>?

    public init() {}
}

/// Mirrors a `PitchTracker`'s ring buffers on another thread: fed the same chunks in the same
/// order, it prepares the raw window of every hop the tracker will analyse (and runs the
/// same fixed high-pass for its rumble-free window).
public final class HopPreparer {
    private let windowSize: Int, hopSize: Int
    let minLag: Int, maxLag: Int
    let sampleRate: Double
    private var ring: MirroredRing
    /// The input through the tracker's fixed high-pass (`PitchTracker.rumbleCutoff`).
    private var fixedRing: MirroredRing
    private var fixedHighPass = StreamingHighPass()
    /// Scratch for the foreseen retry and rescue.
    let rumbleFreeAnalysis: LagAnalysis
    let fingerprint: HarmonicFingerprint
    /// The detector's noise floor, followed on the same levels (it gates the rescue).
    var noiseFloor = NoiseFloor()
    /// Hops the tracker has taken from prepared chunks (it counts them as it goes), and
    /// hops handed over in chunks already prepared: the difference is the tracker's backlog.
    let taken = Locked(0)
    private var handedOver = 0
    /// The backlog (hops) from which a file analysis foresees: half a chunk of 4096 samples
    /// at the 512-sample hop. The 32 s demo's `tune` took the same time (within the noise of
    /// this machine) at 2, 4 and 8 hops, 10-20 % longer at 16 and 24: this thread then leaves
    /// too much to the tracker.
    public static let foresight = 4
    private var filled = 0, sinceHop = 0, samplesSeen = 0

    /// For hops of `tracker` (its sizes and the detector's lag range).
    public init(for tracker: PitchTracker) {
        windowSize = tracker.windowSize
        hopSize = tracker.hopSize
        minLag = tracker.detector.minLag
        maxLag = tracker.detector.maxLag
        sampleRate = tracker.detector.sampleRate
        ring = MirroredRing(count: windowSize)
        fixedRing = MirroredRing(count: windowSize)
        fixedHighPass.setCutoff(PitchTracker.rumbleCutoff, sampleRate: sampleRate)
        rumbleFreeAnalysis = LagAnalysis(size: windowSize, maxLag: maxLag + 2)
        fingerprint = HarmonicFingerprint(size: windowSize, sampleRate: sampleRate)
    }

    /// Prepares the hops `samples` completes into `hops` (reusing its windows), and the
    /// detector's fallbacks their raw windows foretell while the tracker has at least
    /// `foresight` prepared hops still to take (0: always). On another thread than the
    /// tracker, a backlog means this one has time to spare: the work moves here only then.
    public func prepare(_ samples: UnsafeBufferPointer<Float>, into hops: PreparedHops, foresight: Int = 0) {
        hops.count = 0
        hops.next = 0
        hops.taken = taken
        defer { handedOver += hops.count }
        guard let base = samples.baseAddress else { return }
        var i = 0
        let n = samples.count
        while i < n {
            let take = min(n - i, hopSize - sinceHop)
            ring.append(base + i, count: take)
            for k in 0..<take { fixedRing.append(fixedHighPass.process(base[i + k])) }
            filled = min(windowSize, filled + take)
            sinceHop += take
            samplesSeen += take
            i += take
            guard sinceHop == hopSize else { continue }
            sinceHop = 0
            if hops.count == hops.windows.count { hops.windows.append(PreparedWindow(size: windowSize, maxLag: maxLag + 2)) }
            let prepared = hops.windows[hops.count]
            prepared.position = -1
            if filled >= hopSize {
                // As `PitchTracker.analyseHop`: oldest sample first, zeros before the rings fill.
                let foresee = foresight == 0 || handedOver - taken.value >= foresight
                prepared.prepare(
                    ring.latest(windowSize), rumbleFree: foresee ? fixedRing.latest(windowSize) : nil, using: self)
                prepared.position = samplesSeen
            }
            hops.count += 1
        }
    }
}
