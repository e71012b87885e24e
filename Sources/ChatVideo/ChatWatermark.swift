import CPangoCairo
import Drawing

/// The free tier's mark, "Made with ChatTale" on a translucent pill in the lower right of the messages. Drawn once
/// into a layer of its own: as text on every frame it would cost more than the rest of the picture.
struct ChatWatermark {
    static let text = "Made with ChatTale"
    private let layer: CairoSurface
    private let origin: (x: Int, y: Int)
    private let typesetter: Typesetter
    private let scale: Double

    init(geometry: ChatGeometry, typesetter: Typesetter) {
        self.typesetter = typesetter
        scale = geometry.scale
        let label = typesetter.layout(Self.text, size: geometry.px(15), weight: PANGO_WEIGHT_BOLD)
        let width = Int((label.width + geometry.px(24)).rounded(.up))
        let height = Int((label.height + geometry.px(12)).rounded(.up))
        origin = (geometry.viewport.width - width - Int(geometry.px(12)), geometry.viewport.maxY - height - Int(geometry.px(12)))
        layer = CairoSurface(width: width, height: height, opaque: false)
        layer.draw { Self.drawMark(label, width: Double(width), height: Double(height), scale: geometry.scale, on: $0, x: 0, y: 0) }
    }

    /// Copies the cached layer into place.
    func paint(on canvas: Canvas) {
        canvas.paint(layer, x: origin.x, y: origin.y)
    }

    /// Lays out and draws the mark afresh (the naive path).
    func draw(on canvas: Canvas) {
        let label = typesetter.layout(Self.text, size: 15 * scale, weight: PANGO_WEIGHT_BOLD)
        Self.drawMark(
            label, width: Double(layer.width), height: Double(layer.height), scale: scale, on: canvas, x: Double(origin.x), y: Double(origin.y))
    }

    private static func drawMark(_ label: TextLayout, width: Double, height: Double, scale: Double, on canvas: Canvas, x: Double, y: Double) {
        canvas.fillRoundedRect(x: x, y: y, width: width, height: height, radius: height / 2, RGBColor(0x000000), alpha: 0.45)
        canvas.draw(label, x: x + 12 * scale, y: y + 6 * scale, RGBColor(0xFFFFFF))
    }
}
