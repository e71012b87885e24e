import CPangoCairo
import KilnCore

/// A Cairo image surface Swift owns: 32 bits per pixel, BGRA in memory on this little-endian machine.
final class CairoSurface {
    let pointer: OpaquePointer
    let width: Int
    let height: Int

    /// An `opaque` surface has no alpha (a video frame); the others are transparent until drawn on (cached layers).
    init(width: Int, height: Int, opaque: Bool) {
        pointer = cairo_image_surface_create(opaque ? CAIRO_FORMAT_RGB24 : CAIRO_FORMAT_ARGB32, Int32(width), Int32(height))
        self.width = width
        self.height = height
    }

    var stride: Int { Int(cairo_image_surface_get_stride(pointer)) }

    /// The pixels, after any drawing is flushed.
    var pixels: UnsafeMutablePointer<UInt8> {
        cairo_surface_flush(pointer)
        return cairo_image_surface_get_data(pointer)
    }

    /// Draws on the surface through a fresh context.
    func draw<T>(_ body: (Canvas) throws -> T) rethrows -> T {
        let context = cairo_create(pointer)!
        defer { cairo_destroy(context) }
        return try body(Canvas(context: context))
    }

    deinit { cairo_surface_destroy(pointer) }
}

/// Drawing on one Cairo context, in pixels.
struct Canvas {
    let context: OpaquePointer

    func color(_ color: ChatColor, alpha: Double = 1) {
        cairo_set_source_rgba(context, color.red, color.green, color.blue, alpha)
    }

    func fill(_ rect: PixelRect, _ color: ChatColor) {
        self.color(color)
        cairo_rectangle(context, Double(rect.x), Double(rect.y), Double(rect.width), Double(rect.height))
        cairo_fill(context)
    }

    func fillRoundedRect(x: Double, y: Double, width: Double, height: Double, radius: Double, _ color: ChatColor, alpha: Double = 1) {
        roundedRectPath(x: x, y: y, width: width, height: height, radius: radius)
        self.color(color, alpha: alpha)
        cairo_fill(context)
    }

    func strokeRoundedRect(x: Double, y: Double, width: Double, height: Double, radius: Double, lineWidth: Double, _ color: ChatColor) {
        roundedRectPath(x: x + lineWidth / 2, y: y + lineWidth / 2, width: width - lineWidth, height: height - lineWidth, radius: radius)
        self.color(color)
        cairo_set_line_width(context, lineWidth)
        cairo_stroke(context)
    }

    func fillCircle(centerX: Double, centerY: Double, radius: Double, _ color: ChatColor, alpha: Double = 1) {
        cairo_new_path(context)
        cairo_arc(context, centerX, centerY, radius, 0, 2 * Double.pi)
        self.color(color, alpha: alpha)
        cairo_fill(context)
    }

    /// A polyline through `points`, stroked with round ends (chevrons and icons).
    func strokeLines(_ points: [(Double, Double)], width: Double, _ color: ChatColor) {
        guard let first = points.first else { return }
        cairo_new_path(context)
        cairo_move_to(context, first.0, first.1)
        for point in points.dropFirst() { cairo_line_to(context, point.0, point.1) }
        cairo_set_line_width(context, width)
        cairo_set_line_cap(context, CAIRO_LINE_CAP_ROUND)
        cairo_set_line_join(context, CAIRO_LINE_JOIN_ROUND)
        self.color(color)
        cairo_stroke(context)
    }

    /// A closed polygon, filled.
    func fillPolygon(_ points: [(Double, Double)], _ color: ChatColor) {
        guard let first = points.first else { return }
        cairo_new_path(context)
        cairo_move_to(context, first.0, first.1)
        for point in points.dropFirst() { cairo_line_to(context, point.0, point.1) }
        cairo_close_path(context)
        self.color(color)
        cairo_fill(context)
    }

    func roundedRectPath(x: Double, y: Double, width: Double, height: Double, radius: Double) {
        let radius = min(radius, width / 2, height / 2)
        cairo_new_path(context)
        cairo_arc(context, x + width - radius, y + radius, radius, -Double.pi / 2, 0)
        cairo_arc(context, x + width - radius, y + height - radius, radius, 0, Double.pi / 2)
        cairo_arc(context, x + radius, y + height - radius, radius, Double.pi / 2, Double.pi)
        cairo_arc(context, x + radius, y + radius, radius, Double.pi, 3 * Double.pi / 2)
        cairo_close_path(context)
    }

