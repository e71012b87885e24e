import Drawing

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
        line.draw(on: canvas, x: geometry.right - geometry.px(14) - line.width, y: bubbleBottom + geometry.px(2), color)
    }
}
