import CPangoCairo
import Drawing
import WebReader

extension ShareCard {
    static let watermarkText = "Made with Talevonia · free"

    /// The mark and "Talevonia" in the footer row: at its leading edge, or centred in the story layout.
    static func drawWordmark(on canvas: Canvas, layout: ShareCardLayout, typesetter: Typesetter) {
        let row = layout.footer
        let markSize = Double(row.height)
        let name = typesetter.layout("Talevonia", size: layout.brandSize, weight: PANGO_WEIGHT_BOLD)
        let gap = markSize * 0.3
        let total = markSize + gap + name.width
        let x = layout.centred ? Double(row.x) + (Double(row.width) - total) / 2 : Double(row.x)
        TalevoniaMark.draw(on: canvas, x: x, y: Double(row.y), size: markSize)
        canvas.draw(name, x: x + markSize + gap, y: Double(row.y) + (markSize - name.height) / 2, ShareCardPalette.cream)
    }

    /// The free tier's "Made with Talevonia · free" on a light pill, in the layout's watermark slot.
    static func drawWatermark(on canvas: Canvas, layout: ShareCardLayout, typesetter: Typesetter) {
        let slot = layout.watermarkSlot
        let label = typesetter.layout(watermarkText, size: layout.watermarkSize, weight: PANGO_WEIGHT_SEMIBOLD)
        let padding = (horizontal: layout.watermarkSize * 0.9, vertical: layout.watermarkSize * 0.45)
        let width = label.width + 2 * padding.horizontal
        let height = label.height + 2 * padding.vertical
        let x = layout.centred ? Double(slot.x) + (Double(slot.width) - width) / 2 : Double(slot.x + slot.width) - width
        let y = Double(slot.y) + (Double(slot.height) - height) / 2
        canvas.fillRoundedRect(x: x, y: y, width: width, height: height, radius: height / 2, ShareCardPalette.cream, alpha: 0.94)
        canvas.draw(label, x: x + padding.horizontal, y: y + padding.vertical, ShareCardPalette.night)
    }
}
