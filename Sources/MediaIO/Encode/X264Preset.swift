/// libx264's speed/size presets (`-preset`), fastest first.
public enum X264Preset: String, CaseIterable, Sendable {
    case ultrafast, superfast, veryfast, faster, fast, medium, slow, slower, veryslow, placebo
}
