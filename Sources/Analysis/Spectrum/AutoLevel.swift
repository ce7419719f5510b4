/// The automatic display window in dB (issue 39 item 3: the scale must not pump).
///
/// A peak follower with an instant attack and a slow release (`releaseDBPerSecond`) sets a
/// wanted top: the follower plus `headroom`, rounded up to the `grid`. The shown top rises
/// to it at once (so nothing loud is clipped) but falls only after the wanted top has stayed
/// below it for `holdSeconds` without a break. So a beat that comes back within the hold
/// keeps the scale where it is, the top and every tick are round numbers, and the window
/// moves at most once per hold on the way down. The window is `span` dB tall.
public struct AutoLevel: Sendable, Equatable {
    /// The top lands on multiples of this (dB): round, and fine enough that the loudest
    /// band fills the height within 6 dB (a 10 dB grid left up to 13 dB of the plot empty).
    public static let grid: Float = 5
    /// The window's height (dB).
    public static let span: Float = 40
    /// The top stays at least this far above the followed peak (dB).
    public static let headroom: Float = 1
    /// The peak follower's release (dB per second).
    public static let releaseDBPerSecond: Float = 10
    /// How long the wanted top must stay below the shown one before the scale falls (s).
    public static let holdSeconds: Float = 4

    /// The shown top (dB), a multiple of `grid`.
    public private(set) var top: Float
    /// The shown bottom (dB).
    public var bottom: Float { top - AutoLevel.span }
    /// The followed peak (dB).
    public private(set) var peak: Float
    let lowest: Float
    let highest: Float
    var below: Float = 0

    /// A window whose top stays within `lowest…highest` (both multiples of `grid`),
    /// starting at `lowest` so the first loud hop sets it.
    public init(lowest: Float = -50, highest: Float = 20) {
        self.lowest = lowest
        self.highest = highest
        top = lowest
        peak = lowest - AutoLevel.headroom
    }

    /// Follows one hop whose loudest level is `loudest` dB, `seconds` long.
    public mutating func update(loudest: Float, seconds: Float) {
        let fallen = peak - AutoLevel.releaseDBPerSecond * seconds
        peak = loudest.isFinite ? max(loudest, fallen) : fallen
        peak = min(max(peak, lowest - 2 * AutoLevel.grid), highest)
        let wanted = min(max(((peak + AutoLevel.headroom) / AutoLevel.grid).rounded(.up) * AutoLevel.grid, lowest), highest)
        // Rising needs the peak itself past the top (the headroom is the hysteresis band), so a
        // hit that only grazes the top after a fall does not lift the scale straight back.
        if wanted > top && peak > top {
            top = wanted
            below = 0
        } else if wanted < top {
            below += seconds
            if below >= AutoLevel.holdSeconds {
                top = wanted
                below = 0
            }
        } else {
            below = 0
        }
    }
}
