import CPangoCairo
import ChatTaleInputs
import Drawing

/// What surrounds the messages and never changes during a video: the status bar, the app's header with the contact's
/// name and avatar, the input bar and the keyboard.
struct ChatChrome {
    let geometry: ChatGeometry
    let style: ChatStyle
    let typesetter: Typesetter
    /// Whom the header shows: the contact, or the group.
    let title: String
    /// The contact's picture, or a group's first three members', stacked.
    let avatars: [ChatAvatar]

    static let keyRows = ["QWERTYUIOP", "ASDFGHJKL", "ZXCVBNM"]

    /// Under a group's name, its members (WhatsApp); nil for none.
    let subtitle: String?

    /// Everything, the input field empty.
    func draw(on canvas: Canvas) {
        drawHeader(on: canvas)
        drawInputBar(field: nil, on: canvas)
        drawKeyboard(pressed: nil, on: canvas)
    }

    /// The key a typed character is struck on (its letter, or "space"); nil for one the letter keys do not have.
    static func key(for character: Character) -> String? {
        if character == " " { return "space" }
        let letter = String(character).uppercased()
        return keyRows.contains { $0.contains(letter) } ? letter : nil
    }

    private func px(_ points: Double) -> Double { geometry.px(points) }

    private func drawHeader(on canvas: Canvas) {
        let header = geometry.header
        canvas.fill(header, style.headerBackground)
        canvas.fill(PixelRect(x: 0, y: header.maxY - max(1, Int(px(0.5))), width: header.width, height: max(1, Int(px(0.5)))), style.separator)
        drawStatusBar(on: canvas)

        let top = px(ChatGeometry.statusBarPoints)
        let middle = top + px(ChatGeometry.headerPoints / 2)
        // The back chevron.
        canvas.strokeLines(
            [(geometry.x(26), middle - px(10)), (geometry.x(16), middle), (geometry.x(26), middle + px(10))], width: px(3), style.accent)
        // A group's pictures overlap, each ringed in the header's colour, the first on top.
        let stacked = avatars.count > 1
        let radius = px(stacked ? 16 : style.centredHeader ? 20 : 19)
        let step = radius * 1.6
        let stackWidth = step * Double(avatars.count - 1)
        func drawAvatars(firstCenterX: Double, centerY: Double) {
            for (index, avatar) in avatars.enumerated().reversed() {
                let centerX = firstCenterX + step * Double(index)
                if stacked { canvas.fillCircle(centerX: centerX, centerY: centerY, radius: radius + px(1.5), style.headerBackground) }
                avatar.draw(on: canvas, centerX: centerX, centerY: centerY, radius: radius, typesetter: typesetter)
            }
        }
        if style.centredHeader {
            drawAvatars(firstCenterX: geometry.centreX - stackWidth / 2, centerY: top + px(22))
            let name = typesetter.layout(title, size: px(12), width: geometry.column.width - px(120), centred: true)
            canvas.draw(name, x: geometry.x(60), y: top + px(46), style.headerText)
        } else {
            drawAvatars(firstCenterX: geometry.x(39) + radius, centerY: middle)
            let nameX = geometry.x(48) + 2 * radius + stackWidth
            let name = typesetter.layout(title, size: px(17), weight: PANGO_WEIGHT_SEMIBOLD)
            guard let subtitle else {
                canvas.draw(name, x: nameX, y: middle - name.height / 2, style.headerText)
                return
            }
            // The name and, under it, the members on one line, cut after a whole name when they are many.
            let members = typesetter.layout(subtitle, size: px(13), width: geometry.right - px(16) - nameX, maxLines: 1)
            let top = middle - (name.height + members.height) / 2
            canvas.draw(name, x: nameX, y: top, style.headerText)
            canvas.draw(members, x: nameX, y: top + name.height, style.secondaryText)
        }
    }

