import SpecvizCore

#if canImport(Glibc)
import Glibc
#endif

/// A 12-note temperament: each pitch class's deviation from equal temperament in cents,
/// indexed by semitones above the tonic (index 0 = tonic, always 0).
///
/// Anchoring: the tonic keeps its equal-tempered pitch for the reference A4 (so with tonic C
/// and A4 = 440 Hz, Werckmeister III's C4 is 261.63 Hz and its A4 is 11.7 ¢ below 440 Hz).
/// The tables are computed from each temperament's definition (chains of pure and tempered
/// fifths, or ratios); the values quoted next to them are the published cents relative to C.
public struct Temperament: Equatable, Sendable {
    public let id: String
    /// Cents deviation from equal temperament, index = semitones above the tonic.
    public let deviations: [Double]

    public init(id: String, deviations: [Double]) {
        precondition(deviations.count == 12)
        self.id = id
        self.deviations = deviations
    }

    static let pureFifth = 1200 * log2(1.5) // 701.955 ¢
    static let pythagoreanComma = 12 * pureFifth - 8400 // 23.460 ¢
    static let syntonicComma = 1200 * log2(81.0 / 80) // 21.506 ¢

    /// From the cents of the 12 degrees above the tonic (degree 0 = 0).
    static func fromCents(_ id: String, _ cents: [Double]) -> Temperament {
        Temperament(
            id: id,
            deviations: cents.enumerated().map { i, c in
                var d = c - 100 * Double(i)
                d -= 1200 * (d / 1200).rounded()
                return d
            })
    }

    /// From the sizes (cents) of the first 11 fifths of the circle starting at the tonic:
    /// fifths[k] rises from degree 7k to degree 7(k+1) (mod 12); the 12th fifth closes the
    /// circle.
    static func fromFifths(_ id: String, _ fifths: [Double]) -> Temperament {
        var cents = [Double](repeating: 0, count: 12)
        var position = 0.0
        for k in 0..<11 {
            position += fifths[k]
            let degree = (7 * (k + 1)) % 12
            cents[degree] = position - 1200 * (position / 1200).rounded(.down)
        }
        return fromCents(id, cents)
    }

    /// Equal temperament.
    public static let equal = Temperament(id: "equal", deviations: [Double](repeating: 0, count: 12))

    /// 5-limit just intonation, the usual 12-note selection (Barbour, "Tuning and
    /// Temperament", 1951; Scala archive ji_12.scl): 1/1 16/15 9/8 6/5 5/4 4/3 45/32 3/2 8/5
    /// 5/3 9/5 15/8. Relative to C: 0, +11.7, +3.9, +15.6, −13.7, −2.0, −9.8, +2.0, +13.7,
    /// −15.6, +17.6, −11.7 ¢.
    public static let just: Temperament = {
        let ratios: [(Double, Double)] = [
            (1, 1), (16, 15), (9, 8), (6, 5), (5, 4), (4, 3), (45, 32),
            (3, 2), (8, 5), (5, 3), (9, 5), (15, 8),
        ]
        return fromCents("just", ratios.map { 1200 * log2($0.0 / $0.1) })
    }()

    /// Pythagorean, pure fifths from D♭ to F♯ (wolf F♯–D♭; Scala pyth_12.scl: 1/1 256/243
    /// 9/8 32/27 81/64 4/3 729/512 3/2 128/81 27/16 16/9 243/128):
    /// 0, −9.8, +3.9, −5.9, +7.8, −2.0, +11.7, +2.0, −7.8, +5.9, −3.9, +9.8 ¢.
    public static let pythagorean = fromChain("pythagorean", fifth: pureFifth, from: -5)

    /// Quarter-comma meantone, fifths narrowed by ¼ syntonic comma (696.58 ¢), E♭ to G♯
    /// (Barbour 1951; Scala meanquar.scl): 0, −24.0, −6.8, +10.3, −13.7, +3.4, −20.5, −3.4,
    /// −27.4, −10.3, +6.8, −17.1 ¢.
    public static let meantone = fromChain("meantone", fifth: pureFifth - syntonicComma / 4)

    /// Werckmeister III (1691): C–G–D–A and B–F♯ narrowed by ¼ Pythagorean comma, the rest
    /// pure (Scala werck3.scl): 0, −9.8, −7.8, −5.9, −9.8, −2.0, −11.7, −3.9, −7.8, −11.7,
    /// −3.9, −7.8 ¢.
    public static let werckmeister3: Temperament = {
        let t = pureFifth - pythagoreanComma / 4, p = pureFifth
        // C-G G-D D-A A-E E-B B-F# F#-C# C#-G# G#-D# D#-A# A#-F
        return fromFifths("werckmeister3", [t, t, t, p, p, t, p, p, p, p, p])
    }()

