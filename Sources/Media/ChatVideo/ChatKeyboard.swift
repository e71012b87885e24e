import CPangoCairo
import Drawing

/// The keyboard under the input bar, as iOS draws it while the phone's owner types: the letters, in capitals while the
/// shift is on (before the first letter, and as a capital is struck), the key just struck shown in its pop-up above it;
/// or, while emoji are typed, the emoji keyboard. Without a keyboard, the home indicator.
struct ChatKeyboard {
    /// What the keyboard shows after the field's last character was typed.
    enum State: Equatable {
        /// The letter keys, in capitals when `shifted`, `pressed` (a key's label, or "space") held down.
        case letters(shifted: Bool, pressed: String?)
        /// The emoji keyboard, `pressed` (the emoji just typed) held down.
        case emoji(pressed: String)
    }

    let geometry: ChatGeometry
    let style: ChatStyle
    let typesetter: Typesetter

    static let keyRows = ["QWERTYUIOP", "ASDFGHJKL", "ZXCVBNM"]

    /// Gaps between keys and between rows, in points.
    private static let keyGap = 6.0
    private static let rowGap = 12.0

    /// The emoji the emoji keyboard lists as frequently used; the one typed is put first when it is not among them.
    private static let frequentEmoji: [String] = [
        "😂", "❤️", "🥺", "😭", "✨", "🙏", "😍", "🔥", "👍", "😊", "🥰", "💀", "😅", "🤣", "🎉", "💕", "👀", "😩", "🙄", "😳", "🤔", "😎",
        "😘", "💯", "🙌", "😁", "😢", "💖", "👏", "😉", "😏", "🤗", "🥲", "😡", "😌", "👌", "💔", "😬", "🤩", "😴",
    ]

    /// The keyboard as `field`'s last character is struck: letters with its key held, in capitals when it is one (the
    /// shift was on for it) and with the field empty; the emoji keyboard after an emoji.
    static func state(after field: String?) -> State {
        guard let field, let last = field.last else { return .letters(shifted: true, pressed: nil) }
        if LargeEmoji.isEmoji(last) { return .emoji(pressed: String(last)) }
        let capital = last.isUppercase
        let key: String? =
            if last == " " { "space" } else { keyRows.contains { $0.contains(String(last).uppercased()) } ? String(last).uppercased() : nil }
        return .letters(shifted: capital, pressed: key)
    }

    private func px(_ points: Double) -> Double { geometry.px(points) }

    /// Draws the keyboard in `state` (a pop-up reaches above it, over the input bar), or the home indicator.
    func draw(_ state: State, on canvas: Canvas) {
        let keyboard = geometry.keyboard
        guard geometry.showsKeyboard else {
            canvas.fill(keyboard, style.inputBackground)
            let barWidth = px(134)
            canvas.fillRoundedRect(
                x: geometry.centreX - barWidth / 2, y: Double(keyboard.maxY) - px(9), width: barWidth, height: px(5), radius: px(2.5),
                style.headerText)
            return
        }
        canvas.fill(keyboard, style.keyboardBackground)
        switch state {
        case .letters(let shifted, let pressed): drawLetters(shifted: shifted, pressed: pressed, on: canvas)
        case .emoji(let pressed): drawEmoji(pressed: pressed, on: canvas)
        }
    }

    /// A key's height in points: four rows and their gaps fill the keyboard, 42 points a key on a portrait one.
    private var keyHeight: Double { (Double(geometry.keyboard.height) / geometry.scale - 48).rounded() / 4 }

    private var keyWidth: Double { (geometry.columnPoints - Self.keyGap - 9 * Self.keyGap) / 10 }

    /// The top of row `row` (0 to 3, the bottom row's keys 3), in pixels.
    private func rowY(_ row: Int) -> Double { Double(geometry.keyboard.y) + px(8) + Double(row) * px(keyHeight + Self.rowGap) }

    private func drawLetters(shifted: Bool, pressed: String?, on canvas: Canvas) {
        let keyboardWidth = geometry.columnPoints
        var popUp: (label: String, x: Double, y: Double)?
        for (row, keys) in Self.keyRows.enumerated() {
            let y = rowY(row)
            let rowWidth = Double(keys.count) * keyWidth + Double(keys.count - 1) * Self.keyGap
            var x = (keyboardWidth - rowWidth) / 2
            if row == 2 {
                // Shift is lit (a letter key's colour) while it is on.
                key("⇧", x: 3, y: y, width: keyWidth * 1.3, special: !shifted, on: canvas)
                key("⌫", x: keyboardWidth - 3 - keyWidth * 1.3, y: y, width: keyWidth * 1.3, special: true, on: canvas)
            }
            for letter in keys {
                let label = shifted ? String(letter) : String(letter).lowercased()
                // The struck key is drawn with its pop-up, which covers it.
                if String(letter) == pressed {
                    popUp = (label, x, y)
                } else {
                    key(label, x: x, y: y, width: keyWidth, special: false, on: canvas)
                }
                x += keyWidth + Self.keyGap
            }
        }
        let y = rowY(3)
        let specialWidth = keyWidth * 1.3
        key("123", x: 3, y: y, width: specialWidth, special: true, on: canvas)
        key("😊", x: 9 + specialWidth, y: y, width: specialWidth, special: true, on: canvas)
        let returnX = keyboardWidth - 3 - specialWidth * 1.6
        key("return", x: returnX, y: y, width: specialWidth * 1.6, special: true, on: canvas)
        let spaceX = 15 + specialWidth * 2
        // The space bar shows no pop-up: it darkens while held.
        key("space", x: spaceX, y: y, width: returnX - 6 - spaceX, special: pressed == "space", on: canvas)
        if let popUp { drawPopUp(popUp.label, x: popUp.x, y: popUp.y, on: canvas) }
    }

