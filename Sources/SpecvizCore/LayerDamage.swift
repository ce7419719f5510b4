/// What one layer of a frame (a run of a scene's items drawn by one part: a mode's plot, the
/// waveform strip, the labels, the overlays) did since the frame before, said by the part
/// from the state that drives it. The rasteriser reuses and reports changed rows from
/// these alone: it never compares a frame's triangles with the last ones (a debug or
/// `-DSPECVIZ_CHECKS` build checks every `unchanged` against the frame before).
public enum LayerDamage: Sendable, Equatable {
    /// The same items, bit for bit, as the frame before's layer at this place: its rows did
    /// not change, and a picture kept after it can be reused.
    case unchanged
    /// May differ wherever it draws, in this frame or the one before; may stay the same
    /// on a later frame (a picture is kept after it for that frame).
    case changed
    /// Changes on every frame (a moving mesh, the waveform strip): no picture is kept
    /// after it, which would never be reused.
    case everyFrame
    /// Changed, and may be the frame before's layer moved by whole pixel rows with a few
    /// new draws in front (a scrolling history): the rasteriser moves the kept picture
    /// instead of drawing the moved draws when it finds them moved exactly.
    case scrolled

    /// Whether a picture kept after this layer may be reused by a later frame.
    @inlinable public var mayRepeat: Bool { self != .everyFrame }
}

/// A layer of a scene: its items and its damage since the frame before (`Scene.layers`).
public struct SceneLayer: Sendable, Equatable {
    public var items: Range<Int>
    public var damage: LayerDamage

    public init(items: Range<Int>, damage: LayerDamage) {
        self.items = items
        self.damage = damage
    }
}
