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

/// iMessage's receipt under the phone's owner's latest sent message: "Delivered", or "**Read** 9:41", its right edge
/// under the bubble's.
struct ChatReceipt {
    private let delivered: ChatNoteLine
    private let read: ChatNoteLine
    private let geometry: ChatGeometry
    private let color: RGBColor
    /// The space the receipt takes under its message, in whole pixels.
    let height: Int

    init(geometry: ChatGeometry, style: ChatStyle, typesetter: Typesetter) {
        delivered = ChatNoteLine(plain: "Delivered", geometry: geometry, typesetter: typesetter)
        read = ChatNoteLine(bold: "Read", plain: " \(ChatBlockMaker.time)", geometry: geometry, typesetter: typesetter)
        self.geometry = geometry
        color = style.secondaryText
        height = Int((delivered.height + geometry.px(4)).rounded(.up))
    }

    /// Draws the receipt, read or not, under a bubble whose bottom is at `bubbleBottom` pixels.
    func draw(read isRead: Bool, under bubbleBottom: Double, on canvas: Canvas) {
        let line = isRead ? read : delivered
        line.draw(on: canvas, x: geometry.right - geometry.px(16) - line.width, y: bubbleBottom + geometry.px(2), color)
    }
}