    /// Paints a cached layer with its top-left corner at (`x`, `y`), whole pixels so it is copied, not resampled.
    func paint(_ surface: CairoSurface, x: Int, y: Int) {
        cairo_set_source_surface(context, surface.pointer, Double(x), Double(y))
        cairo_paint(context)
    }

    func draw(_ text: TextLayout, x: Double, y: Double, _ color: ChatColor) {
        self.color(color)
        cairo_move_to(context, x, y)
        pango_cairo_show_layout(context, text.pointer)
    }

    /// Limits drawing to `rect` until the returned context is restored.
    func clipped<T>(to rect: PixelRect, _ body: () throws -> T) rethrows -> T {
        cairo_save(context)
        defer { cairo_restore(context) }
        cairo_rectangle(context, Double(rect.x), Double(rect.y), Double(rect.width), Double(rect.height))
        cairo_clip(context)
        return try body()
    }
}

/// A rectangle on whole pixels.
struct PixelRect: Equatable {
    var x: Int
    var y: Int
    var width: Int
    var height: Int

    var maxY: Int { y + height }

    /// The smallest rectangle holding both.
    func union(_ other: PixelRect) -> PixelRect {
        let minX = min(x, other.x)
        let minY = min(y, other.y)
        let maxX = max(x + width, other.x + other.width)
        return PixelRect(x: minX, y: minY, width: maxX - minX, height: max(maxY, other.maxY) - minY)
    }

    /// The part inside `other`; empty (zero height) when they do not meet.
    func intersection(_ other: PixelRect) -> PixelRect {
        let minX = max(x, other.x)
        let minY = max(y, other.y)
        let maxX = min(x + width, other.x + other.width)
        let maxY = min(self.maxY, other.maxY)
        return PixelRect(x: minX, y: minY, width: max(0, maxX - minX), height: max(0, maxY - minY))
    }
}

/// Lays out text with Pango: one font family (`Inter`), colour emoji by fontconfig's fallback to Noto Color Emoji.
/// Hinting is off and metrics unhinted, so a line measures the same at every step of the typing animation.
final class Typesetter {
    /// Only the text family: naming the emoji font too makes Pango take spaces and digits from it.
    static let family = "Inter"
    private let fontMap: UnsafeMutablePointer<PangoFontMap>
    private let context: OpaquePointer

    init() {
        fontMap = pango_cairo_font_map_new()!
        context = pango_font_map_create_context(fontMap)
        let options = cairo_font_options_create()
        cairo_font_options_set_hint_style(options, CAIRO_HINT_STYLE_NONE)
        cairo_font_options_set_hint_metrics(options, CAIRO_HINT_METRICS_OFF)
        cairo_font_options_set_antialias(options, CAIRO_ANTIALIAS_GRAY)
        pango_cairo_context_set_font_options(context, options)
        cairo_font_options_destroy(options)
    }

    /// `text` at `size` pixels, wrapped at `width` pixels when given.
    func layout(_ text: String, size: Double, weight: PangoWeight = PANGO_WEIGHT_NORMAL, width: Double? = nil, centred: Bool = false) -> TextLayout {
        let layout = pango_layout_new(context)!
        let font = pango_font_description_new()
        pango_font_description_set_family(font, Self.family)
        pango_font_description_set_absolute_size(font, size * Double(PANGO_SCALE))
        pango_font_description_set_weight(font, weight)
        pango_layout_set_font_description(layout, font)
        pango_font_description_free(font)
        if let width {
            pango_layout_set_width(layout, Int32(width * Double(PANGO_SCALE)))
            pango_layout_set_wrap(layout, PANGO_WRAP_WORD_CHAR)
        }
        if centred { pango_layout_set_alignment(layout, PANGO_ALIGN_CENTER) }
        pango_layout_set_text(layout, text, -1)
        return TextLayout(pointer: layout)
    }

    deinit {
        g_object_unref(UnsafeMutableRawPointer(context))
        g_object_unref(UnsafeMutableRawPointer(fontMap))
    }
}

/// A laid-out piece of text and its size in pixels.
final class TextLayout {
    let pointer: OpaquePointer
    let width: Double
    let height: Double

    init(pointer: OpaquePointer) {
        self.pointer = pointer
        var logical = PangoRectangle()
        pango_layout_get_extents(pointer, nil, &logical)
        width = Double(logical.width) / Double(PANGO_SCALE)
        height = Double(logical.height) / Double(PANGO_SCALE)
    }

    deinit { g_object_unref(UnsafeMutableRawPointer(pointer)) }
}
