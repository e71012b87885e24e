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

    /// Whether column `x` holds a dark pixel (the status bar's text colour in the light theme) in `rows`.
    static func column(_ picture: Picture, x: Int, rows: Range<Int>) -> Bool {
        rows.contains { y in
            let index = (y * picture.width + x) * 3
            return picture.rgb[index] < 60 && picture.rgb[index + 1] < 60 && picture.rgb[index + 2] < 60
        }
    }
}
