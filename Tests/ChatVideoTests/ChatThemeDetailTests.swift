import ChatTaleInputs
import ChatVideo
import RenderingFixtures
import Testing

/// The details of each app that its users would notice missing, checked in the rendered pixels.
@Suite struct ChatThemeDetailTests {
    /// Pixels per point at 9:16, where the phone's 390-point screen fills the 1080-pixel width.
    static let portraitScale = 1080.0 / 390

    /// The status bar shows the signal bars and the Wi-Fi mark beside the battery, as on a phone with reception: in the
    /// status bar's right half, six separate marks (four bars, the Wi-Fi fan, the battery), at every format.
    @Test(arguments: ChatVideoFormat.allCases)
    func theStatusBarShowsSignalAndWiFi(format: ChatVideoFormat) {
        let renderer = ChatRenderer(Conversations.short { $0.format = format }, watermark: false)
        renderer.render(ChatFrameState(sent: 0, activity: .idle))
        let picture = Picture(renderer)
        let statusBar = 0..<(picture.height / 16)
        // The columns of the right half holding the status bar's black, in runs separated by the background.
        var marks = 0
        var inMark = false
        for x in (picture.width / 2)..<picture.width {
            let dark = Self.column(picture, x: x, rows: statusBar)
            if dark && !inMark { marks += 1 }
            inMark = dark
        }
        #expect(marks == 6, "\(marks) marks in the status bar's right half at \(format.rawValue)")
    }

    /// iMessage's tail is iOS's hook, on both sides: the tip reaches the bubble's bottom beyond its side, the bottom
    /// curves up into a notch before the tip (the background shows under it), and further in the bottom is flat again.
    @Test(arguments: [ChatSide.right, .left])
    func iMessageTailsAreCurvedHooks(side: ChatSide) throws {
        let renderer = ChatRenderer(Conversations.short(), watermark: false)
        renderer.render(ChatFrameState(sent: 2, activity: .idle))
        let picture = Picture(renderer)
        let color: (UInt8, UInt8, UInt8) = side == .right ? (0x0B, 0x84, 0xFE) : (0xE9, 0xE9, 0xEB)
        let bubble = try #require(picture.bounds(rows: 0..<(picture.height / 2)) { ($0, $1, $2) == color })
        let scale = Self.portraitScale
        /// The lowest row of the bubble's colour in the column `points` in from the tail's tip.
        func bottom(pointsIn points: Double) -> Int? {
            let x = side == .right ? bubble.maxX - Int(points * scale) : bubble.minX + Int(points * scale)
            return (bubble.minY...bubble.maxY).last { y in
                let index = (y * picture.width + x) * 3
                return (picture.rgb[index], picture.rgb[index + 1], picture.rgb[index + 2]) == color
            }
        }
        let tip = try #require(bottom(pointsIn: 0.5))
        let notch = try #require(bottom(pointsIn: 11))
        let flat = try #require(bottom(pointsIn: 27))
        #expect(bubble.maxY - tip <= Int(scale), "the tip ends \(bubble.maxY - tip) pixels above the bottom")
        #expect(bubble.maxY - notch >= Int(2.5 * scale), "the notch is \(bubble.maxY - notch) pixels deep")
        #expect(bubble.maxY - flat <= Int(scale), "the bottom 27 points in is \(bubble.maxY - flat) pixels up")
    }

    /// Whether column `x` holds a dark pixel (the status bar's text colour in the light theme) in `rows`.
    static func column(_ picture: Picture, x: Int, rows: Range<Int>) -> Bool {
        rows.contains { y in
            let index = (y * picture.width + x) * 3
            return picture.rgb[index] < 60 && picture.rgb[index + 1] < 60 && picture.rgb[index + 2] < 60
        }
    }
}