    /// Kirnberger III (1779): C–G–D–A–E narrowed by ¼ syntonic comma, F♯–C♯ by a schisma,
    /// the rest pure (Scala kirnberger.scl): 0, −9.8, −6.8, −5.9, −13.7, −2.0, −9.8, −3.4,
    /// −7.8, −10.3, −3.9, −11.7 ¢.
    public static let kirnberger3: Temperament = {
        let t = pureFifth - syntonicComma / 4, p = pureFifth
        let schisma = pythagoreanComma - syntonicComma
        return fromFifths("kirnberger3", [t, t, t, t, p, p, p - schisma, p, p, p, p])
    }()

    /// Vallotti (c. 1754): F–C–G–D–A–E–B narrowed by ⅙ Pythagorean comma, B–F♯–C♯–G♯–D♯–A♯–F
    /// pure (Barbour 1951; Scala vallotti.scl): 0, −5.9, −3.9, −2.0, −7.8, +2.0, −7.8, −2.0,
    /// −3.9, −5.9, 0, −9.8 ¢.
    public static let vallotti: Temperament = {
        let t = pureFifth - pythagoreanComma / 6, p = pureFifth
        // C-G G-D D-A A-E E-B B-F# F#-C# C#-G# G#-D# D#-A# A#-F  (F-C is the 12th, tempered)
        return fromFifths("vallotti", [t, t, t, t, t, p, p, p, p, p, p])
    }()

    /// Young's second temperament (1800): C–G–D–A–E–B–F♯ narrowed by ⅙ Pythagorean comma,
    /// F♯–C♯–G♯–D♯–A♯–F–C pure (Scala young2.scl): 0, −9.8, −3.9, −5.9, −7.8, −2.0, −11.7,
    /// −2.0, −7.8, −5.9, −3.9, −9.8 ¢.
    public static let young: Temperament = {
        let t = pureFifth - pythagoreanComma / 6, p = pureFifth
        return fromFifths("young", [t, t, t, t, t, t, p, p, p, p, p])
    }()

    /// A regular temperament: all fifths equal, the chain of 12 notes starting `from` fifths
    /// below the tonic (−3: E♭ to G♯; −5: D♭ to F♯).
    static func fromChain(_ id: String, fifth: Double, from: Int = -3) -> Temperament {
        var cents = [Double](repeating: 0, count: 12)
        for k in from...(from + 11) {
            let c = Double(k) * fifth
            cents[((7 * k) % 12 + 12) % 12] = c - 1200 * (c / 1200).rounded(.down)
        }
        return fromCents(id, cents)
    }

    /// The built-in temperaments by id.
    public static let builtIn: [Temperament] = [
        .equal, .just, .pythagorean, .meantone, .werckmeister3,
        .kirnberger3, .vallotti, .young,
    ]

    public static func named(_ id: String) -> Temperament? { builtIn.first { $0.id == id.lowercased() } }

    /// Parses a Scala `.scl` file (https://www.huygens-fokker.org/scala/scl_format.html):
    /// `!` comment lines, a description line, the note count, then one pitch per line —
    /// cents when it contains a `.`, else a ratio `a/b` or an integer. Only 12-note octave
    /// scales are accepted (count 12, last pitch 2/1). Errors name `file` and the line.
    public static func parseScala(_ text: String, file: String) throws(ScalaError) -> Temperament {
        var description: String?
        var count: Int?
        var pitches: [Double] = []
        var lastLine = 0
        // Any line break: LF, CRLF (one Character in Swift, so never equal to "\n") or CR.
        for (i, raw) in text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline).enumerated() {
            let lineNo = i + 1
            var line = Substring(raw)
            if line.last == "\r" { line = line.dropLast() }
            if line.hasPrefix("!") { continue }
            if description == nil { description = String(line); continue }
            let token = line.split(whereSeparator: { $0 == " " || $0 == "\t" }).first.map(String.init) ?? ""
            if count == nil {
                guard let n = Int(token), n >= 0 else {
                    throw ScalaError(file: file, line: lineNo, reason: "expected the note count, got '\(shown(token))'")
                }
                guard n == 12 else {
                    throw ScalaError(file: file, line: lineNo, reason: "\(n) notes per octave: only 12-note scales are supported")
                }
                count = n
                continue
            }
            if token.isEmpty { continue }
            guard pitches.count < 12 else {
                throw ScalaError(file: file, line: lineNo, reason: "more pitches than the count (12)")
            }
            guard let c = scalaCents(token) else {
                throw ScalaError(file: file, line: lineNo, reason: "'\(shown(token))' is not a pitch (cents like 701.955, or a ratio like 3/2)")
            }
            pitches.append(c)
            lastLine = lineNo
        }
        guard count != nil else { throw ScalaError(file: file, line: max(lastLine, 1), reason: "no note count line") }
        guard pitches.count == 12 else {
            throw ScalaError(file: file, line: max(lastLine, 1), reason: "\(pitches.count) pitches, the count says 12")
        }
        guard abs(pitches[11] - 1200) < 0.01 else {
            throw ScalaError(
                file: file, line: lastLine,
                reason: "the last pitch is \((pitches[11] * 1000).rounded() / 1000) ¢, not the 2/1 octave: non-octave scales are not supported")
        }
        for k in 0..<11 where !(pitches[k] > (k == 0 ? 0 : pitches[k - 1])) {
            throw ScalaError(file: file, line: lastLine, reason: "pitches must rise between 0 and 1200 ¢")
        }
        let name = file.split(separator: "/").last.map(String.init) ?? file
        return fromCents(name, [0] + pitches[0..<11])
    }

    /// A token as quoted in a message: at most 40 characters.
    static func shown(_ token: String) -> String { token.count > 40 ? token.prefix(40) + "…" : token }

    /// Cents of a Scala pitch token: `701.955`, `3/2` or `2`.
    static func scalaCents(_ token: String) -> Double? {
        if token.contains(".") {
            guard let c = Double(token), c.isFinite else { return nil }
            return c
        }
        let parts = token.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count <= 2, let a = Double(String(parts[0])), a > 0 else { return nil }
        let b = parts.count == 2 ? Double(String(parts[1])) : 1
        guard let b, b > 0, Int(String(parts[0])) != nil, parts.count == 1 || Int(String(parts[1])) != nil else { return nil }
        return 1200 * log2(a / b)
    }
}

