import Drawing
import TalevoniaInputs

/// Where each part of a share card goes at one size, and how large its text is.
struct ShareCardLayout {
    let width: Int
    let height: Int
    /// The cover, or the placeholder drawn instead.
    let cover: PixelRect
    let coverRadius: Double
    /// The column the title, byline and summary flow down, centred vertically in it.
    let text: PixelRect
    /// Centred text (the story size) rather than aligned to the reading direction's start.
    let centred: Bool
    let titleSize: Double
    let bylineSize: Double
    let summarySize: Double
    /// The row the wordmark sits in, at its leading edge or centred.
    let footer: PixelRect
    let brandSize: Double
    /// Where the free tier's pill goes: at the trailing edge of the footer (landscape) or centred above the cover (story).
    let watermarkSlot: PixelRect
    let watermarkSize: Double

    /// Where the story size's bottom band starts, in which a story viewer draws its own controls over the card (its reply
    /// field, about the last fifth of the screen): the mark and the text stay above it.
    static let storyReplyBarTop = 1536

    init(_ size: ShareCardSize) {
        (width, height) = size.pixels
        switch size {
        case .landscape:
            cover = PixelRect(x: 56, y: 56, width: 392, height: 518)
            coverRadius = 24
            text = PixelRect(x: 504, y: 56, width: 640, height: 446)
            centred = false
            titleSize = 50
            bylineSize = 24
            summarySize = 24
            footer = PixelRect(x: 504, y: 530, width: 640, height: 44)
            brandSize = 28
            watermarkSlot = footer
            watermarkSize = 18
        case .story:
            // Everything ends above ``storyReplyBarTop``: Instagram's and TikTok's reply bar and buttons cover the rest.
            cover = PixelRect(x: 245, y: 160, width: 590, height: 680)
            coverRadius = 40
            text = PixelRect(x: 96, y: 880, width: 888, height: 550)
            centred = true
            titleSize = 76
            bylineSize = 34
            summarySize = 34
            footer = PixelRect(x: 96, y: 1456, width: 888, height: 64)
            brandSize = 40
            watermarkSlot = PixelRect(x: 96, y: 80, width: 888, height: 64)
            watermarkSize = 26
        }
    }
}
