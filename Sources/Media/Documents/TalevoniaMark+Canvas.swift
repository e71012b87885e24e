import CPangoCairo
import Drawing
import WebReader

extension TalevoniaMark {
    /// Draws the mark as a `size`-point square with its top-left corner at (`x`, `y`), from the same geometry as its
    /// SVG, so the share card and the web reader's page show one mark.
    static func draw(on canvas: Canvas, x: Double, y: Double, size: Double) {
        canvas.roundedRectPath(x: x, y: y, width: size, height: size, radius: size * cornerRadius)
        ShareCard.setLinearGradient(on: canvas, from: (x, y), to: (x + size, y + size), [(0, RGBColor(tile.from)), (1, RGBColor(tile.to))])
        cairo_fill(canvas.context)
        for stroke in strokes {
            canvas.strokeLines(stroke.map { (x + $0.x * size, y + $0.y * size) }, width: size * strokeWidth, RGBColor(ink))
        }
        for dot in dots {
            canvas.fillCircle(centerX: x + dot.x * size, centerY: y + dot.y * size, radius: size * dot.radius, RGBColor(ink))
        }
    }
}