/// A bad Scala file: `FILE:LINE: reason`.
public struct ScalaError: Error, Equatable, CustomStringConvertible {
    public let file: String
    public let line: Int
    public let reason: String
    /// Control characters in the file name or a quoted token are escaped (one line, nothing
    /// for the terminal to act on).
    public var description: String { "\(file):\(line): \(reason)".escapingControlCharacters }
}

/// How notes are named and targeted: a temperament on a tonic, and a transposition from
/// sounding (concert) pitch to the written pitch of a transposing instrument.
///
/// Shared by `tune`, `tone`, the tuner overlay and `--mode tuner`.
public struct TuningSystem: Equatable, Sendable {
    public var temperament: Temperament
    /// Pitch class 0…11 of the tonic (sounding pitch; default C).
    public var tonic: Int
    /// Written = sounding + `transpose` semitones (B♭ clarinet: +2).
    public var transpose: Int
    /// Octave stretch (pianos): cents added by register.
    public var stretch: Stretch
    /// Cents added to single notes (MIDI number → cents): a sweetened guitar's strings.
    public var offsets: [Int: Double]

    public init(
        temperament: Temperament = .equal, tonic: Int = 0, transpose: Int = 0, stretch: Stretch = .none,
        offsets: [Int: Double] = [:]
    ) {
        self.temperament = temperament
        self.tonic = ((tonic % 12) + 12) % 12
        self.transpose = transpose
        self.stretch = stretch
        self.offsets = offsets
    }

    /// Stretch tuning: how far a note's target lies from the tempered pitch by register.
    public enum Stretch: Equatable, Sendable {
        case none
        /// `cents` per octave away from A4 (sharper above, flatter below).
        case perOctave(Double)
        /// The average stretch of aurally tuned pianos (the Railsback curve; O. L. Railsback,
        /// "Scale temperament as applied to piano tuning", JASA 9, 274 (1938)): a smooth
        /// curve through A0 −30, A1 −12, A2 −4, A3 −1, A4 0, A5 +2, A6 +8, A7 +20, C8 +30 ¢.
        case piano

        /// Railsback anchor points (MIDI, cents).
        static let railsback: [(Double, Double)] = [(21, -30), (33, -12), (45, -4), (57, -1), (69, 0), (81, 2), (93, 8), (105, 20), (108, 30)]

        /// Cents at MIDI note `midi`.
        public func cents(at midi: Int) -> Double {
            switch self {
            case .none: return 0
            case .perOctave(let c): return c * Double(midi - 69) / 12
            case .piano:
                let pts = Stretch.railsback, m = Double(min(max(midi, 21), 108))
                var i = 0
                while i < pts.count - 2 && m > pts[i + 1].0 { i += 1 }
                // Monotone cubic (Fritsch–Carlson slopes) between anchors i and i+1.
                func slope(_ k: Int) -> Double {
                    let d0 = k > 0 ? (pts[k].1 - pts[k - 1].1) / (pts[k].0 - pts[k - 1].0) : nil
                    let d1 = k < pts.count - 1 ? (pts[k + 1].1 - pts[k].1) / (pts[k + 1].0 - pts[k].0) : nil
                    guard let a = d0 else { return d1! }
                    guard let b = d1 else { return a }
                    return a * b <= 0 ? 0 : 2 / (1 / a + 1 / b)
                }
                let (x0, y0) = pts[i], (x1, y1) = pts[i + 1]
                let h = x1 - x0, t = (m - x0) / h
                let h00 = 2 * t * t * t - 3 * t * t + 1, h10 = t * t * t - 2 * t * t + t
                let h01 = -2 * t * t * t + 3 * t * t, h11 = t * t * t - t * t
                return h00 * y0 + h10 * h * slope(i) + h01 * y1 + h11 * h * slope(i + 1)
            }
        }

