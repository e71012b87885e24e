import CPangoCairo

/// A laid-out piece of text and its size in pixels.
public final class TextLayout {
    public let pointer: OpaquePointer
    public let width: Double
    public let height: Double

    public init(pointer: OpaquePointer) {
        self.pointer = pointer
        var logical = PangoRectangle()
        pango_layout_get_extents(pointer, nil, &logical)
        width = Double(logical.width) / Double(PANGO_SCALE)
        height = Double(logical.height) / Double(PANGO_SCALE)
    }

    deinit { g_object_unref(UnsafeMutableRawPointer(pointer)) }
}
