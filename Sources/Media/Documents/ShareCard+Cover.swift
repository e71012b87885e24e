import CPangoCairo
import Drawing
import WebReader

extension ShareCard {
    /// The cover cropped to fill its frame (aspect-fill), with rounded corners, a soft shadow and a faint rim.
    static func drawCover(_ picture: CairoSurface, on canvas: Canvas, layout: ShareCardLayout) {
        let frame = layout.cover
        drawShadow(on: canvas, layout: layout)
        let context = canvas.context
        cairo_save(context)
        defer { cairo_restore(context) }
        canvas.roundedRectPath(
            x: Double(frame.x), y: Double(frame.y), width: Double(frame.width), height: Double(frame.height), radius: layout.coverRadius)
        cairo_clip(context)
        // Under a cover with transparent parts, the card's night rather than the gradient and stars.
        canvas.fill(frame, ShareCardPalette.night)
        let scale = max(Double(frame.width) / Double(picture.width), Double(frame.height) / Double(picture.height))
        cairo_translate(
            context, Double(frame.x) + (Double(frame.width) - Double(picture.width) * scale) / 2,
            Double(frame.y) + (Double(frame.height) - Double(picture.height) * scale) / 2)
        cairo_scale(context, scale, scale)
        cairo_set_source_surface(context, picture.pointer, 0, 0)
        cairo_pattern_set_filter(cairo_get_source(context), CAIRO_FILTER_GOOD)
        cairo_paint(context)
        cairo_identity_matrix(context)
        strokeRim(on: canvas, layout: layout)
    }

    /// Where a cover would be: an amber-to-plum panel with rings of light and the Talevonia mark, large.
    static func drawPlaceholder(on canvas: Canvas, layout: ShareCardLayout) {
        let frame = layout.cover
        let (x, y, width, height) = (Double(frame.x), Double(frame.y), Double(frame.width), Double(frame.height))
        drawShadow(on: canvas, layout: layout)
        canvas.roundedRectPath(x: x, y: y, width: width, height: height, radius: layout.coverRadius)
        setLinearGradient(
            on: canvas, from: (x, y), to: (x + width, y + height),
            [
                (0, ShareCardPalette.rose), (0.5, ShareCardPalette.plum), (1, ShareCardPalette.violet),
            ])
        cairo_fill_preserve(canvas.context)
        let (centerX, centerY) = (x + width / 2, y + height / 2)
        let markSize = min(width, height) * 0.36
        // The rings spread past the panel: clipped to its rounded shape (the path the fill kept).
        cairo_save(canvas.context)
        defer { cairo_restore(canvas.context) }
        cairo_clip(canvas.context)
        for ring in 1...4 {
            canvas.color(ShareCardPalette.cream, alpha: 0.16 - 0.03 * Double(ring))
            cairo_new_path(canvas.context)
            cairo_arc(canvas.context, centerX, centerY, markSize * (0.55 + 0.32 * Double(ring)), 0, 2 * Double.pi)
            cairo_set_line_width(canvas.context, markSize * 0.04)
            cairo_stroke(canvas.context)
        }
        TalevoniaMark.draw(on: canvas, x: centerX - markSize / 2, y: centerY - markSize / 2, size: markSize)
        strokeRim(on: canvas, layout: layout)
    }

    /// Layers of faint black around the frame, offset downwards: a blurred drop shadow without a blur.
    private static func drawShadow(on canvas: Canvas, layout: ShareCardLayout) {
        let frame = layout.cover
        let spread = layout.coverRadius / 2
        for step in stride(from: spread, to: 0, by: -2) {
            canvas.fillRoundedRect(
                x: Double(frame.x) - step, y: Double(frame.y) - step + spread, width: Double(frame.width) + 2 * step,
                height: Double(frame.height) + 2 * step, radius: layout.coverRadius + step, RGBColor(0x000000), alpha: 0.04)
        }
    }

    /// A thin light edge that keeps a dark cover from melting into the night background.
    private static func strokeRim(on canvas: Canvas, layout: ShareCardLayout) {
        let frame = layout.cover
        canvas.roundedRectPath(
            x: Double(frame.x) + 1, y: Double(frame.y) + 1, width: Double(frame.width) - 2, height: Double(frame.height) - 2,
            radius: layout.coverRadius - 1)
        canvas.color(ShareCardPalette.cream, alpha: 0.18)
        cairo_set_line_width(canvas.context, 2)
        cairo_stroke(canvas.context)
    }
}
