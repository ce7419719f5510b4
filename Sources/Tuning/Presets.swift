/// Instrument families that tuning presets are grouped by (seed 004, sections 3.6 and 10).
///
/// `chromatic` is the Open/Chromatic group; the other fourteen cases are the instrument
/// groups of the catalogue (the seed's table lists Orchestral Woodwind, Reed and Brass as
/// separate rows, which is why there are fourteen rather than thirteen).
public enum PresetGroup: String, CaseIterable, Sendable {
    case chromatic = "Open/Chromatic"
    case guitar = "Guitar"
    case extendedGuitar = "Extended Guitar"
    case bass = "Bass Guitar"
    case orchestralStrings = "Orchestral Strings"
    case mediterraneanFolk = "Mediterranean Folk"
    case ukulele = "Ukulele"
    case banjo = "Banjo"
    case steelGuitar = "Steel Guitar"
    case latinFolk = "Latin Folk"
    case indianClassical = "Indian Classical"
    case lute = "Lute"
    case woodwind = "Orchestral Woodwind"
    case reed = "Reed"
    case brass = "Brass"

    /// Display name, e.g. `Bass Guitar`.
    public var name: String { rawValue }
}

/// One tuning of one instrument: the notes the tuner may target (seed 004, section 10).
///
/// For string instruments `notes` are the open strings (or courses) from the lowest-pitched
/// string side to the highest, as MIDI numbers wrapped in `Note`. Re-entrant instruments
/// (ukulele, banjo, charango, cuatro) keep their string order, so `notes` need not be sorted.
/// Wind instruments have no open strings: their `notes` are every semitone of the
/// instrument's usual sounding (concert-pitch) range, so the target is the nearest semitone
/// the instrument can play. The chromatic preset has no notes: the target is the nearest
/// semitone of all.
public struct TuningPreset: Sendable, Hashable, Identifiable {
    /// Stable identifier used on the command line and in settings, e.g. `guitar-standard`.
    public let id: String
    /// Human-readable name, e.g. `Standard (E A D G B E)`.
    public let name: String
    /// Instrument family.
    public let group: PresetGroup
    /// Target notes, low string to high (empty for the chromatic preset).
    public let notes: [Note]

    public init(id: String, name: String, group: PresetGroup, notes: [Note]) {
        self.id = id
        self.name = name
        self.group = group
        self.notes = notes
    }

    /// Builds a preset from MIDI note numbers (A4 = 69).
    public init(_ id: String, _ name: String, _ group: PresetGroup, midi: [Int]) {
        self.init(id: id, name: name, group: group, notes: midi.map(Note.init(midi:)))
    }

    /// Builds a wind-instrument preset covering every semitone of `range` (MIDI, sounding pitch).
    public init(_ id: String, _ name: String, _ group: PresetGroup, range: ClosedRange<Int>) {
        self.init(id: id, name: name, group: group, notes: range.map(Note.init(midi:)))
    }

    /// True for Open/Chromatic (no constraint: nearest semitone).
    public var isChromatic: Bool { notes.isEmpty }

    /// The set of MIDI numbers the preset allows (empty for chromatic), for O(1) membership.
    public var midiSet: Set<Int> { Set(notes.map(\.midi)) }

    /// Whether `note` is one of the preset's notes (always true for chromatic).
    public func contains(_ note: Note) -> Bool {
        isChromatic || notes.contains(note)
    }
}

extension TuningPreset {
    /// Open/Chromatic: any note; the target is the nearest equal-tempered semitone.
    public static let chromatic = TuningPreset(
        id: "chromatic", name: "Open/Chromatic (nearest semitone)", group: .chromatic, notes: [])

    /// Every preset: chromatic first, then the catalogue in group order.
    public static let all: [TuningPreset] = [chromatic] + stringPresets + windPresets

    /// Presets of one group, in catalogue order.
    public static func presets(in group: PresetGroup) -> [TuningPreset] {
        all.filter { $0.group == group }
    }

    /// Looks a preset up by id, case-insensitively; `_` and spaces count as `-`
    /// (`Guitar_Standard` finds `guitar-standard`). Returns nil for an unknown id.
    public static func named(_ id: String) -> TuningPreset? {
        let key = String(id.lowercased().map { $0 == "_" || $0 == " " ? "-" : $0 })
        return all.first { $0.id == key }
    }
}
