/// Rolling ambient-level tracker (seed 004 §6, "smoothing and noise floor"): asymmetric,
/// fast to follow a quieter level, slow to follow a louder one, so a sustained note does
/// not raise the floor much. The effective floor is ambient + 12 dB, clamped to −60…−30 dBFS.
/// It is not a hard gate for the estimators (they reject noise structurally); it gates the
/// harmonic-fingerprint rescue and weights frequency smoothing. Does not allocate.
public struct NoiseFloor: Sendable {
    /// Ambient level (dBFS, RMS).
    public private(set) var ambient: Double
    /// Per-hop blend toward a quieter level (fast).
    public var fall = 0.30
    /// Per-hop blend toward a louder level (slow: ~5 s at 94 hops/s).
    public var rise = 0.002

    public init(initial: Double = -70) { ambient = initial }

    /// Effective floor in dBFS: ambient + 12, clamped to −60…−30.
    public var effective: Double { min(-30, max(-60, ambient + 12)) }

    /// Updates with one hop's level in dBFS.
    public mutating func update(level: Double) {
        let l = max(level, -120)
        ambient += (l - ambient) * (l < ambient ? fall : rise)
    }
}
