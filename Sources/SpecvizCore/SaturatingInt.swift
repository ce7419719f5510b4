extension Int {
    /// `x` rounded toward zero, NaN as 0, and ±infinity or huge values clamped to
    /// ±2^53: a float-to-integer conversion that never traps (issue 14: a NaN from a
    /// damaged input must not crash the program).
    @inlinable
    public init(saturating x: Double) {
        let limit = 9_007_199_254_740_992.0
        self = x.isNaN ? 0 : Int(x < -limit ? -limit : (x > limit ? limit : x))
    }

    /// `x` rounded toward zero, NaN as 0, huge values clamped (see the Double version).
    @inlinable
    public init(saturating x: Float) { self.init(saturating: Double(x)) }
}