    /// One key; `x` and `width` in points from the keyboard's left edge, `y` in pixels.
    private func key(_ label: String, x: Double, y: Double, width: Double, special: Bool, on canvas: Canvas) {
        canvas.fillRoundedRect(
            x: geometry.x(x), y: y, width: px(width), height: px(keyHeight), radius: px(5), special ? style.keySpecialBackground : style.keyBackground
        )
        let text = typesetter.layout(label, size: px(label.count > 1 && label != "😊" ? 16 : 22))
        canvas.draw(text, x: geometry.x(x) + (px(width) - text.width) / 2, y: y + (px(keyHeight) - text.height) / 2, style.keyText)
    }

    /// iOS's pop-up over a struck letter key: a wider cap above the key, joined to it, the letter large in the cap. It
    /// keeps inside the keyboard's width (Q's and P's lean inwards) and may reach over the input bar.
    private func drawPopUp(_ label: String, x: Double, y: Double, on canvas: Canvas) {
        let capWidth = keyWidth + 24
        let capHeight = keyHeight + 12
        let capX = min(max(x - 12, 1), geometry.columnPoints - 1 - capWidth)
        let capTop = y - px(capHeight + 4)
        canvas.fillRoundedRect(x: geometry.x(capX), y: capTop, width: px(capWidth), height: px(capHeight), radius: px(8), style.keyBackground)
        canvas.fillPolygon(
            [
                (geometry.x(capX), capTop + px(capHeight) - px(8)), (geometry.x(capX + capWidth), capTop + px(capHeight) - px(8)),
                (geometry.x(x + keyWidth), y + px(6)), (geometry.x(x), y + px(6)),
            ], style.keyBackground)
        canvas.fillRoundedRect(x: geometry.x(x), y: y, width: px(keyWidth), height: px(keyHeight), radius: px(5), style.keyBackground)
        let text = typesetter.layout(label, size: px(34))
        canvas.draw(text, x: geometry.x(capX) + (px(capWidth) - text.width) / 2, y: capTop + (px(capHeight) - text.height) / 2, style.keyText)
    }

    /// The emoji keyboard: "FREQUENTLY USED" over a grid of emoji, the one just typed held (a lighter square behind it),
    /// and a bottom row with the letters' key, the categories and delete.
    private func drawEmoji(pressed: String, on canvas: Canvas) {
        let top = Double(geometry.keyboard.y)
        let title = typesetter.layout("FREQUENTLY USED", size: px(12), weight: PANGO_WEIGHT_SEMIBOLD)
        canvas.draw(title, x: geometry.x(12), y: top + px(10), style.secondaryText)
        let cell = 44.0
        let columns = Int((geometry.columnPoints - 12) / cell)
        let gridTop = top + px(30)
        let rows = max(1, Int(((rowY(3) - gridTop) / geometry.scale) / cell))
        let shown = [pressed] + Self.frequentEmoji.filter { $0 != pressed }
        let left = (geometry.columnPoints - Double(columns) * cell) / 2
        for (index, emoji) in shown.prefix(columns * rows).enumerated() {
            let x = geometry.x(left + Double(index % columns) * cell)
            let y = gridTop + px(Double(index / columns) * cell)
            if emoji == pressed { canvas.fillRoundedRect(x: x, y: y, width: px(cell), height: px(cell), radius: px(8), style.keySpecialBackground) }
            let glyph = typesetter.layout(emoji, size: px(32))
            canvas.draw(glyph, x: x + (px(cell) - glyph.width) / 2, y: y + (px(cell) - glyph.height) / 2, style.keyText)
        }
        let y = rowY(3)
        let abc = typesetter.layout("ABC", size: px(16), weight: PANGO_WEIGHT_MEDIUM)
        canvas.draw(abc, x: geometry.x(14), y: y + (px(keyHeight) - abc.height) / 2, style.keyText)
        // The categories: small grey discs, the first (frequently used) circled as the one shown.
        let categories = 9
        let spanLeft = 70.0
        let spanWidth = geometry.columnPoints - spanLeft - 60
        for category in 0..<categories {
            let centerX = geometry.x(spanLeft + spanWidth * (Double(category) + 0.5) / Double(categories))
            let centerY = y + px(keyHeight) / 2
            if category == 0 { canvas.fillCircle(centerX: centerX, centerY: centerY, radius: px(12), style.keySpecialBackground) }
            canvas.fillCircle(centerX: centerX, centerY: centerY, radius: px(6), style.secondaryText)
        }
        let delete = typesetter.layout("⌫", size: px(22))
        canvas.draw(delete, x: geometry.right - px(18) - delete.width, y: y + (px(keyHeight) - delete.height) / 2, style.keyText)
    }
}
