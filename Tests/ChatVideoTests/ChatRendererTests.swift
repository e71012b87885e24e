import ChatTaleInputs
import ChatVideo
import Foundation
import RenderingFixtures
import Testing

@Suite struct ChatRendererTests {
    /// The picture the golden images show: two messages sent, the third half typed.
    static let goldenState = ChatFrameState(sent: 2, activity: .typing(message: 2, characters: 14))

    static var goldenDirectory: URL { Bundle.module.resourceURL!.appendingPathComponent("Golden") }

    /// One frame per theme, light and dark, compared with the committed golden picture. With `KILN_UPDATE_GOLDEN=1` the
    /// pictures are written into `Tests/ChatVideoTests/Golden` instead, to be looked at and committed.
    @Test(arguments: ChatTheme.allCases, [false, true])
    func aFrameOfEachThemeMatchesItsGoldenPicture(theme: ChatTheme, dark: Bool) throws {
        let input = Conversations.short {
            $0.theme = theme
            $0.darkMode = dark
        }
        let renderer = ChatRenderer(input, watermark: false)
        renderer.render(Self.goldenState)
        let name = "\(theme.rawValue)-\(dark ? "dark" : "light").png"
        if ProcessInfo.processInfo.environment["KILN_UPDATE_GOLDEN"] == "1" {
            let source = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Golden/\(name)")
            #expect(renderer.writePNG(to: source.path))
            return
        }
        let golden = try #require(Picture(png: Self.goldenDirectory.appendingPathComponent(name).path), "no golden picture \(name)")
        // Font rendering may move an edge by a pixel between machines; a layout change moves far more.
        #expect(Picture(renderer).meanDifference(from: golden) < 1.5)
    }

    /// What the cached layers and dirty rows produce equals drawing every picture from nothing.
    @Test(arguments: [ChatVideoFormat.portrait, .landscape])
    func drawingFromCachedLayersEqualsDrawingFromScratch(format: ChatVideoFormat) {
        let input = Conversations.short {
            $0.format = format
            $0.keyboard = format == .portrait
        }
        let timeline = ChatTimeline(input)
        let cached = ChatRenderer(input, watermark: true)
        let scratch = ChatRenderer(input, watermark: true)
        for (index, segment) in timeline.segments.enumerated() {
            cached.render(segment.state)
            // Every seventh picture, and the last: enough to cross typing, sending, scrolling and the indicator.
            guard index % 7 == 0 || index == timeline.segments.count - 1 else { continue }
            scratch.renderFromScratch(segment.state)
            #expect(Picture(cached).maxDifference(from: Picture(scratch)) <= 2, "picture \(index): \(segment.state)")
        }
    }

    @Test func theWatermarkIsDrawnOnlyWhenAsked() {
        let input = Conversations.short()
        let state = ChatFrameState(sent: 3, activity: .idle)
        let marked = ChatRenderer(input, watermark: true)
        let clean = ChatRenderer(input, watermark: false)
        marked.render(state)
        clean.render(state)
        let withMark = Picture(marked)
        let without = Picture(clean)
        // Lower right, just above the input bar (which starts at 1186 with the keyboard): a dark pill over the white.
        let corner = (x: withMark.width - 250, y: 1100, width: 150, height: 40)
        let markedLight = withMark.meanColor(x: corner.x, y: corner.y, width: corner.width, height: corner.height)
        let cleanLight = without.meanColor(x: corner.x, y: corner.y, width: corner.width, height: corner.height)
        #expect(cleanLight.red > 250)
        #expect(markedLight.red < cleanLight.red - 10)
        #expect(withMark.meanDifference(from: without) > 0)
    }
}
