import ArgumentParser
import Foundation
import MediaIO
import Raster
import Specviz
import SpecvizCore

/// What a render shows of the track itself (issue 17): title and artist from the file's
/// tags (or given), its embedded cover (or a picture), a logo and a background.
struct ArtworkOptions: ParsableArguments {
    @Option(help: "Artist line under the title (default: the file's artist tag).")
    var artist: String?

    @Option(help: "Cover picture (PNG, JPEG or WebP; default: the picture embedded in the file).", completion: Completions.anyFile)
    var cover: String?

    @Flag(name: .customLong("no-cover"), help: "No cover picture, not even the embedded one.")
    var noCover = false

    @Flag(name: .customLong("no-tags"), help: "Ignore the file's title and artist tags.")
    var noTags = false

    @Option(
        help: "Background: a colour (#rrggbb, #rgb or black, white, gray, navy, teal, maroon) or a picture scaled to fill the frame.",
        completion: Completions.anyFile, transform: Background.option)
    var background: Background?

    @Option(name: .customLong("background-dim"), help: "Darken a background picture: 0 keeps it, 1 is black (default 0.6).")
    var backgroundDim: Double = 0.6

    @Option(name: .customLong("background-blur"), help: "Blur a background picture by this fraction of the frame's short side (e.g. 0.02; default 0).")
    var backgroundBlur: Double = 0

    @Option(help: "Logo picture for the bottom-right corner (PNG with alpha works best).", completion: Completions.anyFile)
    var logo: String?

    @Option(
        help: ArgumentHelp(
            "Container tag KEY=VALUE of the video (repeatable; replaces the title, artist and album taken from the input). The cover goes in as an attached picture in .mp4 (JPEG or PNG) and .mkv; .mov, .webm and .gif keep none.",
            valueName: "key=value"))
    var metadata: [String] = []

    @Flag(help: "Transparent background (straight alpha): PNG stills and sequences, .mov (ProRes 4444) or .webm (VP9 with alpha).")
    var transparent = false

    func validate() throws {
        try InputChecks.number(backgroundDim, "--background-dim", in: 0...1)
        try InputChecks.number(backgroundBlur, "--background-blur", in: 0...0.2)
        if noCover && cover != nil { throw ValidationError("--cover and --no-cover are alternatives") }
        if transparent && background != nil { throw ValidationError("--transparent and --background are alternatives") }
        for m in metadata where !(m.firstIndex(of: "=").map { $0 != m.startIndex } ?? false) {
            throw ValidationError("--metadata takes KEY=VALUE, not '\(m)'")
        }
    }

    /// The picture files named on the command line (inputs an output must not replace).
    var pictureFiles: [String] {
        var files = [cover, logo].compactMap { $0 }
        if case .picture(let path)? = background { files.append(path) }
        return files
    }

    /// Fills the settings' title, artist and artwork from the options and the file's tags.
    /// A damaged embedded cover is a warning (the render goes on without it); a named
    /// picture that cannot be read is an error.
    func apply(to settings: inout RenderSettings, tags: MediaTags, input: String, quiet: Bool) throws {
        if !noTags {
            if settings.title == nil { settings.title = tags.title }
            if artist == nil { settings.artist = tags.artist }
        }
        if let artist { settings.artist = artist }
        settings.title = InputChecks.capped(settings.title, "title")
        settings.artist = InputChecks.capped(settings.artist, "artist")
        var art = settings.artwork
        // Pictures are kept at about the frame's size, whatever theirs.
        let frame = (settings.width, settings.height)
        if let cover {
            art.cover = try ImageDecoder.read(cover, fitting: frame)
        } else if !noCover {
            do { art.cover = try tags.cover(of: input, fitting: frame) } catch {
                if !quiet { InputChecks.warn("\(error); rendering without it") }
            }
        }
        if let logo { art.logo = try ImageDecoder.read(logo, fitting: frame) }
        switch background {
        case .color(let c): art.backgroundColor = c
        case .picture(let path): art.background = try ImageDecoder.read(path, fitting: frame)
        case nil: break
        }
        settings.transparent = transparent
        art.backgroundDim = Float(backgroundDim)
        art.backgroundBlur = backgroundBlur
        settings.artwork = art
    }
}

extension ArtworkOptions {
    /// The video's own tags: the title and artist it shows, the input's album, then each
    /// --metadata; and the cover it shows, as its file's bytes (the named one or the input's).
    func outputTags(settings: RenderSettings, tags: MediaTags) -> OutputTags {
        var out = OutputTags()
        out.set("title", settings.title)
        out.set("artist", settings.artist)
        if !noTags { out.set("album", tags.album) }
        for m in metadata {
            let eq = m.firstIndex(of: "=")!
            let value = String(m[m.index(after: eq)...])
            if value.isEmpty {
                out.entries.removeAll { $0.key.lowercased() == m[..<eq].lowercased() }
            } else {
                out.set(String(m[..<eq]), value)
            }
        }
        if let cover {
            // Read and decoded already (apply): the bytes go in as they are.
            out.cover = FileManager.default.contents(atPath: cover).map { [UInt8]($0) }
        } else if !noCover && settings.artwork.cover != nil {
            out.cover = tags.coverBytes
        }
        return out
    }
}

/// `--background`: a colour or a picture file.
enum Background: OptionValue {
    case color(SIMD4<Float>)
    case picture(String)
    static let noun = "background"
    static let names: [String: UInt32] = [
        "black": 0x000000, "white": 0xFFFFFF, "gray": 0x808080, "grey": 0x808080,
        "navy": 0x000080, "teal": 0x008080, "maroon": 0x800000,
    ]

    init(parsing text: String) throws {
        if let rgb = Self.names[text.lowercased()] { self = .color(Self.color(rgb)); return }
        if text.hasPrefix("#") {
            var hex = String(text.dropFirst())
            if hex.count == 3 { hex = hex.map { "\($0)\($0)" }.joined() }
            guard hex.count == 6, let v = UInt32(hex, radix: 16) else {
                throw ValidationError("a colour is #rrggbb or #rgb, not '\(text)'")
            }
            self = .color(Self.color(v))
            return
        }
        self = .picture(text)
    }

    static func color(_ rgb: UInt32) -> SIMD4<Float> {
        SIMD4(Float(rgb >> 16 & 0xFF), Float(rgb >> 8 & 0xFF), Float(rgb & 0xFF), 255) / 255
    }
}
