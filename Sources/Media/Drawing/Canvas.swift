import CPangoCairo

/// Drawing on one Cairo context, in pixels.
public struct Canvas {
    public let context: OpaquePointer

    public init(context: OpaquePointer) {
        self.context = context
    }

    public func color(_ color: RGBColor, alpha: Double = 1) {
        cairo_set_source_rgba(context, color.red, color.green, color.blue, alpha)
    }

    public func fill(_ rect: PixelRect, _ color: RGBColor) {
        self.color(color)
        cairo_rectangle(context, Double(rect.x), Double(rect.y), Double(rect.width), Double(rect.height))
        cairo_fill(context)
    }

    public func fillRoundedRect(x: Double, y: Double, width: Double, height: Double, radius: Double, _ color: RGBColor, alpha: Double = 1) {
        roundedRectPath(x: x, y: y, width: width, height: height, radius: radius)
        self.color(color, alpha: alpha)
        cairo_fill(context)
    }

    public func strokeRoundedRect(x: Double, y: Double, width: Double, height: Double, radius: Double, lineWidth: Double, _ color: RGBColor) {
        roundedRectPath(x: x + lineWidth / 2, y: y + lineWidth / 2, width: width - lineWidth, height: height - lineWidth, radius: radius)
        self.color(color)
        cairo_set_line_width(context, lineWidth)
        cairo_stroke(context)
    }

    public func fillCircle(centerX: Double, centerY: Double, radius: Double, _ color: RGBColor, alpha: Double = 1) {
        cairo_new_path(context)
        cairo_arc(context, centerX, centerY, radius, 0, 2 * Double.pi)
        self.color(color, alpha: alpha)
        cairo_fill(context)
    }

    /// A polyline through `points`, stroked with round ends (chevrons and icons).
    public func strokeLines(_ points: [(Double, Double)], width: Double, _ color: RGBColor) {
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

    /// An arc of the circle around (`centerX`, `centerY`) from `start` to `end` radians (clockwise on the screen), stroked
    /// with square-cut ends (the Wi-Fi mark).
    public func strokeArc(centerX: Double, centerY: Double, radius: Double, from start: Double, to end: Double, width: Double, _ color: RGBColor) {
        cairo_new_path(context)
        cairo_arc(context, centerX, centerY, radius, start, end)
        cairo_set_line_width(context, width)
        cairo_set_line_cap(context, CAIRO_LINE_CAP_BUTT)
        self.color(color)
        cairo_stroke(context)
    }

    /// The pie slice of the circle around (`centerX`, `centerY`) from `start` to `end` radians, filled.
    public func fillSector(centerX: Double, centerY: Double, radius: Double, from start: Double, to end: Double, _ color: RGBColor) {
        cairo_new_path(context)
        cairo_move_to(context, centerX, centerY)
        cairo_arc(context, centerX, centerY, radius, start, end)
        cairo_close_path(context)
        self.color(color)
        cairo_fill(context)
    }

    /// A closed shape from `start` through cubic Bézier curves, each with its two control points and its end, filled.
    public func fillCurves(from start: (Double, Double), _ curves: [(Double, Double, Double, Double, Double, Double)], _ color: RGBColor) {
        cairo_new_path(context)
        cairo_move_to(context, start.0, start.1)
        for curve in curves { cairo_curve_to(context, curve.0, curve.1, curve.2, curve.3, curve.4, curve.5) }
        cairo_close_path(context)
        self.color(color)
        cairo_fill(context)
    }

    /// A closed polygon, filled.
    public func fillPolygon(_ points: [(Double, Double)], _ color: RGBColor) {
        guard let first = points.first else { return }
        cairo_new_path(context)
        cairo_move_to(context, first.0, first.1)
        for point in points.dropFirst() { cairo_line_to(context, point.0, point.1) }
        cairo_close_path(context)
        self.color(color)
        cairo_fill(context)
    }

    public func roundedRectPath(x: Double, y: Double, width: Double, height: Double, radius: Double) {
        let radius = min(radius, width / 2, height / 2)
        cairo_new_path(context)
        cairo_arc(context, x + width - radius, y + radius, radius, -Double.pi / 2, 0)
        cairo_arc(context, x + width - radius, y + height - radius, radius, 0, Double.pi / 2)
        cairo_arc(context, x + radius, y + height - radius, radius, Double.pi / 2, Double.pi)
        cairo_arc(context, x + radius, y + radius, radius, Double.pi, 3 * Double.pi / 2)
        cairo_close_path(context)
    }

    /// Paints a cached layer with its top-left corner at (`x`, `y`), whole pixels so it is copied, not resampled.
    public func paint(_ surface: CairoSurface, x: Int, y: Int) {
        cairo_set_source_surface(context, surface.pointer, Double(x), Double(y))
        cairo_paint(context)
    }

    public func draw(_ text: TextLayout, x: Double, y: Double, _ color: RGBColor) {
        self.color(color)
        cairo_move_to(context, x, y)
        pango_cairo_show_layout(context, text.pointer)
    }

    /// Limits drawing to `rect` until the returned context is restored.
    public func clipped<T>(to rect: PixelRect, _ body: () throws -> T) rethrows -> T {
        cairo_save(context)
        defer { cairo_restore(context) }
        cairo_rectangle(context, Double(rect.x), Double(rect.y), Double(rect.width), Double(rect.height))
        cairo_clip(context)
        return try body()
    }
}
