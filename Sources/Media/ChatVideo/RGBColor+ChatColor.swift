import ChatTaleInputs
import Drawing

extension RGBColor {
    /// A character's colour, as ChatTale's input writes it.
    init(_ color: ChatColor) {
        self.init(color.rgb)
    }
}
