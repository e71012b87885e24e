import CPangoCairo
import Drawing

/// A line of iMessage's small grey notes: an optional bold word, then plain text ("**Today** 9:41", "Delivered").
struct ChatNoteLine {
    private let bold: TextLayout?
    private let plain: TextLayout?
    let width: Double
    let height: Double

    init(bold: String? = nil, plain: String? = nil, geometry: ChatGeometry, typesetter: Typesetter) {
        self.bold = bold.map { typesetter.layout($0, size: geometry.px(11), weight: PANGO_WEIGHT_SEMIBOLD) }
        self.plain = plain.map { typesetter.layout($0, size: geometry.px(11), weight: PANGO_WEIGHT_MEDIUM) }
        width = (self.bold?.width ?? 0) + (self.plain?.width ?? 0)
        height = max(self.bold?.height ?? 0, self.plain?.height ?? 0)
    }

    func draw(on canvas: Canvas, x: Double, y: Double, _ color: RGBColor) {
        if let bold { canvas.draw(bold, x: x, y: y, color) }
        if let plain { canvas.draw(plain, x: x + (bold?.width ?? 0), y: y, color) }
    }
}
