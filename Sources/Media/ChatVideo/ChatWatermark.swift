import CPangoCairo
import Drawing

/// The free tier's mark, "Made with ChatTale" on a translucent pill in the middle of the status bar, between the clock
/// and the battery (where a phone's camera island sits): seen at once, and over nothing a viewer reads, at every
/// format. It never changes, so it is drawn with the chrome, once per video.
struct ChatWatermark {
    static let text = "Made with ChatTale"
    let geometry: ChatGeometry
    let typesetter: Typesetter

    func draw(on canvas: Canvas) {
        let label = typesetter.layout(Self.text, size: geometry.px(14), weight: PANGO_WEIGHT_BOLD)
        let width = label.width + geometry.px(24)
        let height = label.height + geometry.px(10)
        let x = geometry.centreX - width / 2
        let y = (geometry.px(ChatGeometry.statusBarPoints) - height) / 2
        canvas.fillRoundedRect(x: x, y: y, width: width, height: height, radius: height / 2, RGBColor(0x000000), alpha: 0.45)
        canvas.draw(label, x: x + geometry.px(12), y: y + geometry.px(5), RGBColor(0xFFFFFF))
    }
}
