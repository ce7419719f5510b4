import ArgumentParser
import Geometry
import MediaIO
import Specviz
import SpecvizCore
import Tuning

// The values of the enumerated and structured options (issue 15): each is parsed in one
// place, here, by the same function for its flag (`@Option(transform:)`) and its config-file
// key, so the spelling rules and the error text are the same everywhere. Errors list the
// close matches ("did you mean …").

/// A value an option takes: parsed from its text, or a one-line error naming the option.
protocol OptionValue {
    /// What the option is called in messages ("mode", "preset", …).
    static var noun: String { get }
    init(parsing text: String) throws
}

extension OptionValue {
    /// For `@Option(transform:)`: the parse, with its message as the command's error (a
    /// `@Sendable` closure, as the transform is stored in a `Sendable` argument definition).
    static var option: @Sendable (String) throws -> Self { { try Self(parsing: $0) } }
}

/// The enumerated values: their raw value, any case, else an error listing close matches.
extension OptionValue where Self: CaseIterable & RawRepresentable, RawValue == String {
    static func named(_ text: String) throws -> Self {
        guard let v = Self(rawValue: text.lowercased()) else { throw unknownName(noun, text, among: allCases.map(\.rawValue)) }
        return v
    }
}

/// An unknown name: "unknown mode 'lasers', did you mean …? (modes: …)".
func unknownName(_ noun: String, _ text: String, among names: [String], plural: String? = nil) -> ValidationError {
    ValidationError(
        "unknown \(noun) '\(text)'" + InputChecks.suggestions(text, among: names)
            + " (\(plural ?? noun + "s"): \(names.joined(separator: ", ")))")
}

extension VisualizationMode: OptionValue {
    static let noun = "mode"
    init(parsing text: String) throws { self = try Self.named(text) }
}

extension TunerMeter: OptionValue {
    static let noun = "meter"
    init(parsing text: String) throws { self = try Self.named(text) }
}

extension Palette: OptionValue {
    static let noun = "palette"
    init(parsing text: String) throws {
        guard let p = Palette.named(text) else { throw unknownName("palette", text, among: Palette.all.map(\.name)) }
        self = p
    }
}

extension TuningPreset: OptionValue {
    static let noun = "preset"
    init(parsing text: String) throws {
        guard let p = TuningPreset.named(text) else { throw ValidationError(InputChecks.unknownPreset(text)) }
        self = p
    }
}

extension ReferencePitch: OptionValue {
    static let noun = "reference"
    init(parsing text: String) throws {
        guard let hz = Double(text), let r = ReferencePitch(hz) else {
            throw ValidationError("A4 must be \(Int(ReferencePitch.range.lowerBound))–\(Int(ReferencePitch.range.upperBound)) Hz")
        }
        self = r
    }
}

/// `WxH` in pixels, each 16…8192 and even (video needs it).
struct FrameSize: OptionValue, Equatable, CustomStringConvertible {
    static let noun = "size"
    var width: Int
    var height: Int
    static let standard = FrameSize(width: 1920, height: 1080)

    init(width: Int, height: Int) {
        self.width = width
        self.height = height
    }

    init(parsing text: String) throws {
        let parts = text.lowercased().split(separator: "x", omittingEmptySubsequences: false)
        guard parts.count == 2, let w = Int(parts[0]), let h = Int(parts[1]), (16...8192).contains(w), (16...8192).contains(h) else {
            throw ValidationError("a size must be WxH with 16…8192 pixels each, e.g. 1920x1080, not '\(text)'")
        }
        guard w % 2 == 0 && h % 2 == 0 else { throw ValidationError("a size must be even in both directions (video needs it), not '\(text)'") }
        self.init(width: w, height: h)
    }

    var description: String { "\(width)x\(height)" }
}

extension ChannelChoice: OptionValue {
    static let noun = "channel choice"
    init(parsing text: String) throws { self = try Self.named(text) }
}

/// `--channels`: which of the input's channels the analysis hears.
struct ChannelOption: ParsableArguments {
    @Option(help: "Channels analysed: mix (the mean, default), left or right.", transform: ChannelChoice.option)
    var channels: ChannelChoice = .mix
}

/// `render --channels`: one channel (or the mix) as everywhere, or `stereo`, both drawn.
enum RenderChannels: OptionValue, Equatable {
    case one(ChannelChoice)
    case stereo
    static let noun = "channels"
    init(parsing text: String) throws {
        if text.lowercased() == "stereo" { self = .stereo; return }
        guard let c = ChannelChoice(rawValue: text.lowercased()) else {
            throw unknownName("channel choice", text, among: ChannelChoice.allCases.map(\.rawValue) + ["stereo"])
        }
        self = .one(c)
    }
    /// What the (first) analysis hears.
    var pick: ChannelChoice {
        if case .one(let c) = self { return c }
        return .left
    }
}

extension StereoLayout: OptionValue {
    static let noun = "stereo layout"
    init(parsing text: String) throws { self = try Self.named(text) }
}

/// `render`'s channel options.
struct RenderChannelOptions: ParsableArguments {
    @Option(
        help:
            "Channels drawn: mix (the mean, default), left, right, or stereo (left and right apart in bars, curve and spectrogram; other modes and mono inputs draw the mix).",
        transform: RenderChannels.option)
    var channels: RenderChannels = .one(.mix)

    @Option(
        name: .customLong("stereo-layout"), help: "With --channels stereo: split (left on top, right below) or mirror (right mirrored below the centre).",
        transform: StereoLayout.option)
    var stereoLayout: StereoLayout = .split
}

/// Where `live` draws.
enum LiveDisplayKind: String, CaseIterable, OptionValue {
    case auto, terminal, fb
    static let noun = "display"
    init(parsing text: String) throws {
        switch text.lowercased() {
        case "framebuffer": self = .fb
        case "term": self = .terminal
        default:
            guard let d = LiveDisplayKind(rawValue: text.lowercased()) else { throw unknownName("display", text, among: Self.allCases.map(\.rawValue)) }
            self = d
        }
    }
}

/// `render --x264-preset`: libx264's speed/size presets.
extension X264Preset: OptionValue {
    static let noun = "x264 preset"
    init(parsing text: String) throws {
        guard let p = X264Preset(rawValue: text) else {
            let names = Self.allCases.map(\.rawValue)
            throw ValidationError(
                "unknown --x264-preset '\(text)'\(InputChecks.suggestions(text, among: names)) (presets: \(names.joined(separator: ", ")))")
        }
        self = p
    }
}
