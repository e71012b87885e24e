import CPangoCairo
import Drawing
import WebReader

extension ShareCard {
    /// The night-sky gradient, an amber glow at the top right, a rose one at the bottom left, and faint stars.
    static func drawBackground(on canvas: Canvas, layout: ShareCardLayout) {
        // The gradients are smooth, so drawn at a quarter of the size and scaled up they look the same, for a sixteenth
        // of the work: radial gradients are the slowest thing pixman paints.
        let reduction = 4
        let sky = CairoSurface(width: (layout.width + reduction - 1) / reduction, height: (layout.height + reduction - 1) / reduction, opaque: true)
        sky.draw { drawSky(on: $0, width: Double(layout.width) / Double(reduction), height: Double(layout.height) / Double(reduction)) }
        let context = canvas.context
        cairo_save(context)
        cairo_scale(context, Double(reduction), Double(reduction))
        cairo_set_source_surface(context, sky.pointer, 0, 0)
        cairo_pattern_set_filter(cairo_get_source(context), CAIRO_FILTER_BILINEAR)
        // Without padding, the edge pixels would blend with transparency.
        cairo_pattern_set_extend(cairo_get_source(context), CAIRO_EXTEND_PAD)
        cairo_paint(context)
        cairo_restore(context)
        drawStars(on: canvas, layout: layout)
    }

    private static func drawSky(on canvas: Canvas, width: Double, height: Double) {
        setLinearGradient(
            on: canvas, from: (0, 0), to: (width, height),
            [
                (0, ShareCardPalette.night), (0.55, ShareCardPalette.violet), (1, ShareCardPalette.plum),
            ])
        cairo_paint(canvas.context)
        let reach = max(width, height)
        drawGlow(on: canvas, centerX: width * 0.88, centerY: height * 0.06, radius: reach * 0.55, ShareCardPalette.amber, alpha: 0.28)
        drawGlow(on: canvas, centerX: width * 0.04, centerY: height * 0.96, radius: reach * 0.5, ShareCardPalette.rose, alpha: 0.22)
    }

    /// Makes a linear gradient through `stops` the source of the next fill or paint.
    static func setLinearGradient(
        on canvas: Canvas, from start: (x: Double, y: Double), to end: (x: Double, y: Double), _ stops: [(offset: Double, color: RGBColor)]
    ) {
        let gradient = cairo_pattern_create_linear(start.x, start.y, end.x, end.y)
        // The context keeps a reference of its own while the gradient is its source.
        defer { cairo_pattern_destroy(gradient) }
        for stop in stops {
            cairo_pattern_add_color_stop_rgb(gradient, stop.offset, stop.color.red, stop.color.green, stop.color.blue)
        }
        cairo_set_source(canvas.context, gradient)
    }

    /// A soft disc of light fading to nothing at `radius`.
    private static func drawGlow(on canvas: Canvas, centerX: Double, centerY: Double, radius: Double, _ color: RGBColor, alpha: Double) {
        let glow = cairo_pattern_create_radial(centerX, centerY, 0, centerX, centerY, radius)
        defer { cairo_pattern_destroy(glow) }
        cairo_pattern_add_color_stop_rgba(glow, 0, color.red, color.green, color.blue, alpha)
        cairo_pattern_add_color_stop_rgba(glow, 1, color.red, color.green, color.blue, 0)
        cairo_set_source(canvas.context, glow)
        cairo_paint(canvas.context)
    }

    /// The same scattering on every card: positions from a fixed-seed linear congruential generator (Knuth's MMIX).
    /// None behind the text, where a star would read as a stray dot.
    private static func drawStars(on canvas: Canvas, layout: ShareCardLayout) {
        let (width, height) = (Double(layout.width), Double(layout.height))
        let text = layout.text
        var state: UInt64 = 0x7A1E_5EED
        func next() -> Double {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Double(state >> 11) / Double(1 << 53)
        }
        let scale = min(width, height) / 630
        for _ in 0..<48 {
            let (x, y, size, brightness) = (next() * width, next() * height, next(), next())
            if (Double(text.x)...Double(text.x + text.width)).contains(x), (Double(text.y)...Double(text.maxY)).contains(y) { continue }
            canvas.fillCircle(centerX: x, centerY: y, radius: (0.8 + 1.6 * size) * scale, ShareCardPalette.cream, alpha: 0.12 + 0.3 * brightness)
        }
    }
}
