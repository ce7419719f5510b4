import SpecvizCore

#if canImport(Glibc)
import Glibc
#endif

/// The output safety net of seed 004 §8: a brick-wall limiter with a 64-sample look-ahead
/// (~1.33 ms at 48 kHz), ceiling 0.95, ~0.1 ms attack and ~80 ms release.
///
/// The input is delayed by 64 samples. The gain target is ceiling / (peak of the 65 samples
/// from the one leaving the delay line to the one just entering), found with a monotonic
/// deque (Lemire's streaming max, O(1) amortised), so a peak holds the target down for the
/// whole time it spends in the delay line. The gain falls towards the target with the 0.1 ms
/// attack time constant (~5 samples, fully converged long before the peak leaves the delay
/// line) and recovers with the 80 ms release. A final clamp to ±ceiling guards the last
/// rounding (it moves samples by < 1e-5 relative). All storage is allocated at construction.
public final class LookAheadLimiter {
    /// Look-ahead length (samples).
    public static let lookAhead = 64
    /// Output ceiling (full scale = 1).
    public let ceiling: Float

    private let attackCoefficient: Float
    private let releaseCoefficient: Float
    private let delay: OwnedBuffer<Float>
    private let dequeIndex: OwnedBuffer<Int>
    private let dequeValue: OwnedBuffer<Float>
    private static let ring = 128 // power of two > lookAhead + 1
    private var head = 0, tail = 0 // deque occupies [head, tail) modulo ring
    private var position = 0
    /// The gain now applied (0…1).
    public private(set) var gain: Float = 1
    /// Largest |output| / ceiling seen before the final safety clamp (1 = exactly at the
    /// ceiling). Shows that the look-ahead gain, not the clamp, does the limiting.
    public private(set) var largestUnclampedRatio: Float = 0

    /// - Parameters: sampleRate (Hz), ceiling (linear), attack and release (s).
    public init(sampleRate: Double, ceiling: Float = 0.95, attack: Double = 0.0001, release: Double = 0.08) {
        self.ceiling = ceiling
        attackCoefficient = Float(1 - exp(-1 / (attack * sampleRate)))
        releaseCoefficient = Float(1 - exp(-1 / (release * sampleRate)))
        delay = OwnedBuffer(zeroed: LookAheadLimiter.lookAhead)
        dequeIndex = OwnedBuffer(zeroed: LookAheadLimiter.ring)
        dequeValue = OwnedBuffer(zeroed: LookAheadLimiter.ring)
    }

    /// Clears the delay line and the gain.
    public func reset() {
        delay.base.update(repeating: 0, count: LookAheadLimiter.lookAhead)
        head = 0; tail = 0; position = 0; gain = 1; largestUnclampedRatio = 0
    }

    /// Limits `buffer` in place (output is the input delayed by `lookAhead` samples).
    /// Does not allocate.
    public func process(_ buffer: UnsafeMutableBufferPointer<Float>) {
        let mask = LookAheadLimiter.ring - 1
        let n = LookAheadLimiter.lookAhead
        var g = gain
        var worst = largestUnclampedRatio
        for i in buffer.indices {
            let x = buffer[i]
            let slot = position % n
            let out = delay[slot]
            delay[slot] = x
            // Streaming max over positions [position - n, position].
            let a = abs(x)
            while tail != head && dequeValue[(tail - 1) & mask] <= a { tail -= 1 }
            dequeIndex[tail & mask] = position
            dequeValue[tail & mask] = a
            tail += 1
            while dequeIndex[head & mask] < position - n { head += 1 }
            if head >= LookAheadLimiter.ring { head -= LookAheadLimiter.ring; tail -= LookAheadLimiter.ring }
            let peak = dequeValue[head & mask]
            let target: Float = peak > ceiling ? ceiling / peak : 1
            g += (target - g) * (target < g ? attackCoefficient : releaseCoefficient)
            var y = out * g
            let ratio = abs(y) / ceiling
            if ratio > worst { worst = ratio }
            if y > ceiling { y = ceiling } else if y < -ceiling { y = -ceiling }
            buffer[i] = y
            position += 1
        }
        gain = g
        largestUnclampedRatio = worst
    }
}
