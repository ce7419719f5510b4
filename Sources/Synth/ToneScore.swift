/// What to play: note-on and note-off events at times in seconds, for `ToneRenderer`.
/// Builders cover the `specviz tone` cases: a strummed chord, each note in turn, and the
/// start chime of seed 004 §4 (E5, G5, C6 arpeggio at low volume).
public struct ToneScore: Sendable, Equatable {
    public struct Event: Sendable, Equatable {
        /// Time from the start (s).
        public var time: Double
        /// Fundamental (Hz).
        public var frequency: Double
        /// Note on (true) or off (false).
        public var isOn: Bool
        public init(time: Double, frequency: Double, isOn: Bool) {
            self.time = time
            self.frequency = frequency
            self.isOn = isOn
        }
    }

    /// Events in time order (ties keep their given order).
    public private(set) var events: [Event]
    /// Output level (linear) the score is meant to be played at.
    public var level: Float

    public init(events: [Event], level: Float = 1) {
        self.events = events.enumerated()
            .sorted { $0.element.time != $1.element.time ? $0.element.time < $1.element.time : $0.offset < $1.offset }
            .map(\.element)
        self.level = level
    }

    /// Time of the last event (s); the release tail (250 ms) follows it.
    public var length: Double { events.last?.time ?? 0 }

    /// All `frequencies` (Hz) held together until `duration` (s), note i starting at
    /// i·`strum` (s) like a strum from the first to the last.
    public static func chord(_ frequencies: [Double], duration: Double, strum: Double = 0) -> ToneScore {
        var events: [Event] = []
        for (i, f) in frequencies.enumerated() {
            events.append(Event(time: Double(i) * strum, frequency: f, isOn: true))
        }
        let end = max(duration, Double(max(frequencies.count - 1, 0)) * strum + 0.05)
        for f in frequencies { events.append(Event(time: end, frequency: f, isOn: false)) }
        return ToneScore(events: events)
    }

    /// Each of `frequencies` (Hz) in turn, each held `noteDuration` (s), the next starting
    /// as the previous is released (its 250 ms tail overlaps the next attack).
    public static func sequence(_ frequencies: [Double], noteDuration: Double) -> ToneScore {
        var events: [Event] = []
        for (i, f) in frequencies.enumerated() {
            let start = Double(i) * noteDuration
            events.append(Event(time: start, frequency: f, isOn: true))
            events.append(Event(time: start + noteDuration, frequency: f, isOn: false))
        }
        return ToneScore(events: events)
    }

    /// The start chime (seed 004 §4): E5, G5, C6 ascending, onsets 127 ms apart (254 ms in
    /// all), each held 150 ms, at a low level (−12 dB). Frequencies for A4 = `reference` (Hz).
    public static func startChime(reference: Double = 440) -> ToneScore {
        let midis = [76, 79, 84] // E5, G5, C6
        var events: [Event] = []
        for (i, m) in midis.enumerated() {
            let f = reference * pow2(Double(m - 69) / 12)
            let start = Double(i) * 0.127
            events.append(Event(time: start, frequency: f, isOn: true))
            events.append(Event(time: start + 0.15, frequency: f, isOn: false))
        }
        return ToneScore(events: events, level: 0.25)
    }
}

#if canImport(Glibc)
import Glibc
#endif
@inline(__always) private func pow2(_ x: Double) -> Double { pow(2, x) }
