import CPangoCairo
import Drawing
import WebReader

extension ShareCard {
    /// An amber accent bar, the title (three lines at most), the byline and the summary (four lines at most, fewer when
    /// a long title takes the room), stacked and centred vertically in the text column.
    func drawText(on canvas: Canvas, layout: ShareCardLayout, typesetter: Typesetter) {
        let column = layout.text
        let width = Double(column.width)
        func lines(_ text: String, _ count: Int, size: Double, weight: PangoWeight) -> TextLayout {
            Self.layout(text, lines: count, size: size, weight: weight, width: width, centred: layout.centred, typesetter: typesetter)
        }
        let accent = (width: layout.titleSize * 1.2, height: layout.titleSize * 0.12, gap: layout.titleSize * 0.45)
        let titleText = lines(title, 3, size: layout.titleSize, weight: PANGO_WEIGHT_BOLD)
        let bylineText = byline.map { lines($0, 1, size: layout.bylineSize, weight: PANGO_WEIGHT_SEMIBOLD) }
        let bylineGap = layout.bylineSize * 0.6
        let summaryGap = layout.summarySize * 1.1
        var used = accent.height + accent.gap + titleText.height + (bylineText.map { bylineGap + $0.height } ?? 0)
        let room = Double(column.height) - used - summaryGap
        let summaryText =
            summary.allSatisfy(\.isWhitespace)
            ? nil
            : (1...4).reversed().lazy
                .map { lines(summary, $0, size: layout.summarySize, weight: PANGO_WEIGHT_NORMAL) }
                .first { $0.height <= room }
        if let summaryText { used += summaryGap + summaryText.height }

        let x = Double(column.x)
        var y = Double(column.y) + max(0, (Double(column.height) - used) / 2)
        // The bar stands where the title starts: on the right of a right-to-left one.
        let rightToLeft = pango_layout_get_direction(titleText.pointer, 0) == PANGO_DIRECTION_RTL
        let accentX = layout.centred ? x + (width - accent.width) / 2 : rightToLeft ? x + width - accent.width : x
        canvas.fillRoundedRect(x: accentX, y: y, width: accent.width, height: accent.height, radius: accent.height / 2, ShareCardPalette.amber)
        y += accent.height + accent.gap
        canvas.draw(titleText, x: x, y: y, ShareCardPalette.cream)
        y += titleText.height
        if let bylineText {
            y += bylineGap
            canvas.draw(bylineText, x: x, y: y, ShareCardPalette.amber)
            y += bylineText.height
        }
        if let summaryText {
            canvas.draw(summaryText, x: x, y: y + summaryGap, ShareCardPalette.lavender)
        }
    }

    /// `text` as one paragraph wrapped at `width`, cut after `lines` lines with an ellipsis.
    private static func layout(
        _ text: String, lines: Int, size: Double, weight: PangoWeight, width: Double, centred: Bool, typesetter: Typesetter
    ) -> TextLayout {
        // Pango counts the line limit per paragraph: line breaks in the text would let it run longer.
        let paragraph = text.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        return typesetter.layout(paragraph, size: size, weight: weight, width: width, centred: centred, maxLines: lines)
    }
}
