import CPangoCairo
import ChatTaleInputs
import Drawing

/// What stands above the messages and never changes during a video: the status bar and the app's header with the
/// contact's name and avatar.
struct ChatChrome {
    let geometry: ChatGeometry
    let style: ChatStyle
    let typesetter: Typesetter
    /// Whom the header shows: the contact, or the group.
    let title: String
    /// The contact's picture, or a group's first three members', side by side.
    let avatars: [ChatAvatar]

    /// Under a group's name, its members (WhatsApp); nil for none.
    let subtitle: String?

    private func px(_ points: Double) -> Double { geometry.px(points) }

    func draw(on canvas: Canvas) {
        let header = geometry.header
        canvas.fill(header, style.headerBackground)
        canvas.fill(PixelRect(x: 0, y: header.maxY - max(1, Int(px(0.5))), width: header.width, height: max(1, Int(px(0.5)))), style.separator)
        drawStatusBar(on: canvas)

        let top = px(ChatGeometry.statusBarPoints)
        let middle = top + px(ChatGeometry.headerPoints / 2)
        // The back chevron.
        canvas.strokeLines(
            [(geometry.x(26), middle - px(10)), (geometry.x(16), middle), (geometry.x(26), middle + px(10))], width: px(3), style.accent)
        // A group's pictures side by side, a small gap between them, so each initial shows whole.
        let group = avatars.count > 1
        let radius = px(group ? 16 : style.centredHeader ? 20 : 19)
        let step = 2 * radius + px(3)
        let rowWidth = step * Double(avatars.count - 1)
        func drawAvatars(firstCenterX: Double, centerY: Double) {
            for (index, avatar) in avatars.enumerated() {
                avatar.draw(on: canvas, centerX: firstCenterX + step * Double(index), centerY: centerY, radius: radius, typesetter: typesetter)
            }
        }
        if style.centredHeader {
            drawAvatars(firstCenterX: geometry.centreX - rowWidth / 2, centerY: top + px(22))
            let name = typesetter.layout(title, size: px(12), width: geometry.column.width - px(120), centred: true)
            canvas.draw(name, x: geometry.x(60), y: top + px(46), style.headerText)
        } else {
            drawAvatars(firstCenterX: geometry.x(39) + radius, centerY: middle)
            let nameX = geometry.x(48) + 2 * radius + rowWidth
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