        /// `piano`, or a number of cents per octave −50…50; nil otherwise.
        public init?(parsing text: String) {
            let t = text.trimmingCharacters().lowercased()
            if t == "piano" || t == "railsback" { self = .piano; return }
            if t == "none" || t == "off" || t == "0" { self = .none; return }
            guard let c = Double(t), c.isFinite, abs(c) <= 50 else { return nil }
            self = .perOctave(c)
        }
    }

    /// `--offsets "E2:-2,B3:+1.5"`: notes and their cents (−50…50); nil when malformed.
    public static func offsets(parsing text: String) -> [Int: Double]? {
        var out: [Int: Double] = [:]
        for item in text.split(separator: ",") {
            let parts = item.split(separator: ":")
            guard parts.count == 2, let note = Note(name: String(parts[0]).trimmingCharacters()),
                let c = Double(String(parts[1]).trimmingCharacters()), c.isFinite, abs(c) <= 50
            else { return nil }
            out[note.midi] = c
        }
        return out.isEmpty ? nil : out
    }

    public static let equal = TuningSystem()

    /// True for equal temperament without transposition (the tuner's default behaviour).
    public var isPlain: Bool {
        temperament.deviations.allSatisfy { $0 == 0 } && transpose == 0 && stretch == .none && offsets.isEmpty
    }

    /// Cents from equal temperament of the sounding note `note`: its temperament, the
    /// stretch at its register and its own offset.
    public func deviation(of note: Note) -> Double {
        temperament.deviations[((note.pitchClass - tonic) % 12 + 12) % 12] + stretch.cents(at: note.midi) + (offsets[note.midi] ?? 0)
    }

    /// The tempered frequency (Hz) of the sounding note `note` for A4 = `reference` Hz.
    public func frequency(of note: Note, reference: Double = 440) -> Double {
        note.frequency(reference: reference) * pow(2, deviation(of: note) / 1200)
    }

    /// The nearest tempered (sounding) note to `frequency` and the cents from its tempered
    /// pitch (positive = sharp). Does not allocate.
    public func nearest(to frequency: Double, reference: Double = 440) -> (note: Note, cents: Double) {
        let m = Note.midiValue(frequency: frequency, reference: reference)
        let r = Int(m.rounded())
        var best = Note(midi: r), bestCents = Double.infinity
        for midi in (r - 1)...(r + 1) {
            let n = Note(midi: midi)
            let c = (m - Double(midi)) * 100 - deviation(of: n)
            if abs(c) < abs(bestCents) { best = n; bestCents = c }
        }
        return (best, bestCents)
    }

    /// The written note of a sounding note.
    public func written(_ sounding: Note) -> Note { Note(midi: sounding.midi + transpose) }
    /// The sounding note of a written note.
    public func sounding(_ written: Note) -> Note { Note(midi: written.midi - transpose) }

    /// Semitones of a `--transpose` value: an instrument key (written = sounding + n) or a
    /// signed number of semitones −24…24. Nil when it is neither.
    ///
    /// Bb +2 (B♭ clarinet, trumpet, soprano sax: written C sounds B♭ a tone lower),
    /// Eb +9 (E♭ alto/baritone-less-octave sax: sounds a major sixth lower),
    /// F +7 (horn in F, cor anglais: sounds a fifth lower), A +3 (A clarinet: a minor third
    /// lower), G +5 (alto flute: a fourth lower), D −2 (D trumpet: a major second higher),
    /// C 0 (concert pitch).
    public static func transposition(_ text: String) -> Int? {
        switch text.trimmingCharacters() {
        case "Bb", "B♭", "bb": return 2
        case "Eb", "E♭", "eb": return 9
        case "F", "f": return 7
        case "A", "a": return 3
        case "G", "g": return 5
        case "D", "d": return -2
        case "C", "c": return 0
        default:
            guard let n = Int(text.trimmingCharacters()), (-24...24).contains(n) else { return nil }
            return n
        }
    }

    /// Pitch class of a `--tonic` name (`C`, `F#`, `Eb`), nil when it is not one.
    public static func tonic(_ text: String) -> Int? { Note(name: text.trimmingCharacters() + "4")?.pitchClass }
}
