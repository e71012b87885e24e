@testable import Documents
import Drawing
import TalevoniaInputs
import Testing

/// Where the story size (1080×1920) puts things, against what a story viewer draws over it.
@Suite struct ShareCardLayoutTests {
    /// Instagram's and TikTok's reply field and buttons cover about the last fifth of a story: the mark, the title and the
    /// summary end above it, so nothing of the card hides under them (the mark sat at y 1740–1804).
    @Test func theStorySizesMarkAndTextEndAboveTheReplyBar() {
        let layout = ShareCardLayout(.story)
        let replyBar = ShareCardLayout.storyReplyBarTop
        #expect(replyBar <= 1920 * 4 / 5)
        for (part, rect) in [("mark", layout.footer), ("text", layout.text), ("cover", layout.cover)] {
            #expect(rect.maxY <= replyBar, "the \(part) ends at \(rect.maxY)")
        }
        #expect(layout.text.y >= layout.cover.maxY)
        #expect(layout.footer.y >= layout.text.maxY)
    }
}