    /// The time on the left; the signal bars, Wi-Fi and battery on the right, as on an iPhone with full reception.
    private func drawStatusBar(on canvas: Canvas) {
        let clock = typesetter.layout("9:41", size: px(16), weight: PANGO_WEIGHT_SEMIBOLD)
        canvas.draw(clock, x: geometry.x(32), y: px(22) - clock.height / 2, style.headerText)
        let batteryX = geometry.right - px(52)
        canvas.strokeRoundedRect(x: batteryX, y: px(16), width: px(26), height: px(13), radius: px(3.5), lineWidth: px(1.2), style.headerText)
        canvas.fillRoundedRect(x: batteryX + px(2.2), y: px(18.2), width: px(19), height: px(8.6), radius: px(1.8), style.headerText)
        // Wi-Fi: a dot and two arcs fanning upwards from one point under them.
        let wifiX = batteryX - px(13)
        let wifiY = px(28.5)
        let fan = (start: -Double.pi * 3 / 4, end: -Double.pi / 4)
        canvas.fillSector(centerX: wifiX, centerY: wifiY, radius: px(4.2), from: fan.start, to: fan.end, style.headerText)
        for radius in [7.2, 11.4] {
            canvas.strokeArc(centerX: wifiX, centerY: wifiY, radius: px(radius), from: fan.start, to: fan.end, width: px(2.3), style.headerText)
        }
        // Signal: four bars rising to the right, all lit.
        for bar in 0..<4 {
            let height = 4.2 + Double(bar) * 2.5
            canvas.fillRoundedRect(
                x: batteryX - px(49) + px(Double(bar) * 4.6), y: px(28.5) - px(height), width: px(3.1), height: px(height), radius: px(0.9),
                style.headerText)
        }
    }

