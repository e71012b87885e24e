import CPangoCairo

/// A laid-out piece of text and its size in pixels.
public final class TextLayout {
    public let pointer: OpaquePointer
    /// Where the text starts, from the left edge the layout is drawn at: more than 0 when its lines are aligned right
    /// within a wrap width (a right-to-left paragraph) or centred in it.
    public let left: Double
    public let width: Double
    public let height: Double

    public init(pointer: OpaquePointer) {
        self.pointer = pointer
        var logical = PangoRectangle()
        pango_layout_get_extents(pointer, nil, &logical)
        left = Double(logical.x) / Double(PANGO_SCALE)
        width = Double(logical.width) / Double(PANGO_SCALE)
        height = Double(logical.height) / Double(PANGO_SCALE)
    }

    deinit { g_object_unref(UnsafeMutableRawPointer(pointer)) }
}
