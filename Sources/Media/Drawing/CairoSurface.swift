import CPangoCairo

/// A Cairo image surface Swift owns: 32 bits per pixel, BGRA in memory on this little-endian machine.
public final class CairoSurface {
    public let pointer: OpaquePointer
    public let width: Int
    public let height: Int

    /// An `opaque` surface has no alpha (a video frame); the others are transparent until drawn on (cached layers).
    public init(width: Int, height: Int, opaque: Bool) {
        pointer = cairo_image_surface_create(opaque ? CAIRO_FORMAT_RGB24 : CAIRO_FORMAT_ARGB32, Int32(width), Int32(height))
        self.width = width
        self.height = height
    }

    /// Takes ownership of an image surface Cairo made (one decoded from a PNG).
    init(owning pointer: OpaquePointer) {
        self.pointer = pointer
        width = Int(cairo_image_surface_get_width(pointer))
        height = Int(cairo_image_surface_get_height(pointer))
    }

    public var stride: Int { Int(cairo_image_surface_get_stride(pointer)) }

    /// The pixels, after any drawing is flushed.
    public var pixels: UnsafeMutablePointer<UInt8> {
        cairo_surface_flush(pointer)
        return cairo_image_surface_get_data(pointer)
    }

    /// Draws on the surface through a fresh context.
    public func draw<T>(_ body: (Canvas) throws -> T) rethrows -> T {
        let context = cairo_create(pointer)!
        defer { cairo_destroy(context) }
        return try body(Canvas(context: context))
    }

    deinit { cairo_surface_destroy(pointer) }
}
