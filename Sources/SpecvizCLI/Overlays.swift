import Specviz

/// Wires the pitch and tempo trackers into a render job for the overlays.
enum Overlays {
    static func attach(to job: RenderJob, settings: RenderSettings, sampleRate: Int) {
        // Filled in once the trackers exist.
    }
}
