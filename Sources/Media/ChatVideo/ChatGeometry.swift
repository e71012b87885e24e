import ChatTaleInputs
import Drawing

/// Where things go on a frame, in pixels. Sizes are iPhone points times `scale`. At 9:16 and 1:1 the phone's screen
/// fills the frame, letterboxed into its shorter side. At 16:9, watched on a television or a computer in landscape,
/// the app is laid out for that screen instead: larger (a line of text about 38 pixels of 1080 high), in a column
/// centred on the frame, and with a landscape keyboard when there is one.
struct ChatGeometry {
    let width: Int
    let height: Int
    /// Pixels per point.
    let scale: Double
    /// The band the app's content is laid out in, across the frame's height: the whole width on the phone's formats, a
    /// centred column at 16:9. Backgrounds span the frame's width.
    let column: (x: Double, width: Double)
    /// Status bar and the app's header.
    let header: PixelRect
    /// Where the messages scroll.
    let viewport: PixelRect
    let inputBar: PixelRect
    /// The keyboard, or when it is off the home-indicator strip.
    let keyboard: PixelRect
    /// Whether `keyboard` holds keys or the home indicator: decided once here, as sizes rounded to pixels cannot tell.
    let showsKeyboard: Bool

    static let statusBarPoints = 44.0
    static let headerPoints = 64.0
    static let inputBarPoints = 52.0
    static let homeIndicatorPoints = 22.0
    /// The portrait keyboard's height; a landscape one (16:9, and the square's 700-point width) is lower, as on the phone.
    static let keyboardPoints = 216.0
    static let landscapeKeyboardPoints = 160.0
    /// At 16:9: the frame's height in points (so a point is 2.25 pixels) and the conversation column's width.
    static let landscapeHeightPoints = 480.0
    static let landscapeColumnPoints = 560.0

    init(format: ChatVideoFormat, keyboard showKeyboard: Bool) {
        let (width, height) = format.size
        let scale: Double
        let column: (x: Double, width: Double)
        let keyboardPoints: Double
        switch format {
        case .portrait, .square:
            scale = min(Double(width) / 390, Double(height) / 700)
            column = (0, Double(width))
            // The square is 700 points wide, as wide as a phone on its side: iOS gives so wide a screen its lower
            // landscape keyboard, which leaves the conversation most of the frame.
            keyboardPoints = format == .square ? Self.landscapeKeyboardPoints : Self.keyboardPoints
        case .landscape:
            scale = Double(height) / Self.landscapeHeightPoints
            let columnWidth = Self.landscapeColumnPoints * scale
            column = ((Double(width) - columnWidth) / 2, columnWidth)
            keyboardPoints = Self.landscapeKeyboardPoints
        }
        func pixels(_ points: Double) -> Int { Int((points * scale).rounded()) }
        let header = PixelRect(x: 0, y: 0, width: width, height: pixels(Self.statusBarPoints + Self.headerPoints))
        let bottom = pixels(showKeyboard ? keyboardPoints : Self.homeIndicatorPoints)
        let keyboard = PixelRect(x: 0, y: height - bottom, width: width, height: bottom)
        let inputBar = PixelRect(x: 0, y: keyboard.y - pixels(Self.inputBarPoints), width: width, height: pixels(Self.inputBarPoints))
        (self.width, self.height, self.scale, self.column) = (width, height, scale, column)
        (self.header, self.keyboard, self.inputBar, self.showsKeyboard) = (header, keyboard, inputBar, showKeyboard)
        viewport = PixelRect(x: 0, y: header.maxY, width: width, height: inputBar.y - header.maxY)
    }

    /// `points` in pixels.
    func px(_ points: Double) -> Double { points * scale }

    /// `points` from the column's left edge, in pixels from the frame's.
    func x(_ points: Double) -> Double { column.x + points * scale }

    /// The column's right edge, in pixels.
    var right: Double { column.x + column.width }

    var centreX: Double { column.x + column.width / 2 }

    /// The column's width in points.
    var columnPoints: Double { column.width / scale }
}