    /// The input bar, its field holding `field` (words being typed, with a caret) or its placeholder when nil.
    func drawInputBar(field: String?, on canvas: Canvas) {
        let bar = geometry.inputBar
        canvas.fill(bar, style.inputBackground)
        let fieldHeight = px(36)
        let fieldY = Double(bar.y) + (Double(bar.height) - fieldHeight) / 2
        let fieldX = geometry.x(52)
        let fieldWidth = geometry.column.width - px(52 + 56)
        // The "+" (or camera) button before the field.
        canvas.fillCircle(centerX: geometry.x(26), centerY: fieldY + fieldHeight / 2, radius: px(15), style.inputField)
        canvas.strokeLines(
            [(geometry.x(19), fieldY + fieldHeight / 2), (geometry.x(33), fieldY + fieldHeight / 2)], width: px(2.2), style.secondaryText)
        canvas.strokeLines(
            [(geometry.x(26), fieldY + fieldHeight / 2 - px(7)), (geometry.x(26), fieldY + fieldHeight / 2 + px(7))], width: px(2.2),
            style.secondaryText)
        canvas.fillRoundedRect(x: fieldX, y: fieldY, width: fieldWidth, height: fieldHeight, radius: fieldHeight / 2, style.inputField)
        if let border = style.inputFieldBorder {
            canvas.strokeRoundedRect(x: fieldX, y: fieldY, width: fieldWidth, height: fieldHeight, radius: fieldHeight / 2, lineWidth: px(1), border)
        }
        if let field {
            // One line: once it is wider than the field, its end stays in view, as the phone's field scrolls.
            let text = typesetter.layout(field, size: px(17))
            let room = fieldWidth - px(28 + 4)
            let textX = fieldX + px(14) - max(0, text.width - room)
            canvas.clipped(to: PixelRect(x: Int(fieldX + px(10)), y: Int(fieldY), width: Int(fieldWidth - px(20)), height: Int(fieldHeight))) {
                canvas.draw(text, x: textX - text.left, y: fieldY + (fieldHeight - text.height) / 2, style.headerText)
            }
            let caretX = textX + text.width + px(2)
            canvas.strokeLines([(caretX, fieldY + px(8)), (caretX, fieldY + fieldHeight - px(8))], width: px(2), style.accent)
        } else if !style.inputPlaceholder.isEmpty {
            let placeholder = typesetter.layout(style.inputPlaceholder, size: px(17))
            canvas.draw(placeholder, x: fieldX + px(14), y: fieldY + (fieldHeight - placeholder.height) / 2, style.placeholderText)
        }
        // The send button after it, lit only while the field holds something to send.
        let buttonX = geometry.right - px(28)
        let buttonY = fieldY + fieldHeight / 2
        switch style.sendIcon {
        case .arrow:
            canvas.fillCircle(centerX: buttonX, centerY: buttonY, radius: px(16), field == nil ? style.separator : style.inputButton)
            canvas.strokeLines([(buttonX, buttonY + px(7)), (buttonX, buttonY - px(7))], width: px(2.6), RGBColor(0xFFFFFF))
            canvas.strokeLines(
                [(buttonX - px(6), buttonY - px(1)), (buttonX, buttonY - px(7)), (buttonX + px(6), buttonY - px(1))], width: px(2.6),
                RGBColor(0xFFFFFF))
        case .paperPlane where field == nil:
            drawMicrophone(centerX: buttonX, centerY: buttonY, on: canvas)
        case .paperPlane:
            canvas.fillCircle(centerX: buttonX, centerY: buttonY, radius: px(16), style.inputButton)
            // A paper plane pointing right: its nose, its two wing tips behind, the fold between them.
            func point(_ x: Double, _ y: Double) -> (Double, Double) { (buttonX + px(x), buttonY + px(y)) }
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

    /// The keyboard, with the key labelled `pressed` held down (the special keys' darker grey); or the home indicator.
    func drawKeyboard(pressed: String?, on canvas: Canvas) {
        let keyboard = geometry.keyboard
        guard geometry.showsKeyboard else {
            // No keyboard: the home indicator.
            canvas.fill(keyboard, style.inputBackground)
            let barWidth = px(134)
            canvas.fillRoundedRect(
                x: geometry.centreX - barWidth / 2, y: Double(keyboard.maxY) - px(9), width: barWidth, height: px(5), radius: px(2.5),
                style.headerText)
            return
        }
        canvas.fill(keyboard, style.keyboardBackground)
        let keyboardWidth = geometry.columnPoints
        let keyWidth = (keyboardWidth - 6 - 9 * 6) / 10
        // Four rows and their gaps fill the keyboard: 42 points a key on a portrait one.
        let keyHeight = (Double(keyboard.height) / geometry.scale - 48).rounded() / 4
        var y = Double(keyboard.y) + px(8)
        for (row, keys) in Self.keyRows.enumerated() {
            let rowWidth = Double(keys.count) * keyWidth + Double(keys.count - 1) * 6
            var x = (keyboardWidth - rowWidth) / 2
            if row == 2 {
                key("⇧", x: 3, y: y, width: keyWidth * 1.3, height: keyHeight, special: true, pressed: pressed, on: canvas)
                key(
                    "⌫", x: keyboardWidth - 3 - keyWidth * 1.3, y: y, width: keyWidth * 1.3, height: keyHeight, special: true, pressed: pressed,
                    on: canvas)
            }
            for letter in keys {
                key(String(letter), x: x, y: y, width: keyWidth, height: keyHeight, special: false, pressed: pressed, on: canvas)
                x += keyWidth + 6
            }
            y += px(keyHeight + 12)
        }
        let specialWidth = keyWidth * 1.3
        key("123", x: 3, y: y, width: specialWidth, height: keyHeight, special: true, pressed: pressed, on: canvas)
        key("😊", x: 9 + specialWidth, y: y, width: specialWidth, height: keyHeight, special: true, pressed: pressed, on: canvas)
        let returnX = keyboardWidth - 3 - specialWidth * 1.6
        key("return", x: returnX, y: y, width: specialWidth * 1.6, height: keyHeight, special: true, pressed: pressed, on: canvas)
        let spaceX = 15 + specialWidth * 2
        key("space", x: spaceX, y: y, width: returnX - 6 - spaceX, height: keyHeight, special: false, pressed: pressed, on: canvas)
    }

    /// One key; `x` and `width` in points from the keyboard's left edge, `y` in pixels.
    private func key(
        _ label: String, x: Double, y: Double, width: Double, height: Double, special: Bool, pressed: String?, on canvas: Canvas
    ) {
        canvas.fillRoundedRect(
            x: geometry.x(x), y: y, width: px(width), height: px(height), radius: px(5),
            special || label == pressed ? style.keySpecialBackground : style.keyBackground)
        let text = typesetter.layout(label, size: px(label.count > 1 && label != "😊" ? 16 : 22))
        canvas.draw(text, x: geometry.x(x) + (px(width) - text.width) / 2, y: y + (px(height) - text.height) / 2, style.keyText)
    }
}

/// A character's picture: its emoji or initial on a disc of its colour.
struct ChatAvatar {
    let label: String
    let color: RGBColor

    init(_ character: ChatCharacter) {
        label = character.avatar ?? character.name.first.map { String($0).uppercased() } ?? "?"
        color = ChatColor(hex: character.color).map(RGBColor.init) ?? RGBColor(0x8E8E93)
    }

    func draw(on canvas: Canvas, centerX: Double, centerY: Double, radius: Double, typesetter: Typesetter) {
        canvas.fillCircle(centerX: centerX, centerY: centerY, radius: radius, color)
        let text = typesetter.layout(label, size: radius * 1.05, weight: PANGO_WEIGHT_SEMIBOLD)
        canvas.draw(text, x: centerX - text.width / 2, y: centerY - text.height / 2, RGBColor(0xFFFFFF))
    }
}
