/// A mode as a value: one of `ModeCatalog.modes`, known by its name (`--mode`, the config
/// file, the live view's mode cycling). Two values are the same mode when their names are.
public struct VisualizationMode: Sendable, Hashable, CaseIterable, RawRepresentable, CustomStringConvertible {
    /// The mode itself.
    public let unit: any Mode

    public init(_ unit: any Mode) { self.unit = unit }

    /// The catalogue's mode of this name; nil for an unknown name.
    public init?(rawValue: String) {
        guard let unit = ModeCatalog.modes.first(where: { $0.name == rawValue }) else { return nil }
        self.unit = unit
    }

    public var rawValue: String { unit.name }
    public var description: String { unit.name }
    public var summary: String { unit.summary }
    public var traits: ModeTraits { unit.traits }

    /// Every mode, in the catalogue's order.
    public static var allCases: [VisualizationMode] { ModeCatalog.modes.map(VisualizationMode.init) }
    /// The catalogue's first mode: the one shown when none is chosen.
    public static var `default`: VisualizationMode { VisualizationMode(ModeCatalog.modes[0]) }

    public static func == (a: VisualizationMode, b: VisualizationMode) -> Bool { a.rawValue == b.rawValue }
    public func hash(into hasher: inout Hasher) { hasher.combine(rawValue) }
}
