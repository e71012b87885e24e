import CPangoCairo
import Drawing
import KilnCore

/// Talevonia's mark, a path that forks in two (the app's branching stories) on an amber-to-rose tile: drawn on the share
/// card, and written as SVG for the web reader's page, from the same geometry on a unit square.
enum ShareCardMark {
    private static let cornerRadius = 0.28
    private static let strokeWidth = 0.09
    private static let strokes: [[(x: Double, y: Double)]] = [[(0.5, 0.78), (0.5, 0.56), (0.3, 0.34)], [(0.5, 0.56), (0.7, 0.34)]]
    private static let dots: [(x: Double, y: Double, radius: Double)] = [(0.3, 0.31, 0.09), (0.7, 0.31, 0.09), (0.5, 0.79, 0.065)]
    private static let tile = (from: ShareCardPalette.amber, to: ShareCardPalette.rose)
    private static let ink = ShareCardPalette.night

    static func draw(on canvas: Canvas, x: Double, y: Double, size: Double) {
        canvas.roundedRectPath(x: x, y: y, width: size, height: size, radius: size * cornerRadius)
        ShareCard.setLinearGradient(on: canvas, from: (x, y), to: (x + size, y + size), [(0, tile.from), (1, tile.to)])
        cairo_fill(canvas.context)
        for stroke in strokes {
            canvas.strokeLines(stroke.map { (x + $0.x * size, y + $0.y * size) }, width: size * strokeWidth, ink)
        }
        for dot in dots {
            canvas.fillCircle(centerX: x + dot.x * size, centerY: y + dot.y * size, radius: size * dot.radius, ink)
        }
    }

    /// The mark as inline SVG on a 100-unit square, shown at `size` CSS pixels; decorative, so hidden from screen readers.
    /// The gradient's id is fixed: put the mark on a page once.
    static func svg(size: Int) -> String {
        func unit(_ value: Double) -> String { String(Int((value * 100).rounded())) }
        let paths = strokes.map { stroke in
            "M" + stroke.map { "\(unit($0.x)) \(unit($0.y))" }.joined(separator: "L")
        }.joined()
        let circles = dots.map { "<circle cx=\"\(unit($0.x))\" cy=\"\(unit($0.y))\" r=\"\(unit($0.radius))\"/>" }.joined()
        return """
            <svg class="mark" viewBox="0 0 100 100" width="\(size)" height="\(size)" aria-hidden="true">\
            <defs><linearGradient id="talevonia-tile" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="\(hex(tile.from))"/>\
            <stop offset="1" stop-color="\(hex(tile.to))"/></linearGradient></defs>\
            <rect width="100" height="100" rx="\(unit(cornerRadius))" fill="url(#talevonia-tile)"/>\
            <path d="\(paths)" fill="none" stroke="\(hex(ink))" stroke-width="\(unit(strokeWidth))" stroke-linecap="round" stroke-linejoin="round"/>\
            <g fill="\(hex(ink))">\(circles)</g></svg>
            """
    }

    private static func hex(_ color: ChatColor) -> String {
        "#" + [color.red, color.green, color.blue].map { component in
            let digits = String(Int((component * 255).rounded()), radix: 16, uppercase: true)
            return digits.count == 1 ? "0" + digits : digits
        }.joined()
    }
}
