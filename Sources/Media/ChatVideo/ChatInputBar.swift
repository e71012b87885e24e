import CPangoCairo
import Drawing

/// The input bar above the keyboard: the "+" button, the field, and the send button. The field grows a line at a time
/// as the words typed in it wrap, up to ``maxLines``, and the bar with it, upwards; past that its first lines scroll
/// out of sight, as iOS's field does.
struct ChatInputBar {
    let geometry: ChatGeometry
    let style: ChatStyle
    let typesetter: Typesetter

    /// The lines the field grows to before it scrolls.
    static let maxLines = 5
    /// The empty field's height, in points.
    private static let fieldPoints = 36.0
    /// The field's inner margins left and right, in points.
    private static let textInset = 14.0

    private func px(_ points: Double) -> Double { geometry.px(points) }

    private var fieldX: Double { geometry.x(52) }
    private var fieldWidth: Double { geometry.column.width - px(52 + 56) }

    /// Words typed in the field, laid out once for a picture.
    struct Field {
        let text: String
        /// Wrapped at the field's width, with room for the caret.
        let layout: TextLayout
        let lines: Int
        /// How far the bar reaches above its one-line place, in whole pixels.
        let growth: Int
    }

    /// `text` laid out in the field; nil (the field empty, its placeholder shown) for nil.
    func field(_ text: String?) -> Field? {
        guard let text else { return nil }
        let layout = typesetter.layout(text, size: px(17), width: fieldWidth - px(2 * Self.textInset + 4), hyphenates: false)
        let lines = Int(pango_layout_get_line_count(layout.pointer))
        let lineHeight = layout.height / Double(max(1, lines))
        return Field(
            text: text, layout: layout, lines: lines, growth: Int((lineHeight * Double(max(1, min(lines, Self.maxLines)) - 1)).rounded()))
    }

    /// Where the bar is with `field` in it.
    func rect(for field: Field?) -> PixelRect {
        let base = geometry.inputBar
        let growth = field?.growth ?? 0
        return PixelRect(x: base.x, y: base.y - growth, width: base.width, height: base.height + growth)
    }

    /// Draws the bar, its field holding `field` (words being typed, with a caret) or its placeholder when nil.
    func draw(_ field: Field?, on canvas: Canvas) {
        let bar = rect(for: field)
        canvas.fill(bar, style.inputBackground)
        let oneLine = px(Self.fieldPoints)
        let baseY = Double(geometry.inputBar.y) + (Double(geometry.inputBar.height) - oneLine) / 2
        let fieldY = baseY - Double(bar.height - geometry.inputBar.height)
        let fieldHeight = oneLine + Double(bar.height - geometry.inputBar.height)
        // The buttons stay level with the field's last line.
        let buttonY = baseY + oneLine / 2
        canvas.fillCircle(centerX: geometry.x(26), centerY: buttonY, radius: px(15), style.inputField)
        canvas.strokeLines([(geometry.x(19), buttonY), (geometry.x(33), buttonY)], width: px(2.2), style.secondaryText)
        canvas.strokeLines([(geometry.x(26), buttonY - px(7)), (geometry.x(26), buttonY + px(7))], width: px(2.2), style.secondaryText)
        let radius = oneLine / 2
        canvas.fillRoundedRect(x: fieldX, y: fieldY, width: fieldWidth, height: fieldHeight, radius: radius, style.inputField)
        if let border = style.inputFieldBorder {
            canvas.strokeRoundedRect(x: fieldX, y: fieldY, width: fieldWidth, height: fieldHeight, radius: radius, lineWidth: px(1), border)
        }
        if let field {
            let text = field.layout
            let lines = field.lines
            let lineHeight = text.height / Double(max(1, lines))
            // Past the lines the field grows to, its first lines scroll up out of it.
            let hidden = Double(max(0, lines - Self.maxLines)) * lineHeight
            let textY = fieldY + (oneLine - lineHeight) / 2 - hidden
            let textX = fieldX + px(Self.textInset)
            canvas.clipped(to: PixelRect(x: Int(fieldX), y: Int(fieldY + px(4)), width: Int(fieldWidth), height: Int(fieldHeight - px(8)))) {
                canvas.draw(text, x: textX - text.left, y: textY, style.headerText)
            }
            // The caret after the last character typed.
            var caret = PangoRectangle()
            pango_layout_get_cursor_pos(text.pointer, Int32(field.text.utf8.count), &caret, nil)
            let caretX = textX - text.left + Double(caret.x) / Double(PANGO_SCALE) + px(1)
            let caretTop = textY + Double(caret.y) / Double(PANGO_SCALE)
            canvas.strokeLines([(caretX, caretTop + px(1)), (caretX, caretTop + lineHeight - px(1))], width: px(2), style.accent)
        } else if !style.inputPlaceholder.isEmpty {
            let placeholder = typesetter.layout(style.inputPlaceholder, size: px(17))
            canvas.draw(placeholder, x: fieldX + px(Self.textInset), y: baseY + (oneLine - placeholder.height) / 2, style.placeholderText)
        }
        drawSendButton(centerX: geometry.right - px(28), centerY: buttonY, lit: field != nil, on: canvas)
    }

    /// The send button, lit only while the field holds something to send.
    private func drawSendButton(centerX: Double, centerY: Double, lit: Bool, on canvas: Canvas) {
        switch style.sendIcon {
        case .arrow:
            canvas.fillCircle(centerX: centerX, centerY: centerY, radius: px(16), lit ? style.inputButton : style.separator)
            canvas.strokeLines([(centerX, centerY + px(7)), (centerX, centerY - px(7))], width: px(2.6), RGBColor(0xFFFFFF))
            canvas.strokeLines(
                [(centerX - px(6), centerY - px(1)), (centerX, centerY - px(7)), (centerX + px(6), centerY - px(1))], width: px(2.6),
                RGBColor(0xFFFFFF))
        case .paperPlane where !lit:
            drawMicrophone(centerX: centerX, centerY: centerY, on: canvas)
        case .paperPlane:
            canvas.fillCircle(centerX: centerX, centerY: centerY, radius: px(16), style.inputButton)
            // A paper plane pointing right: its nose, its two wing tips behind, the fold between them.
            func point(_ x: Double, _ y: Double) -> (Double, Double) { (centerX + px(x), centerY + px(y)) }
            canvas.fillPolygon([point(8, 0), point(-7, -7), point(-5, -1), point(2, 0), point(-5, 1), point(-7, 7)], RGBColor(0xFFFFFF))
        }
    }

    /// WhatsApp's microphone, where the send button comes once there is something to send: a capsule in a cradle on a
    /// stem.
    private func drawMicrophone(centerX: Double, centerY: Double, on canvas: Canvas) {
        canvas.fillRoundedRect(x: centerX - px(4), y: centerY - px(11), width: px(8), height: px(14), radius: px(4), style.accent)
        canvas.strokeArc(centerX: centerX, centerY: centerY - px(1), radius: px(7), from: 0, to: Double.pi, width: px(1.8), style.accent)
        canvas.strokeLines([(centerX, centerY + px(6)), (centerX, centerY + px(10))], width: px(1.8), style.accent)
    }
}
