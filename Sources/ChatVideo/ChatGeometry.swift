import ChatTaleInputs
import Drawing

/// Where things go on a frame, in pixels. Sizes are iPhone points times `scale`: the same phone screen at each of
/// the three formats, letterboxed into the shorter side.
struct ChatGeometry {
    let width: Int
    let height: Int
    /// Pixels per point.
    let scale: Double
    /// Status bar and the app's header.
    let header: PixelRect
    /// Where the messages scroll.
    let viewport: PixelRect
    let inputBar: PixelRect
    /// Empty when the keyboard is off (then a home-indicator strip).
    let keyboard: PixelRect

    static let statusBarPoints = 44.0
    static let headerPoints = 64.0
    static let inputBarPoints = 52.0
    static let keyboardPoints = 216.0
    static let homeIndicatorPoints = 22.0

    init(format: ChatVideoFormat, keyboard showKeyboard: Bool) {
        let (width, height) = format.size
        let scale = min(Double(width) / 390, Double(height) / 700)
        func pixels(_ points: Double) -> Int { Int((points * scale).rounded()) }
        let header = PixelRect(x: 0, y: 0, width: width, height: pixels(Self.statusBarPoints + Self.headerPoints))
        let bottom = pixels(showKeyboard ? Self.keyboardPoints : Self.homeIndicatorPoints)
        let keyboard = PixelRect(x: 0, y: height - bottom, width: width, height: bottom)
        let inputBar = PixelRect(x: 0, y: keyboard.y - pixels(Self.inputBarPoints), width: width, height: pixels(Self.inputBarPoints))
        (self.width, self.height, self.scale) = (width, height, scale)
        (self.header, self.keyboard, self.inputBar) = (header, keyboard, inputBar)
        viewport = PixelRect(x: 0, y: header.maxY, width: width, height: inputBar.y - header.maxY)
    }

    /// `points` in pixels.
    func px(_ points: Double) -> Double { points * scale }
}
