/// A source of time in seconds, injectable so that live loops run on a fake clock in tests.
public protocol Clock: AnyObject {
    /// Seconds since an arbitrary origin, monotonic.
    func now() -> Double
    /// Sleeps until `now() >= time` (a fake clock just advances).
    func sleep(until time: Double)
}

// MARK: - The package's one set of clock readings (live loop, stats, benchmarks).

#if canImport(Glibc)
import Glibc
#endif

@inline(__always) private func seconds(_ id: clockid_t) -> Double {
    var ts = timespec()
    clock_gettime(id, &ts)
    return Double(ts.tv_sec) + Double(ts.tv_nsec) * 1e-9
}

/// Seconds on the monotonic clock.
public func monotonicSeconds() -> Double { seconds(CLOCK_MONOTONIC) }

/// CPU seconds used by the calling thread (`CLOCK_THREAD_CPUTIME_ID`): a cost that other
/// processes on a busy machine do not inflate. Benchmarks and `--stats` use it.
public func threadCPUSeconds() -> Double { seconds(CLOCK_THREAD_CPUTIME_ID) }

/// CPU seconds used by the whole process, all threads (`CLOCK_PROCESS_CPUTIME_ID`).
public func processCPUSeconds() -> Double { seconds(CLOCK_PROCESS_CPUTIME_ID) }

/// The monotonic system clock (`clock_gettime`, `nanosleep`): the live loop's real clock.
public final class SystemClock: Clock {
    public init() {}
    public func now() -> Double { monotonicSeconds() }
    public func sleep(until time: Double) {
        let d = time - now()
        guard d > 0 else { return }
        var ts = timespec(tv_sec: Int(d), tv_nsec: Int((d - Double(Int(d))) * 1e9))
        nanosleep(&ts, nil)
    }
}
