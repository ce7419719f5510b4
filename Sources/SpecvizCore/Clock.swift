/// A source of time in seconds, injectable so that live loops run on a fake clock in tests.
public protocol Clock: AnyObject {
    /// Seconds since an arbitrary origin, monotonic.
    func now() -> Double
    /// Sleeps until `now() >= time` (a fake clock just advances).
    func sleep(until time: Double)
}
