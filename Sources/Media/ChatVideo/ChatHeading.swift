import Drawing

/// iMessage's heading over a conversation's first message: the service, and under it the day and time it began
/// ("iMessage", "**Today** 9:41"), centred.
struct ChatHeading {
    private let lines: [ChatNoteLine]
    private let geometry: ChatGeometry
    private let color: RGBColor
    /// The heading's height and the space under it, in whole pixels.
    let height: Int

    init(geometry: ChatGeometry, style: ChatStyle, typesetter: Typesetter) {
        lines = [
            ChatNoteLine(plain: "iMessage", geometry: geometry, typesetter: typesetter),
            ChatNoteLine(bold: "Today", plain: " \(ChatBlockMaker.time)", geometry: geometry, typesetter: typesetter),
        ]
        self.geometry = geometry
        color = style.secondaryText
        height = Int((lines.map(\.height).reduce(0, +) + geometry.px(10)).rounded(.up))
    }

    /// Draws the heading with its top at `y`.
    func draw(on canvas: Canvas, y: Int) {
        var top = Double(y)
        for line in lines {
            line.draw(on: canvas, x: geometry.centreX - line.width / 2, y: top, color)
            top += line.height
        }
    }
}
